/**
 * Our errors as OperationOutcome (docs/fhir.md#errors): one issue for the error, then one per refused field
 * (its FHIR element in `expression`), our error_code in `issue.details` and the request_id in
 * `diagnostics`; what the payer reported follows as issues of its own.
 */
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { ErrorCode, FieldError } from '../domain/errors.ts';
import type { PayerErrorEntry } from '../domain/schemas/responses.ts';
import { FHIR_PATH_OF } from './request-in.ts';
import { CS } from './systems.ts';

type IssueType = OperationOutcomeIssue['code'];

const ISSUE_TYPE: Record<ErrorCode, IssueType> = {
  UNKNOWN_COSTSHARE: 'incomplete',
  UNKNOWN_REMAININGS: 'incomplete',
  INVALID_REQUEST: 'invalid',
  PAYER_NOT_SUPPORTED: 'not-supported',
  PROVIDER_NOT_RECOGNIZED: 'business-rule',
  UNAUTHORIZED: 'login',
  NOT_FOUND: 'not-found',
  MEMBER_NOT_FOUND: 'not-found',
  PAYLOAD_TOO_LARGE: 'too-long',
  UNSUPPORTED_MEDIA_TYPE: 'not-supported',
  TOO_MANY_REQUESTS: 'throttled',
  INTERNAL_ERROR: 'exception',
  PAYER_FAILURE: 'transient',
  SERVICE_UNAVAILABLE: 'transient',
};

export interface ErrorAnswer {
  error_code: string;
  message: string;
  /** Absent where no request was made (a 271 read from a file). */
  request_id?: string;
  errors?: FieldError[];
  payer_errors?: PayerErrorEntry[];
}

const details = (code: string, text: string) => ({ coding: [{ system: CS.errorCode, code }], text });

/** A field of ours (member_dob) as its FHIR element (Patient.birthDate); a FHIR path stays as it is. */
export const fhirPath = (field: string) => FHIR_PATH_OF[field] ?? field;

export function operationOutcome(answer: ErrorAnswer): OperationOutcome {
  const type = ISSUE_TYPE[answer.error_code as ErrorCode] ?? 'processing';
  const diagnostics = answer.request_id === undefined ? {} : { diagnostics: `request_id ${answer.request_id}` };
  const fields: OperationOutcomeIssue[] = (answer.errors ?? []).map((e) => ({
    severity: 'error',
    code: e.message.startsWith('is required') ? 'required' : type,
    details: details(answer.error_code, `${fhirPath(e.field)} ${e.message}`),
    ...diagnostics,
    expression: [fhirPath(e.field)],
  }));
  const payer: OperationOutcomeIssue[] = (answer.payer_errors ?? []).map((e) => ({
    severity: 'error',
    code: 'processing',
    details: { coding: [{ system: CS.payerError, code: e.code, display: e.description }], text: e.followup ?? e.description },
    diagnostics: `reported in loop ${e.loop ?? 'unknown'}; ${e.category}`,
  }));
  const main: OperationOutcomeIssue = { severity: 'error', code: type, details: details(answer.error_code, answer.message), ...diagnostics };
  return { resourceType: 'OperationOutcome', issue: [main, ...fields, ...payer] };
}
