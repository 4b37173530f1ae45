/**
 * The OpenAPI document's words for the remittance loop (docs/remittances.md): POST /v1/remittances,
 * GET /v1/remittances/{id} and GET /v1/accuracy, kept beside the others (openapi-document.ts,
 * openapi-monitoring.ts); its example calls are openapi-remittance-examples.json.
 */
import type { ErrorCode } from '../../domain/errors.ts';
import { AccuracyReport, RemittanceAnswer } from '../../domain/schemas/remittances.ts';

export const REMITTANCE_OPERATIONS = ['createRemittance', 'getRemittance', 'getAccuracy'] as const;
export type RemittanceOperation = (typeof REMITTANCE_OPERATIONS)[number];

/** Components of the document (openapi-document.ts SHARED_SCHEMAS). */
export const REMITTANCE_SCHEMAS = [RemittanceAnswer, AccuracyReport];

export const REMITTANCE_CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'the body is not a readable 835 (the message names the segment and its position), or a query parameter is invalid',
  PAYER_NOT_SUPPORTED: '`payer_id` names a payer the directory does not know',
  PAYLOAD_TOO_LARGE: 'the 835 is over 5 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'the body is neither `application/edi-x12` nor `text/plain`',
  NOT_FOUND: 'no remittance with this id belongs to this key',
};

export const isRemittancePath = (path: string) => path.startsWith('/v1/remittances') || path.startsWith('/v1/accuracy');
