/**
 * What a monitor keeps of an estimate between checks, and what changed between two of them
 * (docs/monitoring.md). The snapshot holds only the fields worth an event: no names, no dates of
 * birth; the member ID only because a changed member ID is itself worth telling.
 */

/** A watched value: text, a number (cents or percent points), a yes/no, or null when the payer did not say. */
export type Watched = string | number | boolean | null;

/** The watched fields, in the order changes are listed. */
export const WATCHED_FIELDS = [
  'plan_status',
  'coverage_status',
  'plan_begin_date',
  'plan_end_date',
  'eligibility_end_date',
  'reset_benefits_status',
  'reset_effective_date',
  'member_id',
  'payer_id',
  'payer_corrected',
  'carve_out',
  'benefit_structure',
  'copayment',
  'coinsurance',
  'deductible',
  'oop_max',
  'deductible_met',
  'oop_max_met',
  'member_obligation',
] as const;
export type WatchedField = (typeof WATCHED_FIELDS)[number];

export type CoverageSnapshot = { [F in WatchedField]: Watched };

export interface CoverageChange {
  field: WatchedField;
  old: Watched;
  new: Watched;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Met when none is left; unknown (null) stays unknown, never "not met". */
const met = (remaining: unknown): boolean | null => (typeof remaining === 'number' ? remaining === 0 : null);

/** The snapshot of an estimate answer (200 or 206 body of POST /v1/estimate). */
export function snapshotOf(estimate: Record<string, unknown>): CoverageSnapshot {
  const reset = estimate.reset_benefits as { effective_date?: unknown } | null | undefined;
  const demographics = estimate.demographics as { member_id?: unknown } | null | undefined;
  const carveOut = estimate.third_party_payer as { name?: unknown; payer_id?: unknown } | null | undefined;
  const alerts = Array.isArray(estimate.alerts) ? (estimate.alerts as { code?: unknown }[]) : [];
  return {
    plan_status: str(estimate.plan_status),
    coverage_status: str(estimate.coverage_status),
    plan_begin_date: str(estimate.plan_begin_date),
    plan_end_date: str(estimate.plan_end_date),
    eligibility_end_date: str(estimate.eligibility_end_date),
    reset_benefits_status: str(estimate.reset_benefits_status),
    reset_effective_date: str(reset?.effective_date),
    member_id: str(demographics?.member_id),
    payer_id: str(estimate.payer_id),
    payer_corrected: alerts.some((a) => a.code === 'PAYER_CORRECTED'),
    carve_out: carveOut ? (str(carveOut.payer_id) ?? str(carveOut.name)) : null,
    benefit_structure: str(estimate.benefit_structure),
    copayment: num(estimate.copayment),
    coinsurance: num(estimate.coinsurance),
    deductible: num(estimate.deductible),
    oop_max: num(estimate.oop_max),
    deductible_met: met(estimate.remaining_deductible),
    oop_max_met: met(estimate.remaining_oop_max),
    member_obligation: num(estimate.member_obligation),
  };
}

/** Each watched field whose value differs, once, in WATCHED_FIELDS order. diff(a, a) is empty. */
export function diffSnapshots(before: CoverageSnapshot, after: CoverageSnapshot): CoverageChange[] {
  const changes: CoverageChange[] = [];
  for (const field of WATCHED_FIELDS) {
    const old = before[field] ?? null;
    const now = after[field] ?? null;
    if (!Object.is(old, now)) changes.push({ field, old, new: now });
  }
  return changes;
}

/** A snapshot read back from the store: every watched field present (older snapshots may lack new fields). */
export function readSnapshot(value: unknown): CoverageSnapshot | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const snapshot = {} as CoverageSnapshot;
  for (const field of WATCHED_FIELDS) {
    const v = record[field];
    snapshot[field] = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
  }
  return snapshot;
}
