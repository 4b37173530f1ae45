/**
 * plan_status and the plan-year reset fields (docs/interface.md section 2, docs/estimates.md sections 10 and 11).
 * `today` is injected (YYYY-MM-DD); domain code never reads the clock. Rules: docs/estimates.md.
 */
import type { Cents, Coverage, IsoDate } from './coverage.ts';
import { isoDateParts } from './formats.ts';
import { RESET_CHANGES, type PlanStatus, type ResetChange, type ResetFields } from './schemas/responses.ts';

/** An end date this many days ahead or fewer is "before a likely next visit": the plan is at risk. */
export const AT_RISK_WINDOW_DAYS = 30;
/**
 * Monthly Medicaid eligibility runs to the last day of each month and is renewed month by month:
 * it is at risk only when it ends before the next visit of a weekly outpatient course, this many days.
 */
export const NEXT_VISIT_WINDOW_DAYS = 7;
/** A plan-year reset this many days ahead or fewer is "soon". */
export const RESET_WINDOW_DAYS = 30;

/** Days since 1970-01-01 for a calendar date; pure arithmetic, no clock. */
function dayNumber(date: IsoDate, field: string): number {
  const p = isoDateParts(date);
  if (p < 0) throw new RangeError(`${field} must be a YYYY-MM-DD date, got ${JSON.stringify(date)}`);
  return Date.UTC(Math.floor(p / 10000), (Math.floor(p / 100) % 100) - 1, p % 100) / 86_400_000;
}

/** Days from today to a date (negative: in the past); null when the date is unknown. */
function daysUntil(date: IsoDate | null, today: number, field: string): number | null {
  return date === null ? null : dayNumber(date, field) - today;
}

/** The payer already reports a next plan year that starts no later than the day after `end`. */
function continuesAfter(coverage: Coverage, end: IsoDate): boolean {
  const next = coverage.next_plan_year;
  return next !== null && dayNumber(next.begin_date, 'next_plan_year.begin_date') <= dayNumber(end, 'end date') + 1;
}

/** Medicaid whose eligibility ends on the last day of a month: the monthly renewal, not a termination. */
function monthlyMedicaid(coverage: Coverage, end: IsoDate): boolean {
  const medicaid = coverage.insurance_type === 'medicaid' || coverage.insurance_type === 'managed_medicaid' || coverage.insurance_type === 'qmb';
  if (!medicaid) return false;
  const next = new Date((dayNumber(end, 'eligibility_end_date') + 1) * 86_400_000);
  return next.getUTCDate() === 1;
}

/**
 * Whether the plan is in force on `day` by its dates: begun, eligibility not ended, and this plan year
 * not ended unless the next plan year the payer reports has begun (its benefits then price a visit).
 * The estimate's gate and the plan status judge a day by this one rule (docs/estimates.md sections 4 and 10).
 */
export function inForce(c: Coverage, day: IsoDate): boolean {
  const t = dayNumber(day, 'date');
  const after = (date: IsoDate | null, field: string) => date !== null && dayNumber(date, field) > t;
  const before = (date: IsoDate | null, field: string) => date !== null && dayNumber(date, field) < t;
  if (after(c.plan_begin_date, 'plan_begin_date')) return false;
  if (before(c.eligibility_end_date, 'eligibility_end_date')) return false;
  if (before(c.plan_end_date, 'plan_end_date')) return c.next_plan_year !== null && !after(c.next_plan_year.begin_date, 'next_plan_year.begin_date');
  return true;
}

/**
 * The plan's status on `asOf` (today, or an estimate's date of service).
 * INACTIVE: coverage_status inactive, or the plan not in force on that day (inForce: not begun yet,
 * or the plan year or the eligibility ended before it, with no next plan year begun).
 * ACTIVE_AT_RISK: active pending investigation or a status the payer does not state (unknown), or eligibility ends within the next 30 days
 * (that day included; 7 for monthly Medicaid eligibility ending on a month's last day) and the payer
 * does not already report a next plan year continuing it.
 * ACTIVE otherwise.
 */
