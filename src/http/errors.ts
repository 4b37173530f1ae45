/** One error shape for every failure (docs/interface.md section 4): error_code, message, request_id. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, type ErrorCode, type FieldError } from '../domain/errors.ts';
import type { PayerErrorEntry } from '../domain/schemas/responses.ts';
import { API_HEADERS } from './api-headers.ts';
import { fieldErrors } from './validation-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    errorCode: ErrorCode | null;
    /** Why a payer failed, for the operator's log line; never member data. */
    errorReason: string | null;
  }
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  code: ErrorCode,
  message: string,
  errors?: FieldError[],
  payerErrors?: PayerErrorEntry[],
) {
  reply.code(status).type('application/json; charset=utf-8');
  return reply.send({
    error_code: code,
    message,
    request_id: request.id,
    ...(errors ? { errors } : {}),
    ...(payerErrors && payerErrors.length > 0 ? { payer_errors: payerErrors } : {}),
  });
}

const FRAMEWORK_ERRORS: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_REQUEST', 'The Content-Length header does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_REQUEST', 'The request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_REQUEST', 'The request body is not valid JSON'],
};

export function installErrorHandling(app: FastifyInstance): void {
  app.decorateRequest('errorCode', null);
  app.decorateRequest('errorReason', null);
  app.setErrorHandler((error: FastifyError & { validation?: unknown[] }, request, reply) => {
    if (error instanceof ServiceError) {
      if (error.details.retryAfterSeconds) reply.header('retry-after', String(error.details.retryAfterSeconds));
      request.errorCode = error.code;
      request.errorReason = error.details.reason ?? null;
      return sendError(reply, request, error.status, error.code, error.message, error.details.errors, error.details.payer_errors);
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation);
      return sendError(reply, request, 400, 'INVALID_REQUEST', `Invalid request: ${errors.map((e) => e.field).join(', ')}`, errors);
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && request.routeOptions.url?.startsWith('/v1/batches')
          ? 'Send the body as application/json or text/csv'
          : known[2];
      return sendError(reply, request, known[0], known[1], message);
    }
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return sendError(reply, request, 400, 'INVALID_REQUEST', 'The request body is not valid JSON');
    }
    if (error.statusCode === 429) return sendError(reply, request, 429, 'TOO_MANY_REQUESTS', error.message);
    if (error.statusCode === 503) return sendError(reply, request, 503, 'SERVICE_UNAVAILABLE', 'The service is overloaded; retry shortly');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, request, error.statusCode, 'INVALID_REQUEST', 'The request could not be processed');
    }
    // Log the type and stack only: messages from lower layers are not trusted to be free of member data.
    request.log.error({ err_type: error.name, code: error.code, stack: error.stack }, 'unhandled error');
    return sendError(reply, request, 500, 'INTERNAL_ERROR', 'Internal error');
  });
  // api-headers.ts sets the API's headers by route; a URL without one gets them here.
  app.setNotFoundHandler(notFound);
}

/** No route: the API's headers, and no more of the URL than a person needs to spot a typo. */
export function notFound(request: FastifyRequest, reply: FastifyReply) {
  reply.headers(API_HEADERS);
  const path = request.url.split('?')[0]!;
  return sendError(reply, request, 404, 'NOT_FOUND', `No route ${request.method} ${path.length > 100 ? `${path.slice(0, 100)}...` : path}`);
}

/** Errors Fastify raises before routing (a URL it cannot decode), in the same shape as the rest. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(API_HEADERS);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void sendError(reply, request, 414, 'INVALID_REQUEST', 'The URL is too long');
  else if (error.code === 'FST_ERR_BAD_URL') void sendError(reply, request, 400, 'INVALID_REQUEST', 'The URL is not valid');
  else void sendError(reply, request, 500, 'INTERNAL_ERROR', 'Internal error');
}
