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

/** What an error adds to its code and message: the refused fields, when to retry, the payer's side. */
export interface ErrorDetails {
  /** The refused fields (a batch or bulk upload's name their row too). */
  errors?: (FieldError & { row?: number })[];
  retryAfterSeconds?: number;
  /** Why, for the operator's log line: never member data, never the payer's prose. */
  reason?: string;
  payer_errors?: PayerErrorEntry[];
}

/** An outcome the service reports to the caller with a status and an error code. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ErrorCodes[code];
  }

  /** The same error with more details: `throw declared(...).with({ errors })`. */
  with(details: ErrorDetails): this {
    Object.assign(this.details, details);
    return this;
  }
}

/** An error declared once with its code (hence its status) and message; calling it makes the error to throw. */
export interface DeclaredError<A extends unknown[]> {
  (...args: A): ServiceError;
  readonly code: ErrorCode;
  readonly status: number;
}

/** Declares an error, as fastify's createError does: its code, its status (from ErrorCodes) and its message. */
export function declareError<A extends unknown[] = []>(code: ErrorCode, message: string | ((...args: A) => string)): DeclaredError<A> {
  const make = (...args: A) => new ServiceError(code, typeof message === 'string' ? message : message(...args));
  return Object.assign(make, { code, status: ErrorCodes[code] });
}
