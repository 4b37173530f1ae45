/** Builds the 270 inquiry an operation sends. */
import { randomBytes } from 'node:crypto';
import type { IsoDate } from '../domain/coverage.ts';
import { serviceDateProblem, type Encounter } from '../domain/encounter.ts';
import { BEHAVIORAL_HEALTH_SERVICE_TYPES, type Inquiry } from '../domain/inquiry.ts';
import { OperationErrors } from './errors.ts';

export interface InquiryFields {
  payer_id: string;
  member_id?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  dob: IsoDate;
  zip?: string | undefined;
  provider_npi?: string | undefined;
  provider_first_name?: string | undefined;
  provider_last_name?: string | undefined;
}

const blankToNull = (s: string | undefined) => (s && s.trim() !== '' ? s.trim() : null);

/**
 * 16 random hex digits. The bytes are drawn 512 trace numbers at a time: a randomBytes call per
 * request cost about 4 % of a sandbox estimate's CPU (bench/RESULTS.md), one per 512 costs nothing.
 */
const POOL_BYTES = 8 * 512;
let pool = Buffer.alloc(0);
let used = 0;

export function newTraceNumber(): string {
  if (used >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += 8;
  return pool.toString('hex', used - 8, used).toUpperCase();
}

/**
 * Every operation builds its inquiries here, so this is where a date of birth after today, or a
 * date of service outside the window payers answer for, is refused before any payer is asked: the
 * request schema checks the calendar, but only the operation knows today (the injected clock). ISO
 * dates compare as strings. `encounter` (estimates): the date the 270 asks about and its procedure
 * and place; without one, today and neither.
 */
export function buildInquiry(f: InquiryFields, today: IsoDate, encounter?: Encounter): Inquiry {
  if (f.dob > today) {
    throw OperationErrors.invalidFields('member_dob').with({ errors: [{ field: 'member_dob', message: 'must not be after today' }] });
  }
  const serviceDate = !encounter
    ? null
    : (serviceDateProblem(encounter.date_of_service, today) ?? (encounter.date_of_service < f.dob ? 'must not be before member_dob' : null));
  if (serviceDate !== null) {
    throw OperationErrors.invalidFields('date_of_service').with({ errors: [{ field: 'date_of_service', message: serviceDate }] });
  }
  const providerFirst = blankToNull(f.provider_first_name);
  const providerLast = blankToNull(f.provider_last_name);
  return {
    trace_number: newTraceNumber(),
    payer: { id: f.payer_id, name: null },
    provider: {
      npi: blankToNull(f.provider_npi),
      first_name: providerFirst,
      last_name: providerLast,
      organization_name: providerFirst || providerLast ? null : 'BEHAVIORAL HEALTH PROVIDER',
    },
    subscriber: {
      member_id: blankToNull(f.member_id),
      first_name: blankToNull(f.first_name),
      last_name: blankToNull(f.last_name),
      dob: f.dob,
      zip: blankToNull(f.zip),
    },
    dependent: null,
    service_types: [...BEHAVIORAL_HEALTH_SERVICE_TYPES],
    date: encounter?.date_of_service ?? today,
    ...(encounter ? { procedure_code: encounter.procedure_code, place_of_service: encounter.place_of_service } : {}),
  };
}
