/**
 * The loop the batch runner, the monitor runner and the webhook delivery worker share: work is
 * claimed from the store under a lease named `{worker id}.{n}`, the lease is renewed while any of
 * its work runs, and on close what is still held is released (else it returns when the lease
 * ends). A pass claims work; one runs at a time, and a wake during a pass runs one more after it.
 * The lease times come from the injected clock; the poll and renewal timers are the process's own.
 */
import { randomBytes } from 'node:crypto';
import { dateOf, systemClock, type Clock, type ClockTimer } from '../domain/clock.ts';

/** What the worker needs of the store: every queue renews and releases its claims. */
export interface LeaseQueue {
  renew(claims: readonly string[], leaseUntil: Date): Promise<void>;
  release(claims: readonly string[]): Promise<unknown>;
}

export interface WorkerLog {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** What a log line says of an error: its class, never its message (which may carry member data). */
export const errType = (err: unknown) => (err instanceof Error ? err.name : typeof err);

export interface LeaseWorkerOptions {
  /** Starts the worker's id (`w_…`); the claims are named after it. */
  prefix: string;
  /** What the worker claims, for its log lines ("batch rows"). */
  what: string;
  queue: LeaseQueue;
  /** Leases, polls and renewals run on it (the machine's by default). */
  clock?: Clock;
  /** How long a claim holds without renewal; renewed every third of it. */
  leaseMs: number;
  /** How often the poll timer runs `onPoll` and a pass. */
  pollMs: number;
  /** On close, how long work in progress may take before its claims are released; unset waits for all of it. */
  graceMs?: number;
  log?: WorkerLog;
  /** One pass: claims work with `lease()` and starts it with `run()`. */
  pass: () => Promise<void>;
  /** Run by the poll timer before its pass (expired leases, purges); a wake runs the pass alone. */
  onPoll?: () => Promise<void>;
}

export class LeaseWorker {
  readonly id: string;
  readonly clock: Clock;
  private seq = 0;
  private running = 0;
  /** Claims with work still in progress here, and how much. */
  private readonly claims = new Map<string, number>();
  private readonly tasks = new Set<Promise<void>>();
  private passing: Promise<void> | null = null;
  private again = false;
  private polling: Promise<void> | null = null;
  private stopped = false;
  private timers: ClockTimer[] = [];

  constructor(private readonly options: LeaseWorkerOptions) {
    this.id = `${options.prefix}_${randomBytes(6).toString('hex')}`;
    this.clock = options.clock ?? systemClock;
  }

  /** The clock's time. */
  now(): Date {
    return dateOf(this.clock);
  }

  start(): void {
    this.timers.push(this.clock.setInterval(() => void this.poll(), this.options.pollMs));
    this.timers.push(this.clock.setInterval(() => void this.renew(), Math.max(50, Math.floor(this.options.leaseMs / 3))));
    void this.poll();
  }

  /** Work in progress here. */
  get active(): number {
    return this.running;
  }

  get closed(): boolean {
    return this.stopped;
  }

  /** A new claim of this worker, and when its lease ends if taken at `at`. */
  lease(at: Date = this.now()): { claim: string; until: Date } {
    return { claim: `${this.id}.${++this.seq}`, until: new Date(at.getTime() + this.options.leaseMs) };
  }

  /** Runs a pass now, or one more after the pass running; resolves when no pass runs. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.passing) {
      this.again = true;
      return this.passing;
    }
    this.passing = (async () => {
      do {
        this.again = false;
        try {
          await this.options.pass();
        } catch (err) {
          this.options.log?.error({ err_type: errType(err) }, `${this.options.what} could not be claimed`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.passing = null;
    });
    return this.passing;
  }

  /** What the poll timer runs: `onPoll`, then a pass. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.polling ??= (async () => {
      try {
        await this.options.onPoll?.();
      } catch (err) {
        this.options.log?.error({ err_type: errType(err) }, `${this.options.what}: poll failed`);
      }
      await this.wake();
    })().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /**
   * Starts `work` for each item claimed under `claim`; the claim is renewed until the last of them
   * settles, then `settled` is told. A failure `work` lets through is logged by its class.
   */
  run<T>(claim: string, items: readonly T[], work: (item: T) => Promise<void>, settled?: (item: T) => void): void {
    if (items.length === 0) return;
    this.claims.set(claim, (this.claims.get(claim) ?? 0) + items.length);
    for (const item of items) {
      this.running++;
      const task: Promise<void> = work(item)
        .catch((err) => this.options.log?.error({ err_type: errType(err) }, `${this.options.what}: work failed`))
        .finally(() => {
          this.running--;
          const left = (this.claims.get(claim) ?? 1) - 1;
          if (left > 0) this.claims.set(claim, left);
          else this.claims.delete(claim);
          this.tasks.delete(task);
          settled?.(item);
        });
      this.tasks.add(task);
    }
  }

  /** Resolves when no pass runs and no work is in progress. */
  async idle(): Promise<void> {
    while (this.polling || this.passing || this.tasks.size > 0) await Promise.allSettled([this.polling, this.passing, ...this.tasks]);
  }

  async close(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    await this.polling;
    await this.passing;
    const work = Promise.allSettled([...this.tasks]);
    if (this.options.graceMs === undefined) await work;
    else {
      // Held by the event loop (a Node timer, not the clock's unref'd ones), so a stopping process lives
      // to release what is still running.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([work, new Promise<void>((resolve) => (grace = setTimeout(resolve, this.options.graceMs)))]);
      clearTimeout(grace);
    }
    if (this.claims.size === 0) return;
    try {
      await this.options.queue.release([...this.claims.keys()]);
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, `${this.options.what} could not be released; they return when their lease ends`);
    }
  }

  private async renew(): Promise<void> {
    if (this.claims.size === 0) return;
    try {
      await this.options.queue.renew([...this.claims.keys()], new Date(this.now().getTime() + this.options.leaseMs));
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, `${this.options.what}: lease renewal failed`);
    }
  }
}

/**
 * A worker built on the loop (the batch runner, the monitor runner, the delivery worker): its id,
 * start, idle and close are the loop's; what a pass claims, and what a poll does first, are its own.
 */
export abstract class LeasedWorker {
  protected readonly worker: LeaseWorker;

  constructor(options: Omit<LeaseWorkerOptions, 'pass' | 'onPoll' | 'log'> & { log?: WorkerLog | undefined }) {
    const { log, ...rest } = options;
    this.worker = new LeaseWorker({
      ...rest,
      ...(log ? { log } : {}),
      pass: () => this.claim(),
      ...(this.housekeep ? { onPoll: () => this.housekeep!() } : {}),
    });
  }

  /** One pass: claims work with `worker.lease()` and starts it with `worker.run()`. */
  protected abstract claim(): Promise<void>;

  /** Run by the poll timer before its pass, when the worker has housekeeping. */
  protected housekeep?(): Promise<void>;

  get workerId(): string {
    return this.worker.id;
  }

  start(): void {
    this.worker.start();
  }

  /** Resolves when nothing is being claimed or worked on (tests). */
  idle(): Promise<void> {
    return this.worker.idle();
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
