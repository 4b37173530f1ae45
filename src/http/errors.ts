/**
 * One error shape for every failure (docs/interface.md section 4): error_code, message, request_id.
 * Routes and hooks throw (a ServiceError, most of them declared below); the one error handler answers,
 * and notes the code on the request for the log line (logging.ts) and the audit record (audit-hook.ts).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { declareError, ServiceError, type ErrorCode } from '../domain/errors.ts';
import type { Mode } from '../domain/mode.ts';
import { API_HEADERS } from './api-headers.ts';
import { CONSOLE_HEADER } from './auth/console-auth.ts';
import { fieldErrors } from './validation-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error_code of the answer, when it is an error: for the log line and the audit record. */
    errorCode: ErrorCode | null;
    /** Why a payer failed, for the operator's log line; never member data. */
    errorReason: string | null;
  }
}

const monitorsAtLimit = (count: number, max: number, adding: number | null) =>
  adding === null
    ? `This key has ${count} monitors, the most it may have (${max}); delete monitors it no longer needs first`
    : `This key has ${count} monitors and may have ${max}; these ${adding} would pass that. Delete monitors it no longer needs first`;

/** The errors the HTTP layer raises, each declared once (the operations declare theirs where they arise). */
export const HttpErrors = {
  // Who may call (auth/auth.ts, metrics.ts, routes/console-session.ts).
  missingKey: declareError('UNAUTHORIZED', 'Missing apikey header'),
  unknownKey: declareError('UNAUTHORIZED', 'Unknown or revoked API key'),
  keyOfOtherNetwork: declareError('UNAUTHORIZED', (env: Mode, mode: Mode) => `This is a ${env} key; this server serves the ${mode} network`),
  consoleHeaderMissing: declareError('UNAUTHORIZED', `Console requests must send the ${CONSOLE_HEADER}: 1 header`),
  sessionEnded: declareError('UNAUTHORIZED', 'The console session has ended; sign in again'),
  userOfOtherNetwork: declareError('UNAUTHORIZED', (env: Mode, mode: Mode) => `This is a ${env} user; this server serves the ${mode} network`),
  signInHeaderMissing: declareError('UNAUTHORIZED', `Send the ${CONSOLE_HEADER}: 1 header`),
  signInFailed: declareError(
    'UNAUTHORIZED',
    (maxFailures: number, lockoutMinutes: number) =>
      `Sign-in failed: check the username, password and one-time code. After ${maxFailures} ` +
      `failed attempts in a row an account is locked for ${lockoutMinutes} minutes.`,
  ),
  metricsToken: declareError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <COVERAGE_METRICS_TOKEN>'),

  // Load (app.ts, overload.ts, rate-limit.ts, routes/batches.ts).
  shuttingDown: declareError('SERVICE_UNAVAILABLE', 'The service is shutting down; retry shortly'),
  overloaded: declareError('SERVICE_UNAVAILABLE', 'The service is overloaded; retry shortly'),
  signInUnrecorded: declareError('SERVICE_UNAVAILABLE', 'The sign-in could not be recorded in the audit trail (the store is unreachable); try again shortly'),
  checksPerMinute: declareError(
    'TOO_MANY_REQUESTS',
    (max: number, retryIn: number) => `Rate limit of ${max} checks per minute exceeded; retry in ${retryIn} seconds`,
  ),
  signInsPerUser: declareError(
    'TOO_MANY_REQUESTS',
    (max: number, retryIn: number) => `At most ${max} sign-ins a minute may be tried for one username; retry in ${retryIn} seconds`,
  ),
  signInsBusy: declareError('TOO_MANY_REQUESTS', (retryIn: number) => `Too many sign-ins are being checked at once; retry in ${retryIn} seconds`),
  /** A plugin's own refusal (@fastify/rate-limit's per-route budgets), in the plugin's words. */
  pluginRateLimit: declareError('TOO_MANY_REQUESTS', (message: string) => message),
  batchRowsQueued: declareError(
    'TOO_MANY_REQUESTS',
    (queued: number, max: number) => `This key has ${queued} batch rows waiting; a key may have at most ${max}. Retry when earlier batches have finished`,
  ),
  bundleRequests: declareError(
    'TOO_MANY_REQUESTS',
    (requests: number, retryIn: number) => `Rate limit exceeded by the ${requests} requests of the Bundle; retry in ${retryIn} seconds`,
  ),
  remittanceNotRecorded: declareError(
    'SERVICE_UNAVAILABLE',
    'The remittance could not be recorded in the audit trail (the store is unreachable), so nothing of it was kept; send it again shortly',
  ),
  gfeNotRecorded: declareError(
    'SERVICE_UNAVAILABLE',
    'The Good Faith Estimate could not be recorded in the audit trail (the store is unreachable), so nothing was kept or shown; try again shortly',
  ),
  dataKeyNeeded: declareError(
    'SERVICE_UNAVAILABLE',
    'Monitors keep the last coverage answer of each patient, which is member data: a production server creates them ' +
      'only with COVERAGE_DATA_KEY set (64 hexadecimal characters, `openssl rand -hex 32`). Ask the operator to set it',
  ),

  // What the caller names is not theirs, or not there.
  noRoute: declareError('NOT_FOUND', (method: string, path: string) => `No route ${method} ${path.length > 100 ? `${path.slice(0, 100)}...` : path}`),
  noBatch: declareError('NOT_FOUND', (id: string) => `No batch ${id}`),
  noMonitor: declareError('NOT_FOUND', (id: string) => `No monitor ${id}`),
  noWebhook: declareError('NOT_FOUND', (id: string) => `No webhook ${id}`),
  noRemittance: declareError('NOT_FOUND', (id: string) => `No remittance ${id}`),
  noPayer: declareError('NOT_FOUND', 'No payer with this ID or alias'),
  noGoodFaithEstimate: declareError(
    'NOT_FOUND',
    (id: string, version?: number) => `No Good Faith Estimate ${id}${version === undefined ? '' : ` version ${version}`}`,
  ),
  noDelivery: declareError('NOT_FOUND', (deliveryId: string, webhookId: string) => `No delivery ${deliveryId} of webhook ${webhookId}`),

  // Refused requests: the message names what is wrong (with `errors` naming the fields or rows).
  invalid: declareError('INVALID_REQUEST', (message: string) => message),
  invalidFields: declareError('INVALID_REQUEST', (...fields: string[]) => `Invalid request: ${fields.join(', ')}`),
  fhirMalformed: declareError('INVALID_REQUEST', 'The body is not a well-formed FHIR R4 resource'),
  scheduleEmpty: declareError('INVALID_REQUEST', 'schedule needs appointments, every_days, or both'),
  monitorLimit: declareError(
    'INVALID_REQUEST',
    (count: number) => `This key has ${count} monitors, the most it may have; delete monitors it no longer needs first`,
  ),
  monitorsAtLimit: declareError('INVALID_REQUEST', monitorsAtLimit),
  gfeIncomplete: declareError('INVALID_REQUEST', (sentence: string) => sentence),
  gfeNotGiven: declareError(
    'INVALID_REQUEST',
    (id: string) => `No version of Good Faith Estimate ${id} was given to the client; mark the version given first (POST /v1/good-faith-estimates/${id}/given)`,
  ),
  gfeChangedMeanwhile: declareError(
    'INVALID_REQUEST',
    (id: string) => `Good Faith Estimate ${id} got a new version meanwhile; read it and send the change again`,
  ),
  webhookLimit: declareError('INVALID_REQUEST', (max: number) => `A key may have at most ${max} webhooks; delete one first`),

  // Fastify's own errors (FRAMEWORK_ERRORS below, frameworkErrors).
  unsupportedMediaType: declareError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'),
  unsupportedBatchMediaType: declareError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json or text/csv'),
  unsupportedRemittanceMediaType: declareError('UNSUPPORTED_MEDIA_TYPE', 'Send the 835 as it was received, as application/edi-x12 or text/plain'),
  contentLengthMismatch: declareError('INVALID_REQUEST', 'The Content-Length header does not match the body'),
  bodyTooLarge: declareError('PAYLOAD_TOO_LARGE', 'The request body is too large'),
  emptyBody: declareError('INVALID_REQUEST', 'The request body is empty; send a JSON object'),
  invalidJson: declareError('INVALID_REQUEST', 'The request body is not valid JSON'),
  nestedTooDeep: declareError('INVALID_REQUEST', (max: number) => `The request body nests arrays and objects more than ${max} deep`),
  urlTooLong: declareError('INVALID_REQUEST', 'The URL is too long'),
  badUrl: declareError('INVALID_REQUEST', 'The URL is not valid'),
  unprocessable: declareError('INVALID_REQUEST', 'The request could not be processed'),
  internal: declareError('INTERNAL_ERROR', 'Internal error'),
};

