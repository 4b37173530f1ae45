/**
 * When a monitor checks (docs/monitoring.md): a first check right after it is created (the
 * baseline), then before each appointment (by default 3 days before and on the day) and/or every N
 * days. Times are UTC: a check "on" a day is due at `check_hour_utc` of that day (10:00 UTC by
 * default, 05:00 or 06:00 in New York, before front desks open). The operator's off-hours window
 * (COVERAGE_MONITOR_WINDOW, UTC too) may hold a due check until it opens.
 */
import { serviceDateProblem } from '../encounter.ts';

export interface MonitorSchedule {
  /** Appointment dates, YYYY-MM-DD. */
  appointments?: string[] | undefined;
  /** Days before each appointment to check on; 0 is the day itself. Default [3, 0]. */
  check_days_before?: number[] | undefined;
  /** Check every N days, counted from the last check. */
  every_days?: number | undefined;
  /** The hour (UTC) of the day a check is due at. Default 10. */
  check_hour_utc?: number | undefined;
}

export const DEFAULT_DAYS_BEFORE: readonly number[] = [3, 0];
export const DEFAULT_CHECK_HOUR_UTC = 10;
const DAY_MS = 86_400_000;

/**
 * Why a schedule has nothing to watch: every appointment already past and no every_days. Its checks
 * would all be past, so the monitor would check once and never again (next_check_at null) without a
 * word (docs/monitoring.md, "Schedule semantics"). A past date beside later ones is harmless.
 */
export function pastAppointmentsProblem(schedule: MonitorSchedule, today: string): string | null {
  const dates = schedule.appointments ?? [];
  if (schedule.every_days !== undefined || dates.length === 0 || dates.some((date) => date >= today)) return null;
  return `${dates.join(', ')} ${dates.length === 1 ? 'is' : 'are'} before today (${today}): a monitor checks before appointments to come; give the date of the next one`;
}

/** The instants the appointments call for, ascending. */
export function appointmentChecks(schedule: MonitorSchedule): Date[] {
  const hour = schedule.check_hour_utc ?? DEFAULT_CHECK_HOUR_UTC;
  const days = schedule.check_days_before ?? DEFAULT_DAYS_BEFORE;
  const instants = new Set<number>();
  for (const date of schedule.appointments ?? []) {
    const day = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(day)) continue;
    for (const d of days) instants.add(day - d * DAY_MS + hour * 3_600_000);
  }
  return [...instants].sort((a, b) => a - b).map((t) => new Date(t));
}

/**
 * The next scheduled check after a check made at `checkedAt`: the first appointment check after
 * it, or `every_days` after it, whichever comes first; null when the schedule has no more.
 * Checks missed while no instance ran are not made one by one: the next one after `checkedAt` is.
 */
export function nextCheckAfter(schedule: MonitorSchedule, checkedAt: Date): Date | null {
  let next: number | null = null;
  for (const t of appointmentChecks(schedule)) {
    if (t.getTime() > checkedAt.getTime()) {
      next = t.getTime();
      break;
    }
  }
  if (schedule.every_days !== undefined) {
    const every = checkedAt.getTime() + schedule.every_days * DAY_MS;
    next = next === null ? every : Math.min(next, every);
  }
  return next === null ? null : new Date(next);
}

/** A daily window in UTC minutes since midnight; start > end crosses midnight (22:00-06:00). */
export interface CheckWindow {
  startMinute: number;
  endMinute: number;
}

/** Reads `HH:MM-HH:MM` (UTC); null for an empty value. Throws with the expected form otherwise. */
export function parseCheckWindow(value: string | undefined, name = 'COVERAGE_MONITOR_WINDOW'): CheckWindow | null {
  if (value === undefined || value.trim() === '') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (!m) throw new Error(`${name} must be HH:MM-HH:MM in UTC, such as 22:00-06:00, got "${value}"`);
  const startMinute = Number(m[1]) * 60 + Number(m[2]);
  const endMinute = Number(m[3]) * 60 + Number(m[4]);
  if (startMinute === endMinute) throw new Error(`${name} must not start and end at the same time (unset it to check at any hour)`);
  return { startMinute, endMinute };
}

export function inWindow(window: CheckWindow, at: Date): boolean {
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  return window.startMinute < window.endMinute
    ? minute >= window.startMinute && minute < window.endMinute
    : minute >= window.startMinute || minute < window.endMinute;
}

/** `at` if the window is open then, else the instant it next opens. */
export function windowOpening(window: CheckWindow | null, at: Date): Date {
  if (window === null || inWindow(window, at)) return at;
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const today = midnight + window.startMinute * 60_000;
  return new Date(today > at.getTime() ? today : today + DAY_MS);
}

/**
 * The date of service a check made on `today` prices: the next appointment (today's included), when
 * payers answer for it yet (domain/encounter.ts window); null otherwise (the check prices today).
 */
export function appointmentServiceDate(schedule: MonitorSchedule, today: string): string | null {
  const next = (schedule.appointments ?? [])
    .filter((date) => date >= today)
    .sort()
    .at(0);
  return next !== undefined && serviceDateProblem(next, today) === null ? next : null;
}
