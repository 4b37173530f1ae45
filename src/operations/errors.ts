/**
 * The errors the operations raise, each declared once with its code (hence its status) and message,
 * as `HttpErrors` (http/errors.ts) declares the HTTP layer's: Fastify's lib/errors.js and undici's
 * lib/core/errors.js are the models. Call one to make the error to throw; `.with(details)` adds the
 * field errors, the operator's reason or the payer's errors. The words are the API's (docs/interface.md
 * section 4): a message here changes what callers read.
 */
import { declareError, ServiceError, type ErrorCode } from '../domain/errors.ts';

/** The words of an AAA rejection the normalizer mapped to an error code (docs/interface.md section 4). */
const REJECTION_MESSAGES: Partial<Record<ErrorCode, string>> = {
  MEMBER_NOT_FOUND: 'The payer found no member matching the request',
  PROVIDER_NOT_RECOGNIZED: 'The payer does not recognize the provider',
  PAYER_NOT_SUPPORTED: 'The payer does not accept eligibility inquiries from this service',
  PAYER_FAILURE: 'The payer could not answer the inquiry',
  TOO_MANY_REQUESTS: 'The payer reports too many inquiries (AAA 04); retry later',
};

export const OperationErrors = {
  // The request (operations/inquiry.ts, estimate.ts, medicaid.ts, resolve-payer.ts).
  invalidFields: declareError('INVALID_REQUEST', (fields: string) => `Invalid request: ${fields}`),
  payerIdMissing: declareError('INVALID_REQUEST', 'payer_id is required'),
  payerOrStateMissing: declareError('INVALID_REQUEST', 'Either payer_id or patient_state is required'),
  unreadable835: declareError('INVALID_REQUEST', (why: string) => `The body is not a readable 835: ${why}`),

  // The payer named (resolve-payer.ts, remittance/ingest.ts).
  noSuchPayer: declareError('PAYER_NOT_SUPPORTED', (id: string, guess: string | null, list: string) => `No payer ${id}${guess ? `; ${guess}` : '.'} ${list}`),
  noEligibility: declareError('PAYER_NOT_SUPPORTED', (payerId: string) => `Payer ${payerId} does not support eligibility inquiries`),
  noSearch: declareError('PAYER_NOT_SUPPORTED', (payerId: string) => `Payer ${payerId} does not answer searches without a member ID`),
  noMedicaidProgram: declareError('PAYER_NOT_SUPPORTED', (state: string) => `No Medicaid program is connected for ${state}`),
  unknownRemittancePayer: declareError('PAYER_NOT_SUPPORTED', (named: string) => `Payer ${named} is not one the directory knows (GET /v1/payers lists them)`),

  // The member (medicaid.ts, scan.ts).
  noMedicaidCoverage: declareError('MEMBER_NOT_FOUND', 'The member has no Medicaid coverage at this program'),
  notFoundAtPayers: declareError('MEMBER_NOT_FOUND', (payers: number) => `No coverage found at ${payers} payers`),

  // The payer's exchange and answer (ask-payer.ts, scan.ts).
  requestRefused: declareError('INVALID_REQUEST', (fields: string | null) =>
    fields !== null ? `This payer's route needs ${fields}` : 'The payer refused the request as incomplete or invalid for this route',
  ),
  payerThrottling: declareError('TOO_MANY_REQUESTS', 'The payer is throttling requests; retry later'),
  payerFailed: declareError('PAYER_FAILURE', 'The payer system failed to answer'),
  payerRejected999: declareError('PAYER_FAILURE', 'The payer rejected the inquiry'),
  answerUnreadable: declareError('PAYER_FAILURE', 'The payer sent an answer that could not be read'),
  answerToAnother: declareError('PAYER_FAILURE', 'The payer sent an answer to another inquiry'),
  scanDeadline: declareError('PAYER_FAILURE', 'The payer did not answer in time'),
  payersCouldNotAnswer: declareError('PAYER_FAILURE', (failed: number, payers: number) => `No coverage found; ${failed} of ${payers} payers could not answer`),
  /** An AAA rejection, under the code the normalizer mapped its reason to. */
  rejected: (code: ErrorCode) => new ServiceError(code, REJECTION_MESSAGES[code] ?? 'The payer rejected the inquiry'),
};

/**
 * A webhook URL refused (monitoring/webhook-target.ts), with a reason fit for the caller: the route
 * answers it as a refused field, the delivery worker records it as the attempt's error.
 */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}
