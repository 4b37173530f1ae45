/**
 * Sends queued webhook deliveries (docs/monitoring.md): claims due ones under a lease, POSTs each
 * with Standard Webhooks headers (the same webhook-id on every attempt), and records the attempt.
 * A 2xx answer delivers it; anything else is retried with exponential backoff and jitter until
 * 24 h after the event (or its manual redelivery), then it is marked failed. At least once: a
 * worker that dies mid-send leaves the claim to lapse and the delivery is sent again.
 */
import type { Agent } from 'undici';
import type { AttemptOutcome, DueDelivery } from '../../domain/monitoring/delivery.ts';
import { DEFAULT_BACKOFF, nextAttemptAt, type BackoffPolicy } from '../../domain/monitoring/backoff.ts';
import { errType, LeasedWorker, type LeaseQueue, type WorkerLog } from '../lease-worker.ts';
import { signWebhook } from './signature.ts';
import { TargetRefused } from '../errors.ts';
import { checkTarget, guardedLookup, type Resolve } from './webhook-target.ts';
import { dateOf, systemClock, type Clock } from '../../domain/clock.ts';

/** What the worker needs of the store (store/webhooks.ts). */
export interface DeliveryQueue extends LeaseQueue {
  claimDue(limit: number, claim: string, leaseUntil: Date, now: Date): Promise<DueDelivery[]>;
  finish(delivery: Pick<DueDelivery, 'id' | 'claim'>, outcome: AttemptOutcome): Promise<boolean>;
  /** Deletes delivered and failed deliveries last attempted before the instant. */
  purgeFinishedBefore?(instant: Date): Promise<number>;
}

export interface DeliveryWorkerOptions {
  queue: DeliveryQueue;
  /** The clock of the attempts, the backoff and the leases; the machine's by default. */
  clock?: Clock;
  /** Deliveries sent at once by this instance. */
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** One attempt's limit, connect to last byte. */
  timeoutMs: number;
  backoff?: BackoffPolicy;
  /** How long delivered and failed deliveries stay in the log; default 30 days. */
  logRetentionMs?: number;
  /** COVERAGE_WEBHOOK_ALLOW_INSECURE: http and loopback receivers. */
  allowInsecure: boolean;
  /** How receivers' host names are resolved; the system resolver by default. */
  resolve?: Resolve;
  random?: () => number;
  /** Told about each attempt recorded (metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
  log?: WorkerLog;
}

const PURGE_EVERY_MS = 10 * 60_000;
const DEFAULT_LOG_RETENTION_MS = 30 * 86_400_000;

export class DeliveryWorker extends LeasedWorker {
  private lastPurge = 0;
  /** undici loads with the first delivery: an instance that never sends one keeps its ~10 MB. */
  private agent: Promise<{ agent: Agent; request: typeof import('undici').request }> | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: DeliveryWorkerOptions) {
    const clock = options.clock ?? systemClock;
    super({ prefix: 'd', what: 'webhook deliveries', queue: options.queue, clock, leaseMs: options.leaseMs, pollMs: options.pollMs, log: options.log });
    this.clock = clock;
  }

  /** Events were queued: look now rather than at the next poll. */
  wake(): void {
    void this.worker.wake();
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.agent) await (await this.agent).agent.close().catch(() => {});
  }

  protected async claim(): Promise<void> {
    const at = dateOf(this.clock).getTime();
    if (this.options.queue.purgeFinishedBefore && at - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = at;
      await this.options.queue.purgeFinishedBefore(new Date(at - (this.options.logRetentionMs ?? DEFAULT_LOG_RETENTION_MS)));
    }
    const free = this.options.concurrency - this.worker.active;
    if (free <= 0) return;
    const now = dateOf(this.clock);
    const { claim, until } = this.worker.lease(now);
    const due = await this.options.queue.claimDue(free, claim, until, now);
    this.worker.run(claim, due, (d) =>
      this.attempt(d).catch((err) => this.options.log?.error({ err_type: errType(err), delivery_id: d.id }, 'webhook delivery attempt not recorded')),
    );
    // A full page: there may be more waiting.
    if (due.length === free) void this.worker.wake();
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { status, error } = await this.send(delivery);
    const at = dateOf(this.clock);
    const delivered = status !== null && status >= 200 && status < 300;
    const random = (this.options.random ?? Math.random)();
    const next = delivered ? null : nextAttemptAt(this.options.backoff ?? DEFAULT_BACKOFF, new Date(delivery.retry_from), at, delivery.attempts + 1, random);
    const outcome = { delivered, status, error, at, nextAttemptAt: next };
    if (await this.options.queue.finish(delivery, outcome)) this.options.onAttempt?.(outcome);
    if (!delivered)
      this.options.log?.warn(
        { delivery_id: delivery.id, webhook_id: delivery.webhook_id, status, attempts: delivery.attempts + 1, gave_up: next === null },
        'webhook delivery failed',
      );
  }

  private client(): Promise<{ agent: Agent; request: typeof import('undici').request }> {
    const { allowInsecure, timeoutMs, resolve } = this.options;
    // Read through `default` (module.exports): the esbuild bundle `npm start` runs gives a CommonJS package
    // loaded on demand no named exports (CONTRIBUTING.md, "Loading a package on demand").
    this.agent ??= import('undici').then(({ default: { Agent, request } }) => ({
      agent: new Agent({ connect: { lookup: guardedLookup(allowInsecure, resolve), timeout: timeoutMs }, keepAliveTimeout: 4_000 }),
      request,
    }));
    return this.agent;
  }

  private async send(delivery: DueDelivery): Promise<{ status: number | null; error: string | null }> {
    if (delivery.secret === null || delivery.payload === null) return { status: null, error: 'stored under another COVERAGE_DATA_KEY' };
    try {
      const url = await checkTarget(delivery.url, this.options.allowInsecure, this.options.resolve);
      const timestamp = Math.floor(dateOf(this.clock).getTime() / 1000);
      const { agent, request } = await this.client();
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'coverage-webhooks/1',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(delivery.secret, delivery.id, timestamp, delivery.payload),
        },
        body: delivery.payload,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      // Only the status matters; the body is read and dropped (bounded by the timeout).
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      return { status: res.statusCode, error: null };
    } catch (err) {
      if (err instanceof TargetRefused) return { status: null, error: err.message };
      const code = (err as { code?: unknown }).code;
      return { status: null, error: typeof code === 'string' ? code : errType(err) };
    }
  }
}
