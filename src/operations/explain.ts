/**
 * The `explanation` of an estimate or discover answer (`explain: true`, docs/estimates.md section
 * 1.6): the 271 benefits behind each figure, the carve-out administrator's own when it priced the
 * session, the other reading where the payer is ambiguous, and the steps of the member's share.
 * Built only when asked.
 */
import type { Coverage, IsoDate } from '../domain/coverage.ts';
import { estimate as computeEstimate, obligationSteps } from '../domain/estimate/index.ts';
import { dollars } from '../domain/estimate/explain.ts';
import type { EstimateFinancials, Explanation, ExplanationEntry } from '../domain/schemas/responses.ts';
import type { TraceEntry } from '../x12/index.ts';

/** A rule that reads no single EB. */
const note = (figure: string, rule: string): TraceEntry => ({
  figure,
  network: null,
  segment: null,
  eb: null,
  service_type: null,
  coverage_level: null,
  place_of_service: null,
  time_period: null,
  rule,
});

export interface ExplainInput {
  /** The encounter's date of service (the plan-in-force gate). */
  date_of_service?: IsoDate;
  /** What the member's payer's 271 said. */
  trace: TraceEntry[];
  /** The carve-out administrator asked with a second 270 (null when none answered) and what its 271 said. */
  administrator: { payer_id: string; trace: TraceEntry[] } | null;
}

/** What the member would pay had the deductible been read the other way for the selected network. */
function otherReading(coverage: Coverage, f: EstimateFinancials): number | null {
  const b = f.in_network ? coverage.in_network : coverage.out_of_network;
  if (!b || f.provider_session_cost === null) return null;
  const flipped = { ...b, deductible_applies: !b.deductible_applies };
  const other = f.in_network ? { ...coverage, in_network: flipped } : { ...coverage, out_of_network: flipped };
  return computeEstimate(other, { session_cost: f.provider_session_cost, in_network: f.in_network }).fields.member_obligation;
}

/** A trace entry as the response shows it (the row's status is told by the list it is in). */
function entry(e: TraceEntry): ExplanationEntry {
  const { status: _status, ...rest } = e;
  return rest;
}

/**
 * The member payer's trace split for one network (`null`: both, for discover): each EB row once, as
 * used (in `benefits`, once per figure it backs), in conflict, or skipped with its reason. A row used
 * or in conflict only for the other network is skipped: only the network asked about is listed.
 */
export function splitTrace(trace: readonly TraceEntry[], net: 'in' | 'out' | null): Pick<Explanation, 'benefits' | 'skipped' | 'conflicts'> {
  const asked = (e: TraceEntry) => net === null || e.network === null || e.network === net;
  const used = new Set<number>();
  const conflicting = new Set<number>();
  for (const e of trace) {
    if (e.segment === null || !asked(e)) continue;
    if (e.status === undefined) used.add(e.segment);
    else if (e.status === 'conflict') conflicting.add(e.segment);
  }
  const benefits: ExplanationEntry[] = [];
  const conflicts: ExplanationEntry[] = [];
  const skipped: ExplanationEntry[] = [];
  const skippedRows = new Set<number>();
  const conflictRows = new Set<number>();
  for (const e of trace) {
    const seg = e.segment;
    if (e.status === undefined && asked(e)) benefits.push(entry(e));
    else if (seg === null) continue;
    else if (e.status === 'conflict' && asked(e) && !used.has(seg)) {
      if (!conflictRows.has(seg)) conflicts.push(entry(e));
      conflictRows.add(seg);
    } else if (!used.has(seg) && !conflicting.has(seg) && !skippedRows.has(seg)) {
      skippedRows.add(seg);
      skipped.push(
        e.status === 'skipped'
          ? entry(e)
          : {
              ...entry(e),
              figure: 'not used',
              network: null,
              rule: `read only for the ${e.network === 'in' ? 'in-network' : 'out-of-network'} figures; ${net === 'in' ? 'in network' : 'out of network'} was asked`,
            },
      );
    }
  }
  return { benefits, skipped, conflicts };
}

export function estimateExplanation(coverage: Coverage, f: EstimateFinancials, input: ExplainInput): Explanation {
  const net = f.in_network ? 'in' : 'out';
  const split = splitTrace(input.trace, net);
  const benefits = split.benefits;
  if (input.administrator) {
    const id = input.administrator.payer_id;
    benefits.push(
      note('carve-out administrator', `${id} was asked with a second 270; its answer, traced below, prices the session, not the medical plan's figures above`),
    );
    const admin = splitTrace(
      input.administrator.trace.map((e) => ({ ...e, administrator: id })),
      net,
    );
    benefits.push(...admin.benefits);
    split.skipped.push(...admin.skipped.map((e) => ({ ...e, administrator: id })));
    split.conflicts.push(...admin.conflicts.map((e) => ({ ...e, administrator: id })));
  }
  const obligation = obligationSteps(coverage, f, input.date_of_service ?? null);
  const ambiguous = input.administrator ? benefits.filter((e) => e.administrator !== undefined) : benefits;
  for (const e of ambiguous) {
    if (e.alternative === undefined || e.network !== net) continue;
    const other = otherReading(coverage, f);
    if (other === null || other === f.member_obligation) continue;
    e.alternative = `${e.alternative}: the member would pay ${dollars(other)} instead of ${dollars(f.member_obligation)}`;
    obligation.push(`the payer is ambiguous about the deductible; read the other way, the member would pay ${dollars(other)}`);
  }
  if (split.conflicts.length > 0)
    obligation.push(`${split.conflicts.length} rows of the 271 contradict each other: the figures they state are unknown, never the first`);
  return { benefits, skipped: split.skipped, conflicts: split.conflicts, obligation };
}

/** Discover reports the plan, not a price: the benefits it was read from, no obligation steps. */
export function discoverExplanation(trace: TraceEntry[]): Explanation {
  return { ...splitTrace(trace, null), obligation: [] };
}
