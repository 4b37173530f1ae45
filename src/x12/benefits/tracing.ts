/**
 * Every EB row of the 271 named in the explanation (docs/estimates.md section 1.6): a row no figure
 * was read from gets one `skipped` entry saying why, so a figure never looks backed by more of the
 * answer than it is.
 */
import { codeWords } from '../code-tables/index.ts';
import { benefitRole } from '../code-tables/attributes.ts';
import type { BenefitRole } from '../code-tables/index.ts';

/** EB01 A, B, I, E, C, G, F (eb01.json `role`): rows stating a figure. */
const FIGURE_ROLES: ReadonlySet<BenefitRole> = new Set(['coinsurance', 'copayment', 'not_covered', 'deductible', 'out_of_pocket', 'limitation']);
/** EB01 L, N, R, U, P, X: rows naming an entity or another payer. */
const ENTITY_ROLES: ReadonlySet<BenefitRole> = new Set(['primary_care', 'restricted_provider', 'other_payer', 'contact', 'disclaimer', 'facility']);
import { el } from '../tokenizer.ts';
import { unknownWords } from './closed-world.ts';
import type { Selectable } from './rows.ts';
import { traced, type TraceEntry } from './trace.ts';

export interface RowFacts extends Selectable {
  planWide: boolean;
}

/** Why a row that priced nothing was not used, from what it is. */
function reasonOf(b: RowFacts): string {
  const info = b.info;
  if (b.status) return `an eligibility status row (EB01 ${info}) for service type ${el(b.loop.seg, 3) || '(plan level)'}: it states coverage, not a price`;
  if (b.tier < 0) return `service type EB03 ${el(b.loop.seg, 3)} is not a behavioral-health type (MH, CF, A4, A6, A8, AI, 98 or 30)`;
  if (b.place === 'elsewhere') return "its places of service (2115C III*ZZ) are neither the visit's nor telehealth";
  const role = benefitRole(info);
  if (role === 'limitation' && !b.cost) {
    const eb09 = el(b.loop.seg, 9);
    const unit = eb09 === '' ? 'no unit of service in EB09 or HSD01' : `EB09 ${codeWords('quantity', eb09)}`;
    return `a limitation (EB01 F) with ${unit}: not a limit in visits or another unit a session uses (hours, days, services, units), so it says nothing of this session`;
  }
  if (role !== undefined && FIGURE_ROLES.has(role)) return 'a more specific row (procedure, service type, place of service, network) states this figure';
  if (role !== undefined && ENTITY_ROLES.has(role))
    return `EB01 ${info} names an entity or another payer (read for the PCP, other payers or a carve-out), not a price`;
  if (role === 'other_source') return 'EB01 W (other source of data): another source states this benefit (read for a carve-out), not a price';
  return `EB01 ${info} says nothing about the price of this session`;
}

/**
 * Adds a `skipped` entry for each row no entry names yet: `why` holds the reasons already known
 * (excluded by the encounter, next plan year, Medicare Part A).
 */
export function traceUnusedRows(rows: readonly RowFacts[], why: ReadonlyMap<RowFacts, string>, trace: TraceEntry[]): void {
  const named = new Set<number>();
  for (const e of trace) if (e.segment !== null) named.add(e.segment);
  for (const b of rows) {
    if (named.has(b.loop.seg.index)) continue;
    named.add(b.loop.seg.index);
    const reason = why.get(b) ?? reasonOf(b);
    // A row with values no rule reads says which (closed-world.ts), whatever else kept it from pricing.
    const unknown = b.unknown && b.unknown.length > 0 ? `; it carries values no rule reads (${unknownWords(b.unknown)})` : '';
    trace.push({ ...traced('not used', null, b, reason + unknown), status: 'skipped' });
  }
}

/** The status rows read for the plan and for behavioral health, then every other row once with why it was not used. */
export function traceRows(
  trace: TraceEntry[],
  r: {
    all: readonly RowFacts[];
    planLevel: RowFacts | undefined;
    /** The status row is the plan's (EB03 30 or none); else mental health's stands for it (no row for the plan). */
    planWide: boolean;
    coverageStatus: string;
    mh: RowFacts | undefined;
    mental: string;
    skipped: readonly { b: RowFacts; why: string }[];
    next: readonly (RowFacts & { begin: string | null })[];
    partAFiltered: readonly RowFacts[];
    /** This plan year's rows when the date of service falls in the next plan year, which prices it. */
    pastYear: readonly RowFacts[];
  },
): void {
  if (r.planLevel)
    trace.push(
      traced(
        `coverage status: ${r.coverageStatus}`,
        null,
        r.planLevel,
        r.planWide
          ? 'the plan-level eligibility status row (EB01 1-8, EB03 30 or none)'
          : "no status row for the plan: mental health's own status row (EB03 MH, CF, A4, A6, A8) stands for it",
      ),
    );
  else if (r.coverageStatus === 'unknown')
    trace.push(
      traced(
        'coverage status: unknown',
        null,
        null,
        'no eligibility status row (EB01 1-8) for the plan (EB03 30 or none) or for mental health: a status row covers only the service types it lists',
      ),
    );
  if (r.mh) trace.push(traced(`behavioral health: ${r.mental}`, null, r.mh, 'the eligibility status row of the mental-health service types'));
  const why = new Map<RowFacts, string>();
  for (const { b, why: reason } of r.skipped) why.set(b, `does not apply to this encounter: ${reason}`);
  for (const b of r.next) why.set(b, `a later plan year (DTP 348 ${b.begin}): reported as next_plan_year, it never prices this session`);
  for (const b of r.pastYear) why.set(b, 'this plan year ends before the date of service: the next plan year the payer reports prices it');
  for (const b of r.partAFiltered) why.set(b, 'Medicare Part A (EB04 MA): never prices an outpatient session');
  // Rows outside `all` (another subscriber level's) are named too.
  const all = new Set(r.all);
  traceUnusedRows([...r.all, ...r.skipped.map((x) => x.b).filter((b) => !all.has(b))], why, trace);
}