/** The one place an error body is written; `status` differs from the code's only where Fastify chose it (see below). */
function answer(reply: FastifyReply, request: FastifyRequest, error: ServiceError, status: number = error.status) {
  request.errorCode = error.code;
  request.errorReason = error.details.reason ?? null;
  if (error.details.retryAfterSeconds) reply.header('retry-after', String(error.details.retryAfterSeconds));
  reply.code(status).type('application/json; charset=utf-8');
  const { errors, payer_errors: payerErrors } = error.details;
  return reply.send({
    error_code: error.code,
    message: error.message,
    request_id: request.id,
    ...(errors ? { errors } : {}),
    ...(payerErrors && payerErrors.length > 0 ? { payer_errors: payerErrors } : {}),
  });
}

const FRAMEWORK_ERRORS: Record<string, () => ServiceError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: HttpErrors.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: HttpErrors.contentLengthMismatch,
  FST_ERR_CTP_BODY_TOO_LARGE: HttpErrors.bodyTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: HttpErrors.emptyBody,
  FST_ERR_CTP_INVALID_JSON_BODY: HttpErrors.invalidJson,
};

export function installErrorHandling(app: FastifyInstance): void {
  app.decorateRequest('errorCode', null);
  app.decorateRequest('errorReason', null);
  app.setErrorHandler((error: FastifyError & { validation?: unknown[] }, request, reply) => {
    if (error instanceof ServiceError) return answer(reply, request, error);
    if (error.validation) {
      const errors = fieldErrors(error.validation);
      return answer(reply, request, HttpErrors.invalidFields(...errors.map((e) => e.field)).with({ errors }));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) {
      const batch = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && request.routeOptions.url?.startsWith('/v1/batches');
      return answer(reply, request, batch ? HttpErrors.unsupportedBatchMediaType() : known());
    }
    if (error instanceof SyntaxError || error.statusCode === 400) return answer(reply, request, HttpErrors.invalidJson());
    // Plugins' refusals (@fastify/rate-limit's per-route budgets, @fastify/under-pressure) keep their status.
    if (error.statusCode === 429) return answer(reply, request, HttpErrors.pluginRateLimit(error.message));
    if (error.statusCode === 503) return answer(reply, request, HttpErrors.overloaded());
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return answer(reply, request, HttpErrors.unprocessable(), error.statusCode);
    }
    // Log the type and stack only: messages from lower layers are not trusted to be free of member data.
    request.log.error({ err_type: error.name, code: error.code, stack: error.stack }, 'unhandled error');
    return answer(reply, request, HttpErrors.internal());
  });
  // api-headers.ts sets the API's headers by route; a URL without one gets them here.
  app.setNotFoundHandler(notFound);
}

/** No route: the API's headers, and no more of the URL than a person needs to spot a typo. */
export function notFound(request: FastifyRequest, reply: FastifyReply) {
  reply.headers(API_HEADERS);
  return answer(reply, request, HttpErrors.noRoute(request.method, request.url.split('?')[0]!));
}

/** Errors Fastify raises before routing (a URL it cannot decode), in the same shape as the rest. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(API_HEADERS);
  // Fastify's 414 for a URL too long is kept: the code is INVALID_REQUEST, the status says which.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void answer(reply, request, HttpErrors.urlTooLong(), 414);
  else if (error.code === 'FST_ERR_BAD_URL') void answer(reply, request, HttpErrors.badUrl());
  else void answer(reply, request, HttpErrors.internal());
}
