/** Validates a check body as its real-time endpoint would, with the same field messages (for batch rows). */
import type { ValidateFunction } from 'ajv';
import { serviceDateProblem } from '../domain/encounter.ts';
import type { FieldError } from '../domain/errors.ts';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, type OperationName } from '../domain/schemas/requests.ts';
import type { CheckValidator } from '../formats/batch-input.ts';
import { createAjv } from './ajv.ts';
import { fieldErrors } from './validation-errors.ts';
import type { Clock } from '../domain/clock.ts';

let compiled: Record<OperationName, ValidateFunction> | null = null;

/** Compiled at the first batch or schedule row, once for every route that takes rows: not at start-up. */
function compiledValidators(): Record<OperationName, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = createAjv();
  compiled = {
    estimate: ajv.compile(EstimateRequest),
    discover: ajv.compile(DiscoverRequest),
    scan: ajv.compile(ScanRequest),
    medicaid: ajv.compile(MedicaidRequest),
  };
  return compiled;
}

/**
 * `clock` (the injected clock) refuses a date of birth after today, and a date of service outside
 * the window payers answer for, up front, as each operation would when the row ran
 * (operations/inquiry.ts), so the upload names the row instead of the result.
 */
export function createCheckValidator(clock?: Pick<Clock, 'today'>): CheckValidator {
  return (endpoint, body) => {
    const validate = compiledValidators()[endpoint];
    if (!validate(body)) return fieldErrors(validate.errors ?? []);
    if (!clock) return [];
    const today = clock.today();
    const { member_dob: dob, date_of_service: service } = body as { member_dob?: unknown; date_of_service?: unknown };
    const errors: FieldError[] = [];
    if (typeof dob === 'string' && dob > today) errors.push({ field: 'member_dob', message: 'must not be after today' });
    const problem = typeof service === 'string' ? serviceDateProblem(service, today) : null;
    if (problem !== null) errors.push({ field: 'date_of_service', message: problem });
    else if (typeof service === 'string' && typeof dob === 'string' && service < dob)
      errors.push({ field: 'date_of_service', message: 'must not be before member_dob' });
    return errors;
  };
}
