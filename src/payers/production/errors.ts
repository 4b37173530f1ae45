/** How a failed attempt at a payer is classified for retries, the breaker and the caller. */
import type { PayerErrorEntry } from '../../domain/schemas/responses.ts';
import { PayerError } from '../network.ts';

/** The connection failed before an answer came: safe to retry (an inquiry changes nothing). */
export class ConnectionFailure extends PayerError {
  constructor(payerId: string, code: string) {
    super('failure', payerId, `connection error (${code})`);
  }
}

/**
 * Our deadline ran out on an inquiry the payer did not get at once (it waited in our queue or rate
 * limiter, or was a retry) or the caller gave up: not the payer's failure, so the breaker ignores it.
 */
export class DeadlineSpent extends PayerError {
  constructor(payerId: string, reason: string) {
    super('timeout', payerId, reason);
  }
}

/**
 * The connection says it cannot reach this payer (a clearinghouse's "payer not configured", AAA 79
 * from the clearinghouse itself, a refused credential): the route failed, another route may work.
 * Not the connection's breaker's business: its other payers are fine.
 */
export class RouteRefused extends PayerError {
  constructor(connection: string, reason: string, payerErrors?: PayerErrorEntry[]) {
    super('failure', connection, reason, undefined, payerErrors);
  }
}

/**
 * The far end refused OUR request (an HTTP 400 validation answer, fields it requires missing, a 270
 * it could not parse): the caller's request is not enough for this route, so the caller gets 400
 * INVALID_REQUEST naming what the route needs (operations/ask-payer.ts). Not the payer's failure:
 * not retried, not counted by the breaker, not failed over (every route would get the same request).
 * `fields`: what the route needs, by OUR API's field names (member_first_name, ...), never the
 * vendor's words; `reason` is for the operator and never holds member data.
 */
export class RequestRefused extends PayerError {
  constructor(
    connection: string,
    reason: string,
    readonly fields: string[] = [],
  ) {
    super('refused', connection, reason);
    this.name = 'RequestRefused';
  }
}

/** The payer answered AAA 42 (unable to respond now): retried, and returned as is when retries run out. */
export class PayerBusy extends Error {
  constructor(readonly answer: string) {
    super('payer answered AAA 42');
    this.name = 'PayerBusy';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export function connectionCode(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
  }
  return null;
}

export const isRetryable = (err: unknown) => err instanceof ConnectionFailure || err instanceof PayerBusy;

/** Failures that count against the payer's circuit breaker: it is down, slow or sending garbage. */
export const isBreakerFailure = (err: unknown) =>
  err instanceof DeadlineSpent || err instanceof RouteRefused || err instanceof RequestRefused
    ? false
    : err instanceof PayerError
      ? err.kind === 'failure' || err.kind === 'timeout' || err.kind === 'protocol'
      : !(err instanceof PayerBusy);
