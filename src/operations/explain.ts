/**
 * The `explanation` of an estimate or discover answer (`explain: true`, docs/estimates.md section
 * 1.6): the 271 benefits behind each figure, the carve-out administrator's own when it priced the
 * session, the other reading where the payer is ambiguous, and the steps of the member's share.
 * Built only when asked.
 */
import type { Coverage, IsoDate } from '../domain/coverage.ts';
import { estimate as computeEstimate, obligationSteps } from '../domain/estimate/index.ts';
import { dollars } from '../domain/estimate/explain.ts';
import type { EstimateFinancials, Explanation } from '../domain/schemas/responses.ts';
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

export function estimateExplanation(coverage: Coverage, f: EstimateFinancials, input: ExplainInput): Explanation {
  const benefits = [...input.trace];
  let pricing = input.trace;
  if (input.administrator) {
    const id = input.administrator.payer_id;
    benefits.push(
      note('carve-out administrator', `${id} was asked with a second 270; its answer, traced below, prices the session, not the medical plan's figures above`),
    );
    pricing = input.administrator.trace.map((e) => ({ ...e, administrator: id }));
    benefits.push(...pricing);
  }
  const obligation = obligationSteps(coverage, f, input.date_of_service ?? null);
  const net = f.in_network ? 'in' : 'out';
  for (const e of pricing) {
    if (e.alternative === undefined || e.network !== net) continue;
    const other = otherReading(coverage, f);
    if (other === null || other === f.member_obligation) continue;
    e.alternative = `${e.alternative}: the member would pay ${dollars(other)} instead of ${dollars(f.member_obligation)}`;
    obligation.push(`the payer is ambiguous about the deductible; read the other way, the member would pay ${dollars(other)}`);
  }
  return { benefits, obligation };
}

/** Discover reports the plan, not a price: the benefits it was read from, no obligation steps. */
export function discoverExplanation(trace: TraceEntry[]): Explanation {
  return { benefits: trace, obligation: [] };
}
