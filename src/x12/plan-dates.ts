/**
 * Plan dates (docs/estimates.md section 10.1): a plan end (DTP*347) is a plan-year reset only when it
 * falls on an anniversary of the plan begin; any other end date is the coverage terminating.
 */
import type { IsoDate } from '../domain/coverage.ts';
import { daysInMonth, isoDateParts } from '../domain/formats.ts';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

export function dayAfter(iso: IsoDate): IsoDate {
  const p = isoDateParts(iso);
  if (p >= 0) {
    let year = Math.floor(p / 10000);
    let month = Math.floor(p / 100) % 100;
    let day = p % 100;
    if (day < daysInMonth(year, month)) day++;
    else if (month < 12) [month, day] = [month + 1, 1];
    else [year, month, day] = [year + 1, 1, 1];
    return `${year}-${pad2(month)}-${pad2(day)}`;
  }
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Whether `end` closes a plan year that began on `begin`: the day after it (or, as some payers
 * send it, the end itself) has the begin's month and day, in a later year.
 */
export function isAnniversaryEnd(begin: IsoDate, end: IsoDate): boolean {
  if (end < begin) return false;
  const md = begin.slice(5);
  const next = dayAfter(end);
  if (next.slice(5) === md && next.slice(0, 4) > begin.slice(0, 4)) return true;
  // A plan year starting on Feb 29 renews on Mar 1 in common years.
  if (md === '02-29' && next.slice(5) === '03-01' && next.slice(0, 4) > begin.slice(0, 4)) return true;
  return end.slice(5) === md && end.slice(0, 4) > begin.slice(0, 4);
}

/**
 * A 347 that is not an anniversary terminates the coverage: it is the eligibility end (unless the
 * payer sent one), not a plan end, so it warns of the coverage ending (ACTIVE_AT_RISK) rather than
 * announcing a reset. A next plan year beginning by the day after it makes it a renewal after all.
 */
export function terminationOf(dates: {
  begin: IsoDate | null;
  end: IsoDate | null;
  endFrom347: boolean;
  eligibilityEnd: IsoDate | null;
  nextBegin: IsoDate | null;
}): { plan_end_date: IsoDate | null; eligibility_end_date: IsoDate | null } {
  const { begin, end, eligibilityEnd, nextBegin } = dates;
  if (!dates.endFrom347 || begin === null || end === null || isAnniversaryEnd(begin, end)) return { plan_end_date: end, eligibility_end_date: eligibilityEnd };
  if (nextBegin !== null && nextBegin <= dayAfter(end)) return { plan_end_date: end, eligibility_end_date: eligibilityEnd };
  return { plan_end_date: null, eligibility_end_date: eligibilityEnd ?? end };
}
