import type { PayerErrorEntry } from './schemas/responses.ts';

/** The service's error codes and their HTTP status (docs/interface.md section 4). */
export const ErrorCodes = {
  UNKNOWN_COSTSHARE: 206,
  UNKNOWN_REMAININGS: 206,
  INVALID_REQUEST: 400,
  PAYER_NOT_SUPPORTED: 400,
  PROVIDER_NOT_RECOGNIZED: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  PAYER_FAILURE: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export interface FieldError {
  field: string;
  message: string;
}

/** An outcome the service reports to the caller with a status and an error code. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { errors?: FieldError[]; retryAfterSeconds?: number; reason?: string; payer_errors?: PayerErrorEntry[] } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ErrorCodes[code];
  }
}
