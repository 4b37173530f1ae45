/**
 * Business days for the Good Faith Estimate's deadlines (45 CFR 149.610(b)(1)(vi)): Monday to Friday,
 * less the federal holidays of 5 U.S.C. 6103(a) as observed (one falling on a Saturday is observed the
 * Friday before, on a Sunday the Monday after: 5 U.S.C. 6103(b), Executive Order 11582). Dates are
 * ISO days (YYYY-MM-DD), computed in UTC so no time zone moves them. docs/good-faith-estimate.md.
 */

const DAY_MS = 86_400_000;

const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const toIso = (d: Date) => d.toISOString().slice(0, 10);
const ymd = (y: number, m: number, d: number) => toIso(new Date(Date.UTC(y, m - 1, d)));

/** The day `n` days after `iso` (calendar days; negative goes back). */
export const addDays = (iso: string, n: number): string => toIso(new Date(toDate(iso).getTime() + n * DAY_MS));

/** 0 Sunday … 6 Saturday. */
const weekday = (iso: string) => toDate(iso).getUTCDay();

/** The `nth` (1-based) given weekday of a month, or the last one when nth is -1. */
function nthWeekday(year: number, month: number, day: number, nth: number): string {
  if (nth === -1) {
    const last = new Date(Date.UTC(year, month, 0));
    const back = (last.getUTCDay() - day + 7) % 7;
    return toIso(new Date(last.getTime() - back * DAY_MS));
  }
  const first = new Date(Date.UTC(year, month - 1, 1));
  const ahead = (day - first.getUTCDay() + 7) % 7;
  return toIso(new Date(first.getTime() + (ahead + (nth - 1) * 7) * DAY_MS));
}

/** A fixed-date holiday on a weekend is observed on the nearest weekday. */
function observed(iso: string): string {
  const w = weekday(iso);
  return w === 6 ? addDays(iso, -1) : w === 0 ? addDays(iso, 1) : iso;
}

/** The federal holidays of `year` as observed, in date order (an observed day may fall in the year before: New Year's Day on a Saturday). */
export function federalHolidays(year: number): { date: string; name: string }[] {
  const list = [
    { date: observed(ymd(year, 1, 1)), name: "New Year's Day" },
    { date: nthWeekday(year, 1, 1, 3), name: 'Birthday of Martin Luther King, Jr.' },
    { date: nthWeekday(year, 2, 1, 3), name: "Washington's Birthday" },
    { date: nthWeekday(year, 5, 1, -1), name: 'Memorial Day' },
    ...(year >= 2021 ? [{ date: observed(ymd(year, 6, 19)), name: 'Juneteenth National Independence Day' }] : []),
    { date: observed(ymd(year, 7, 4)), name: 'Independence Day' },
    { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day' },
    { date: nthWeekday(year, 10, 1, 2), name: 'Columbus Day' },
    { date: observed(ymd(year, 11, 11)), name: 'Veterans Day' },
    { date: nthWeekday(year, 11, 4, 4), name: 'Thanksgiving Day' },
    { date: observed(ymd(year, 12, 25)), name: 'Christmas Day' },
  ];
  return list.sort((a, b) => a.date.localeCompare(b.date));
}

const holidayCache = new Map<number, Set<string>>();
function holidaysAround(year: number): Set<string> {
  let set = holidayCache.get(year);
  if (!set) {
    // Next year's New Year's Day may be observed on December 31st of this one.
    set = new Set([...federalHolidays(year), ...federalHolidays(year + 1)].map((h) => h.date));
    holidayCache.set(year, set);
  }
  return set;
}

export function isBusinessDay(iso: string): boolean {
  const w = weekday(iso);
  return w !== 0 && w !== 6 && !holidaysAround(Number(iso.slice(0, 4))).has(iso);
}

/** The `n`th business day after `iso` (n ≥ 0; 0 is `iso` itself). */
export function addBusinessDays(iso: string, n: number): string {
  let day = iso;
  for (let left = n; left > 0;) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left--;
  }
  return day;
}

/** The `n`th business day before `iso` (n ≥ 0). */
export function subtractBusinessDays(iso: string, n: number): string {
  let day = iso;
  for (let left = n; left > 0;) {
    day = addDays(day, -1);
    if (isBusinessDay(day)) left--;
  }
  return day;
}

/**
 * How many business days ahead `to` was scheduled on `from`: the largest n with the nth business day
 * after `from` on or before `to` ("scheduled at least n business days before the date"). 0 when `to`
 * is not after `from`.
 */
export function businessDaysAhead(from: string, to: string): number {
  let n = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isBusinessDay(day)) n++;
  return n;
}
