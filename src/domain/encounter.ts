/**
 * The encounter an estimate prices: when, what and where. `/v1/estimate`, batch rows and monitors
 * take it (all optional), the 270 carries it (DTP*291, EQ procedure), each connector sends it as its
 * vendor documents, and the benefit matrix keeps only the 271 rows that apply to it
 * (docs/estimates.md). Without one, the default holds: an office psychotherapy visit today.
 */
import type { IsoDate } from './coverage.ts';

export interface Encounter {
  /** The date of service; defaults to the service's today. */
  date_of_service: IsoDate;
  /** CPT/HCPCS code (90791, 90834, 90837, ...); null: an office psychotherapy visit, no code sent. */
  procedure_code: string | null;
  /** CMS place-of-service code: 11 office (the default), 02 or 10 telehealth. */
  place_of_service: string;
}

/** CMS place of service for an office visit, the default encounter's place. */
export const OFFICE_PLACE_OF_SERVICE = '11';

/** CMS place-of-service codes of a telehealth visit (02 other than the home, 10 in the home). */
export const TELEHEALTH_PLACES_OF_SERVICE: readonly string[] = ['02', '10'];

/** The default encounter on a date: an office psychotherapy visit, no procedure code. */
export function defaultEncounter(date: IsoDate): Encounter {
  return { date_of_service: date, procedure_code: null, place_of_service: OFFICE_PLACE_OF_SERVICE };
}

/** CPT (five digits; categories II, III and PLA end in F, T or U) or HCPCS Level II (a letter and four digits). */
export const PROCEDURE_CODE_PATTERN = '^([0-9]{4}[0-9FTUftu]|[A-Za-z][0-9]{4})$';

/** A CMS place-of-service code: two digits (docs/estimates.md, "The encounter"). */
export const PLACE_OF_SERVICE_PATTERN = '^[0-9]{2}$';

/** How far back a date of service may be: payers answer inquiries up to 12 months in the past. */
export const SERVICE_DATE_MONTHS_BACK = 12;
/** How far ahead: through the end of the month after today's, where payers still know the plan in force. */
export const SERVICE_DATE_MONTHS_AHEAD = 1;

const pad2 = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

type ServiceDateWindow = Readonly<{ earliest: IsoDate; latest: IsoDate }>;

/** The last day's window: every request asks for today's (twice: request validation, then the inquiry). */
let lastWindow: { today: IsoDate; window: ServiceDateWindow } | undefined;

/** The dates of service an inquiry made on `today` may ask about, both ends included (docs/estimates.md). */
export function serviceDateWindow(today: IsoDate): ServiceDateWindow {
  if (lastWindow?.today === today) return lastWindow.window;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const backMonths = y * 12 + (m - 1) - SERVICE_DATE_MONTHS_BACK;
  const by = Math.floor(backMonths / 12);
  const bm = (backMonths % 12) + 1;
  const aheadMonths = y * 12 + (m - 1) + SERVICE_DATE_MONTHS_AHEAD;
  const ay = Math.floor(aheadMonths / 12);
  const am = (aheadMonths % 12) + 1;
  const window = Object.freeze({
    earliest: `${by}-${pad2(bm)}-${pad2(Math.min(d, lastDay(by, bm)))}`,
    latest: `${ay}-${pad2(am)}-${pad2(lastDay(ay, am))}`,
  });
  lastWindow = { today, window };
  return window;
}

/**
 * Why a date of service cannot be asked about on `today`, or null when it can. The message names
 * the window, never the date given (a date of service is the patient's).
 */
export function serviceDateProblem(date: IsoDate, today: IsoDate): string | null {
  const { earliest, latest } = serviceDateWindow(today);
  if (date >= earliest && date <= latest) return null;
  return `must be from ${earliest} (${SERVICE_DATE_MONTHS_BACK} months ago) through ${latest} (the end of next month)`;
}

/** What a request says of its encounter; absent fields take the default encounter's. */
export interface EncounterFields {
  date_of_service?: string | undefined;
  procedure_code?: string | undefined;
  place_of_service?: string | undefined;
}

/** The encounter a request asks to price, on `today`: its fields over the default encounter's. Codes are upper-cased. */
export function requestedEncounter(f: EncounterFields, today: IsoDate): Encounter {
  const base = defaultEncounter(f.date_of_service || today);
  return {
    date_of_service: base.date_of_service,
    procedure_code: f.procedure_code ? f.procedure_code.toUpperCase() : base.procedure_code,
    place_of_service: f.place_of_service || base.place_of_service,
  };
}
