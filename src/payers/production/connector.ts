/**
 * Everything one connection gets of its own (a clearinghouse account, or a CORE endpoint): an undici
 * Pool, a bulkhead (max_in_flight: past it inquiries queue, within their deadline), a rate limit,
 * retries with exponential backoff and jitter (connection errors and AAA 42 only) and a circuit
 * breaker. Every exchange runs under one deadline that covers queueing and retries. What goes over
 * the wire is the connection kind's business (src/payers/vendors/).
 *
 * The breaker counts the connection's own failures only. A timeout is the far end's when the inquiry
 * went out at once (a free slot, no rate-limit wait, first attempt) and the deadline ran out while it
 * held it; time spent in our queue, a retry's leftover budget or the caller giving up is ours.
 * An inquiry whose deadline passes before it is sent answers 429 with Retry-After, like a full queue.
 */
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  wrap,
  type IBackoff,
  type IBackoffFactory,
  type IPolicy,
} from 'cockatiel';
import { Pool } from 'undici';
import { systemClock, type Clock } from '../../domain/clock.ts';
import { DEFAULT_MAX_IN_FLIGHT, type DirectoryConnection } from '../connections.ts';
import { PayerError, type ExchangeContext } from '../network.ts';
import { connectionOrigin, createVendorClient, type RouteTarget, type VendorClient } from '../vendors/index.ts';
import { answersAaa42 } from './aaa42.ts';
import { DeadlineSpent, PayerBusy, isBreakerFailure, isRetryable } from './errors.ts';
import { RateLimiter } from './rate-limit.ts';

export type BreakerState = 'closed' | 'half_open' | 'open';

export interface ConnectorDefaults {
  timeoutMs: number;
  maxConcurrency: number;
  retryAttempts: number;
  retryInitialDelayMs: number;
  breakerFailures: number;
  breakerHalfOpenMs: number;
}