export function planStatus(coverage: Coverage, asOf: IsoDate): PlanStatus {
  const t = dayNumber(asOf, 'today');
  if (coverage.coverage_status === 'inactive' || !inForce(coverage, asOf)) return 'INACTIVE';
  // No status for the plan or mental health: unknown, never INACTIVE; the desk confirms it (docs/estimates.md 10).
  if (coverage.coverage_status === 'active_pending_investigation' || coverage.coverage_status === 'unknown') return 'ACTIVE_AT_RISK';
  // Only a reported end of eligibility puts the plan at risk: the end of a plan year is the
  // routine renewal that resetRules reports, and most plans renew.
  const eligibility = coverage.eligibility_end_date;
  const days = daysUntil(eligibility, t, 'eligibility_end_date');
  const window = eligibility !== null && monthlyMedicaid(coverage, eligibility) ? NEXT_VISIT_WINDOW_DAYS : AT_RISK_WINDOW_DAYS;
  if (eligibility !== null && days !== null && days <= window && !continuesAfter(coverage, eligibility)) return 'ACTIVE_AT_RISK';
  return 'ACTIVE';
}

/** A current value for comparison: a number, 'none' (the plan has no such amount), or null (unknown). */
type Current = Cents | 'none' | null;

function currentValues(coverage: Coverage): Record<Exclude<ResetChange, 'member_id'>, Current> {
  // in_network holds the next year's when the date of service falls in it; this year's are kept beside.
  const b = coverage.this_plan_year_in_network !== undefined ? coverage.this_plan_year_in_network : coverage.in_network;
  if (b === null) return { copay: null, coinsurance: null, deductible: null, oop_max: null };
  const shareKnown = b.copayment !== null || b.coinsurance !== null;
  return {
    // Next to a known coinsurance, a missing copay is "no copay" (0), and vice versa.
    copay: shareKnown ? (b.copayment ?? 0) : null,
    coinsurance: shareKnown ? (b.coinsurance ?? 0) : null,
    // No deductible compares as a 0 deductible; no OOP max differs from every amount.
    deductible: b.deductible === null ? 0 : b.deductible.individual.total,
    oop_max: b.oop_max === null ? 'none' : b.oop_max.individual.total,
  };
}

function normalizeId(id: string | null): string | null {
  const v = id?.trim().toUpperCase() ?? '';
  return v === '' ? null : v;
}

/**
 * A reset is soon when the plan year ends, or the reported next plan year begins, within the next
 * 30 days (today included). When soon and the payer reports the next plan year, its in-network
 * copay, coinsurance, deductible and OOP max and the member ID are compared with today's: a value
 * is compared only when both are known, and any difference requires action.
 */
export function resetRules(coverage: Coverage, today: IsoDate): ResetFields {
  const t = dayNumber(today, 'today');
  const next = coverage.next_plan_year;
  const within = (days: number | null) => days !== null && days >= 0 && days <= RESET_WINDOW_DAYS;
  const soon =
    within(daysUntil(coverage.plan_end_date, t, 'plan_end_date')) || (next !== null && within(daysUntil(next.begin_date, t, 'next_plan_year.begin_date')));
  if (!soon) return { plan_reset_soon: false, reset_benefits_status: 'NOT_DETECTED', reset_benefits: null };

  const nextNet = next?.in_network ?? null;
  const nextValues = {
    copay: nextNet?.copayment ?? null,
    coinsurance: nextNet?.coinsurance ?? null,
    deductible: nextNet?.deductible ?? null,
    oop_max: nextNet?.oop_max ?? null,
  };
  const nextMemberId = next?.member_id ?? null;
  const knownAboutNext = nextMemberId !== null || Object.values(nextValues).some((v) => v !== null);
  if (next === null || !knownAboutNext) return { plan_reset_soon: true, reset_benefits_status: 'NOT_DETECTED', reset_benefits: null };

  const current = currentValues(coverage);
  const changed = new Set<ResetChange>();
  for (const key of ['copay', 'coinsurance', 'deductible', 'oop_max'] as const) {
    const now = current[key];
    const then = nextValues[key];
    if (now !== null && then !== null && now !== then) changed.add(key);
  }
  const idNow = normalizeId(coverage.member.member_id ?? coverage.subscriber.member_id);
  const idNext = normalizeId(nextMemberId);
  if (idNow !== null && idNext !== null && idNow !== idNext) changed.add('member_id');

  const changes = RESET_CHANGES.filter((c) => changed.has(c));
  return {
    plan_reset_soon: true,
    reset_benefits_status: changes.length > 0 ? 'DETECTED_ACTION_REQUIRED' : 'DETECTED_NO_ACTION_REQUIRED',
    reset_benefits: {
      effective_date: next.begin_date,
      changes,
      copayment: nextValues.copay,
      coinsurance: nextValues.coinsurance,
      deductible: nextValues.deductible,
      oop_max: nextValues.oop_max,
      member_id: nextMemberId,
    },
  };
}
