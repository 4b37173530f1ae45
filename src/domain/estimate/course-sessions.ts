/**
 * The sessions of a course of care (docs/course-of-care.md): a request's `course` (a count and an
 * interval, or a list of dates) turned into dated sessions, each with its encounter, and the limits
 * a course is refused by.
 */
import type { Cents, IsoDate } from '../coverage.ts';
import { OFFICE_PLACE_OF_SERVICE } from '../encounter.ts';
import type { FieldError } from '../errors.ts';

/** At most a year of weekly sessions. */
export const COURSE_MAX_SESSIONS = 52;
/** The last session at most this many days after the first: one plan-year reset at most, which the payer can report. */
export const COURSE_MAX_SPAN_DAYS = 365;
/** Sessions naming their own procedure or place: each distinct encounter is one more question to the payer. */
export const COURSE_MAX_ENCOUNTERS = 4;
/** `sessions` without `every_days`: a weekly course. */
export const COURSE_DEFAULT_EVERY_DAYS = 7;

/** One session of a course: its date, its encounter and its price (null: the caller gave none). */
export interface CourseSession {
  date_of_service: IsoDate;
  procedure_code: string | null;
  place_of_service: string;
  session_cost: Cents;
}

/** What a request's `course` holds (schemas/requests.ts), with the session price as sent: `sessions` or `dates`. */
export interface CourseFields {
  sessions?: number | undefined;
  every_days?: number | undefined;
  dates?:
    | {
        date_of_service: string;
        procedure_code?: string | undefined;
        place_of_service?: string | undefined;
        provider_session_cost?: string | number | undefined;
      }[]
    | undefined;
}

/** The request's own encounter and price, which every session takes unless it names its own. */
export interface CourseDefaults {
  date_of_service: IsoDate;
  procedure_code: string | null;
  place_of_service: string;
  session_cost: Cents | null;
}

const DAY_MS = 86_400_000;
const dayOf = (d: IsoDate) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / DAY_MS;
const dateOf = (day: number): IsoDate => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The date `days` days after `date`. */
export function addDays(date: IsoDate, days: number): IsoDate {
  return dateOf(dayOf(date) + days);
}

const cents = (v: string | number | undefined, fallback: Cents | null): Cents | null => (v === undefined || v === '' ? fallback : Number(v));

/** The key of an encounter kind: sessions with the same procedure and place are priced from one answer of the payer. */
export function encounterKey(s: Pick<CourseSession, 'procedure_code' | 'place_of_service'>): string {
  return `${s.procedure_code ?? ''}@${s.place_of_service}`;
}

/**
 * The course's sessions, or the problems that refuse it (400 INVALID_REQUEST, field `course...`).
 * One of `sessions` (that many from the request's date of service, `every_days` apart) and `dates`
 * (in order, two on one day allowed, the first on the request's date of service when it gives one).
 */
export function courseSessions(course: CourseFields, d: CourseDefaults, givenDate: boolean): { sessions: CourseSession[] } | { errors: FieldError[] } {
  let sessions: (Omit<CourseSession, 'session_cost'> & { session_cost: Cents | null })[];
  if ((course.sessions === undefined) === (course.dates === undefined)) {
    return { errors: [{ field: 'course', message: 'give sessions (and every_days) or dates, one of them' }] };
  }
  if (course.dates !== undefined && course.every_days !== undefined) {
    return { errors: [{ field: 'course.every_days', message: 'goes with sessions, not with dates' }] };
  }
  if (course.sessions !== undefined) {
    const every = course.every_days ?? COURSE_DEFAULT_EVERY_DAYS;
    sessions = Array.from({ length: course.sessions }, (_, i) => ({
      date_of_service: addDays(d.date_of_service, i * every),
      procedure_code: d.procedure_code,
      place_of_service: d.place_of_service,
      session_cost: d.session_cost,
    }));
  } else {
    sessions = (course.dates ?? []).map((s) => ({
      date_of_service: s.date_of_service,
      procedure_code: s.procedure_code ? s.procedure_code.toUpperCase() : d.procedure_code,
      place_of_service: s.place_of_service || d.place_of_service || OFFICE_PLACE_OF_SERVICE,
      session_cost: cents(s.provider_session_cost, d.session_cost),
    }));
    const errors: FieldError[] = [];
    const first = sessions[0]!.date_of_service;
    if (givenDate && first !== d.date_of_service) errors.push({ field: 'course.dates', message: 'the first date must be the date_of_service' });
    for (let i = 1; i < sessions.length; i++) {
      if (sessions[i]!.date_of_service < sessions[i - 1]!.date_of_service) {
        errors.push({ field: `course.dates.${i}.date_of_service`, message: 'dates must be in order' });
        break;
      }
    }
    if (errors.length > 0) return { errors };
  }
  const priced = sessions.filter((s): s is CourseSession => s.session_cost !== null);
  if (priced.length < sessions.length) {
    return { errors: [{ field: 'provider_session_cost', message: 'a course needs the session price (here or on each of its dates)' }] };
  }
  return within(priced);
}

function within(sessions: CourseSession[]): { sessions: CourseSession[] } | { errors: FieldError[] } {
  const first = sessions[0]!.date_of_service;
  const last = sessions[sessions.length - 1]!.date_of_service;
  if (dayOf(last) - dayOf(first) > COURSE_MAX_SPAN_DAYS) {
    return { errors: [{ field: 'course', message: `the last session must be at most ${COURSE_MAX_SPAN_DAYS} days after the first` }] };
  }
  if (new Set(sessions.map(encounterKey)).size > COURSE_MAX_ENCOUNTERS) {
    return { errors: [{ field: 'course.dates', message: `at most ${COURSE_MAX_ENCOUNTERS} different procedure and place of service pairs` }] };
  }
  return { sessions };
}
