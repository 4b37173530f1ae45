/**
 * Everything one payer gets of its own: an undici Pool, a bulkhead (max_concurrency), a rate
 * limit, retries with exponential backoff and jitter (connection errors and AAA 42 only) and a
 * circuit breaker. Every exchange runs under one deadline that covers queueing and retries.
 */
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  ConsecutiveBreaker,
  ExponentialBackoff,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  wrap,
  type IPolicy,
} from 'cockatiel';
import { Pool } from 'undici';
import { newCoreRequest, type Credentials } from '../core/fields.ts';
import type { DirectoryPayer } from '../directory.ts';
import { PayerError, type ExchangeContext } from '../network.ts';
import { answersAaa42 } from './aaa42.ts';
import { coreExchange } from './core-exchange.ts';
import { PayerBusy, isBreakerFailure, isRetryable } from './errors.ts';
import { RateLimiter } from './rate-limit.ts';

export interface ConnectorDefaults {
  senderId: string;
  timeoutMs: number;
  maxConcurrency: number;
  retryAttempts: number;
  retryInitialDelayMs: number;
  breakerFailures: number;
  breakerHalfOpenMs: number;
}

export const CONNECTOR_DEFAULTS: Omit<ConnectorDefaults, 'senderId' | 'timeoutMs'> = {
  maxConcurrency: 10,
  retryAttempts: 2,
  retryInitialDelayMs: 100,
  breakerFailures: 5,
  breakerHalfOpenMs: 30_000,
};

function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (v) => (signal.removeEventListener('abort', abort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', abort), reject(e)),
    );
  });
}

export class PayerConnector {
  readonly payerId: string;
  private readonly pool: Pool;
  private readonly path: string;
  private readonly policy: IPolicy;
  private readonly limiter: RateLimiter | null;
  private readonly timeoutMs: number;
  private readonly breakerPolicy;

  constructor(
    private readonly entry: DirectoryPayer,
    private readonly credentials: Credentials | null,
    private readonly defaults: ConnectorDefaults,
  ) {
    this.payerId = entry.payer_id;
    const url = new URL(entry.endpoint);
    this.path = `${url.pathname}${url.search}`;
    this.timeoutMs = entry.timeout_ms ?? defaults.timeoutMs;
    const connections = entry.max_concurrency ?? defaults.maxConcurrency;
    this.pool = new Pool(url.origin, {
      connections,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connectTimeout: Math.min(this.timeoutMs, 10_000),
    });
    this.limiter = entry.rate_limit_per_second ? new RateLimiter(entry.rate_limit_per_second) : null;
    const retries = retry(handleWhen(isRetryable), {
      maxAttempts: entry.retry?.max_attempts ?? defaults.retryAttempts,
      backoff: new ExponentialBackoff({ initialDelay: entry.retry?.initial_delay_ms ?? defaults.retryInitialDelayMs, maxDelay: 2_000 }),
    });
    this.breakerPolicy = circuitBreaker(handleWhen(isBreakerFailure), {
      halfOpenAfter: entry.circuit_breaker?.half_open_after_ms ?? defaults.breakerHalfOpenMs,
      breaker: new ConsecutiveBreaker(entry.circuit_breaker?.consecutive_failures ?? defaults.breakerFailures),
    });
    // Outermost first: wait for a slot, retry, and let the breaker see (and stop) every attempt.
    this.policy = wrap(bulkhead(connections, connections * 20), retries, this.breakerPolicy);
  }

  get breakerState(): string {
    return String(this.breakerPolicy.state);
  }

  async exchange(x12: string, ctx: ExchangeContext): Promise<string> {
    const deadline = Math.min(ctx.deadline, Date.now() + this.timeoutMs);
    const remaining = deadline - Date.now();
    const timedOut = () => new PayerError('timeout', this.payerId, `no answer within ${Math.max(0, remaining)} ms`);
    if (remaining <= 0) throw timedOut();
    const timer = AbortSignal.timeout(remaining);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer]) : timer;
    if (this.limiter) {
      const wait = this.limiter.reserve(deadline);
      if (wait === null) throw new PayerError('throttled', this.payerId, 'payer rate limit reached', 1);
      if (wait > 0) await abortable(new Promise((r) => setTimeout(r, wait)), signal, timedOut);
    }
    try {
      const attempt = ({ signal: s }: { signal: AbortSignal }) => this.attempt(x12, s);
      return await abortable(this.policy.execute(attempt, signal) as Promise<string>, signal, timedOut);
    } catch (err) {
      if (err instanceof PayerBusy) return err.answer;
      if (err instanceof BrokenCircuitError) throw new PayerError('circuit_open', this.payerId, 'circuit open after repeated failures');
      if (err instanceof BulkheadRejectedError) throw new PayerError('throttled', this.payerId, 'too many inquiries queued for this payer', 1);
      if (err instanceof PayerError) throw err;
      if (signal.aborted) throw timedOut();
      throw new PayerError('failure', this.payerId, `exchange failed (${(err as Error)?.name ?? 'error'})`);
    }
  }

  private async attempt(x12: string, signal: AbortSignal): Promise<string> {
    if (signal.aborted) throw new PayerError('timeout', this.payerId, 'no answer before the deadline');
    const req = newCoreRequest(x12, this.defaults.senderId, this.entry.receiver_id ?? this.payerId);
    const answer = await coreExchange(this.pool, this.path, this.entry.protocol, this.payerId, req, this.credentials, signal);
    if (answersAaa42(answer)) throw new PayerBusy(answer);
    return answer;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
