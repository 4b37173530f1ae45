/** What the client throws when the service answers with an error status (206 partials are results, not errors). */
import type { ErrorCode, ErrorResponse } from './api-types.ts';

/** The service's codes, open to codes a newer server may add. */
export type ApiErrorCode = ErrorCode | (string & Record<never, never>);
export type FieldError = NonNullable<ErrorResponse['errors']>[number];

export class CoverageApiError extends Error {
  readonly status: number;
  readonly error_code: ApiErrorCode;
  /** The id to quote to the operator; null only when the answer did not come from the service. */
  readonly request_id: string | null;
  /** One entry per invalid field on 400 INVALID_REQUEST; empty otherwise. */
  readonly errors: FieldError[];
  /** From the Retry-After header of a 429, in seconds. */
  readonly retry_after_seconds: number | null;

  constructor(init: {
    status: number;
    error_code: ApiErrorCode;
    message: string;
    request_id: string | null;
    errors?: FieldError[];
    retry_after_seconds?: number | null;
  }) {
    super(init.message);
    this.name = 'CoverageApiError';
    this.status = init.status;
    this.error_code = init.error_code;
    this.request_id = init.request_id;
    this.errors = init.errors ?? [];
    this.retry_after_seconds = init.retry_after_seconds ?? null;
  }
}

function isErrorBody(value: unknown): value is ErrorResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.error_code === 'string' && typeof v.message === 'string';
}

/** Reads an error answer; one that is not the service's JSON error shape (a proxy's page, say) keeps its status. */
export async function errorFromResponse(res: Response, retryAfterMs: number | null): Promise<CoverageApiError> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: described below */
  }
  const retry_after_seconds = retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000);
  if (isErrorBody(body)) {
    return new CoverageApiError({
      status: res.status,
      error_code: body.error_code,
      message: body.message,
      request_id: typeof body.request_id === 'string' ? body.request_id : res.headers.get('x-request-id'),
      errors: Array.isArray(body.errors) ? body.errors : [],
      retry_after_seconds,
    });
  }
  return new CoverageApiError({
    status: res.status,
    error_code: 'UNEXPECTED_RESPONSE',
    message: `HTTP ${res.status} without the service's error body${text ? `: ${text.slice(0, 200)}` : ''}`,
    request_id: res.headers.get('x-request-id'),
    retry_after_seconds,
  });
}