export const CONNECTOR_DEFAULTS: Omit<ConnectorDefaults, 'timeoutMs'> = {
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

/**
 * Aborted when `ms` pass or the caller's signal aborts, until released. Not AbortSignal.timeout: its
 * timer and the registry entry that clears it live for the whole timeout, long after the exchange
 * answered, so every exchange left a timer and a signal for the old generation (the payer timeout is
 * 20 s by default, docs/payer-directory.md; an answer takes tens of milliseconds). A caller's signal
 * (a scan's, shared by every payer it asks) is joined with AbortSignal.any, which adds it no listener.
 */
export function deadlineSignal(ms: number, caller?: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  return { signal: caller ? AbortSignal.any([caller, controller.signal]) : controller.signal, release: () => clearTimeout(timer) };
}

/**
 * The breaker's open period, measured on the clock: cockatiel compares its own Date.now() reading
 * with the backoff's duration, so the duration read is one already over (-Infinity) once the clock
 * says the period ended, and one not over yet (+Infinity) before.
 */
function halfOpenAfter(ms: number, clock: Clock): IBackoffFactory<unknown> {
  const opened = (): IBackoff<unknown> => {
    const at = clock.now();
    return {
      get duration() {
        return clock.now() - at >= ms ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      },
      next: opened,
    };
  };
  return { next: opened };
}

export class PayerConnector {
  /** The connection's name (for a payer of the directory's original shape, its payer_id). */
  readonly payerId: string;
  readonly kind: DirectoryConnection['kind'];
  private readonly pool: Pool;
  private readonly client: VendorClient;
  private readonly policy: IPolicy;
  private readonly limiter: RateLimiter | null;
  private readonly timeoutMs: number;
  private readonly breakerPolicy;
  private readonly bulkhead;

  constructor(
    entry: DirectoryConnection,
    defaults: ConnectorDefaults,
    env: NodeJS.ProcessEnv,
    private readonly clock: Clock = systemClock,
  ) {
    this.payerId = entry.name;
    this.kind = entry.kind;
    this.timeoutMs = entry.timeout_ms ?? defaults.timeoutMs;
    const connections = entry.max_in_flight ?? DEFAULT_MAX_IN_FLIGHT[entry.kind] ?? defaults.maxConcurrency;
    this.pool = new Pool(connectionOrigin(entry), {
      connections,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connectTimeout: Math.min(this.timeoutMs, 10_000),
    });
    this.client = createVendorClient(entry, this.pool, env, clock);
    this.limiter = entry.rate_limit_per_second ? new RateLimiter(entry.rate_limit_per_second) : null;
    const retries = retry(handleWhen(isRetryable), {
      maxAttempts: entry.retry?.max_attempts ?? defaults.retryAttempts,
      backoff: new ExponentialBackoff({ initialDelay: entry.retry?.initial_delay_ms ?? defaults.retryInitialDelayMs, maxDelay: 2_000 }),
    });
    this.breakerPolicy = circuitBreaker(handleWhen(isBreakerFailure), {
      halfOpenAfter: halfOpenAfter(entry.circuit_breaker?.half_open_after_ms ?? defaults.breakerHalfOpenMs, clock),
      breaker: new ConsecutiveBreaker(entry.circuit_breaker?.consecutive_failures ?? defaults.breakerFailures),
    });
    // Outermost first: wait for a slot, retry, and let the breaker see (and stop) every attempt.
    this.bulkhead = bulkhead(connections, connections * 20);
    this.policy = wrap(this.bulkhead, retries, this.breakerPolicy);
  }

  get breakerState(): string {
    return String(this.breakerPolicy.state);
  }

  /** Told the breaker's state now and at every change (metrics); an isolated breaker counts as open. */
  onBreakerState(listener: (state: BreakerState) => void): void {
    const name = (s: CircuitState): BreakerState => (s === CircuitState.Closed ? 'closed' : s === CircuitState.HalfOpen ? 'half_open' : 'open');
    listener(name(this.breakerPolicy.state));
    this.breakerPolicy.onStateChange((s) => listener(name(s)));
  }

  async exchange(x12: string, ctx: ExchangeContext, routeTarget: RouteTarget): Promise<string> {
    const target = ctx.client_ips ? { ...routeTarget, client_ips: ctx.client_ips } : routeTarget;
    const now = this.clock.now();
    const deadline = Math.min(ctx.deadline, now + this.timeoutMs);
    const remaining = deadline - now;
    const timedOut = () => new PayerError('timeout', this.payerId, `no answer within ${Math.max(0, remaining)} ms`);
    if (remaining <= 0) throw timedOut();
    const { signal, release } = deadlineSignal(remaining, ctx.signal);
    // Never sent: our queue (or rate limiter) held it past the deadline. Overload, not a payer failure.
    const queuedTooLong = () => new PayerError('throttled', this.payerId, 'deadline passed while queued for this payer', 1);
    let waited = false;
    let sent = false;
    try {
      if (this.limiter) {
        const wait = this.limiter.reserve(deadline, this.clock.now());
        if (wait === null) throw new PayerError('throttled', this.payerId, 'payer rate limit reached', 1);
        if (wait > 0) {
          waited = true;
          await abortable(this.clock.sleep(wait, signal), signal, queuedTooLong);
        }
      }
      const atOnce = !waited && this.bulkhead.executionSlots > 0;
      const attempt = ({ signal: s, attempt: n }: { signal: AbortSignal; attempt?: number }) => {
        sent = true;
        const first = atOnce && (n ?? 0) === 0;
        // A call held for a half-open breaker's probe gets no signal from cockatiel: ours still applies.
        return this.attempt(x12, target, s === signal ? s : AbortSignal.any([s, signal]), () => first && !ctx.signal?.aborted);
      };
      return await abortable(this.policy.execute(attempt, signal), signal, () => (sent ? timedOut() : queuedTooLong()));
    } catch (err) {
      if (err instanceof PayerBusy) return err.answer;
      if (err instanceof BrokenCircuitError) throw new PayerError('circuit_open', this.payerId, 'circuit open after repeated failures');
      if (err instanceof BulkheadRejectedError) throw new PayerError('throttled', this.payerId, 'too many inquiries queued for this payer', 1);
      if (err instanceof PayerError) throw err;
      if (signal.aborted) throw sent ? timedOut() : queuedTooLong();
      throw new PayerError('failure', this.payerId, `exchange failed (${(err as Error)?.name ?? 'error'})`);
    } finally {
      release();
    }
  }

  /** `payerHadItAll`: sent at once on the first attempt and the caller still waiting, so a timeout is the payer's own. */
  private async attempt(x12: string, target: RouteTarget, signal: AbortSignal, payerHadItAll: () => boolean): Promise<string> {
    if (signal.aborted) throw new DeadlineSpent(this.payerId, 'no answer before the deadline');
    try {
      const answer = await this.client.send(x12, target, signal);
      if (answersAaa42(answer)) throw new PayerBusy(answer);
      return answer;
    } catch (err) {
      const ours = err instanceof PayerError && err.kind === 'timeout' && !payerHadItAll();
      throw ours ? new DeadlineSpent(this.payerId, err.reason) : err;
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
