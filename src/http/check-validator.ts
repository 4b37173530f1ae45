/** Validates a check body as its real-time endpoint would, with the same field messages (for batch rows). */
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../domain/errors.ts';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, type OperationName } from '../domain/schemas/requests.ts';
import { createAjv } from './ajv.ts';
import { fieldErrors } from './validation-errors.ts';

export type CheckValidator = (endpoint: OperationName, body: unknown) => FieldError[];

export function createCheckValidator(): CheckValidator {
  const ajv = createAjv();
  const validators: Record<OperationName, ValidateFunction> = {
    estimate: ajv.compile(EstimateRequest),
    discover: ajv.compile(DiscoverRequest),
    scan: ajv.compile(ScanRequest),
    medicaid: ajv.compile(MedicaidRequest),
  };
  return (endpoint, body) => {
    const validate = validators[endpoint];
    return validate(body) ? [] : fieldErrors(validate.errors ?? []);
  };
}
