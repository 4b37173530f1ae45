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
