/**
 * Makes monitors' scheduled checks (docs/monitoring.md): due checks are claimed from the store a
 * payer at a time under a lease, paced per payer (one check to a payer per interval, across every
 * instance sharing the store) and, when an off-hours window is set, only while it is open. Each
 * result, the next due time and the events are written under the claim; a check whose claim was
 * lost (its lease ran out) writes nothing, and the instance that took it over writes its own.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CoverageSnapshot } from '../../domain/monitoring/coverage-diff.ts';
import { inWindow, nextCheckAfter, type CheckWindow, type MonitorSchedule } from '../../domain/monitoring/schedule.ts';
import type { OperationDeps } from '../context.ts';
import { checkMonitor, type MonitorCheckOutcome, type MonitorToCheck } from './monitor-check.ts';

export type MonitorEnv = 'sandbox' | 'production';

export interface DueMonitor extends MonitorToCheck {
  owner_id: string;
  key_id: string;
  payer_key: string;
  schedule: MonitorSchedule;
  claim: string;
}

export interface CheckWrite {
  last: MonitorCheckOutcome['last'];
  snapshot: CoverageSnapshot | null;
  events: MonitorCheckOutcome['events'];
}

/** What the runner needs of the store (store/monitors.ts). */
export interface MonitorQueue {
  duePayers(env: MonitorEnv, now: Date): Promise<string[]>;
  takePacing(payerKey: string, intervalMs: number, now: Date): Promise<boolean>;
  claimDue(env: MonitorEnv, payerKey: string, limit: number, claim: string, leaseUntil: Date, now: Date): Promise<DueMonitor[]>;
  recordCheck(monitor: { id: string; owner_id: string }, record: CheckWrite, scheduled: { claim: string; nextCheckAt: Date | null } | null): Promise<boolean>;
  renew(claims: readonly string[], leaseUntil: Date): Promise<void>;
  release(claims: readonly string[]): Promise<void>;
}

export interface MonitorRunnerOptions {
  deps: OperationDeps;
  queue: MonitorQueue;
  env: MonitorEnv;
  now?: () => Date;
  concurrency: number;
  /** The least time between two scheduled checks to one payer; 0 paces none. */
  payerIntervalMs: number;
  /** Scheduled checks wait for it to open; null: any hour. */
  window: CheckWindow | null;
  leaseMs: number;
  pollMs: number;
  /** Told about each check whose result was written (its audit record). */
  onChecked?: (monitor: DueMonitor, outcome: MonitorCheckOutcome) => void;
  /** Told when a check queued events (to wake the delivery worker). */
  onEvents?: () => void;
  log?: { error(obj: Record<string, unknown>, msg: string): void; warn(obj: Record<string, unknown>, msg: string): void };
}

const errType = (err: unknown) => (err instanceof Error ? err.name : typeof err);

export class MonitorRunner {
  readonly workerId = `m_${randomBytes(6).toString('hex')}`;
  private seq = 0;
  private active = 0;
  private readonly claims = new Map<string, number>();
  private readonly tasks = new Set<Promise<void>>();
  private polling: Promise<void> | null = null;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];
  private readonly now: () => Date;

  constructor(private readonly options: MonitorRunnerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.timers.push(setInterval(() => void this.poll(), this.options.pollMs).unref());
    this.timers.push(setInterval(() => void this.renew(), Math.max(50, Math.floor(this.options.leaseMs / 3))).unref());
    void this.poll();
  }

  /** One pass over the due payers (also what the timer runs); resolves when the checks it started are written. */
  async runDue(): Promise<void> {
    await this.poll();
    await Promise.allSettled([...this.tasks]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.polling;
    await Promise.allSettled([...this.tasks]);
    if (this.claims.size > 0) await this.options.queue.release([...this.claims.keys()]).catch(() => {});
  }

  private poll(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.polling ??= this.claimDue().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async renew(): Promise<void> {
    if (this.claims.size === 0) return;
    try {
      await this.options.queue.renew([...this.claims.keys()], new Date(this.now().getTime() + this.options.leaseMs));
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, 'monitor lease renewal failed');
    }
  }

  private async claimDue(): Promise<void> {
    const { queue, env, window, payerIntervalMs, concurrency, leaseMs } = this.options;
    try {
      const now = this.now();
      if (window && !inWindow(window, now)) return;
      for (const payer of await queue.duePayers(env, now)) {
        const free = concurrency - this.active;
        if (free <= 0 || this.closed) return;
        if (!(await queue.takePacing(payer, payerIntervalMs, now))) continue;
        const claim = `${this.workerId}.${++this.seq}`;
        const due = await queue.claimDue(env, payer, payerIntervalMs > 0 ? 1 : free, claim, new Date(now.getTime() + leaseMs), now);
        if (due.length > 0) this.claims.set(claim, due.length);
        for (const monitor of due) this.begin(monitor);
      }
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, 'monitor checks could not be claimed');
    }
  }

  private begin(monitor: DueMonitor): void {
    this.active++;
    const task: Promise<void> = this.run(monitor)
      .catch((err) =>
        this.options.log?.error({ err_type: errType(err), monitor_id: monitor.id }, 'monitor check not recorded; it is made again when its lease ends'),
      )
      .finally(() => {
        this.active--;
        const left = (this.claims.get(monitor.claim) ?? 1) - 1;
        if (left > 0) this.claims.set(monitor.claim, left);
        else this.claims.delete(monitor.claim);
        this.tasks.delete(task);
      });
    this.tasks.add(task);
  }

  private async run(monitor: DueMonitor): Promise<void> {
    await nextTurn();
    const at = this.now();
    const outcome = await checkMonitor(this.options.deps, monitor, at);
    const written = await this.options.queue.recordCheck(
      monitor,
      { last: outcome.last, snapshot: outcome.snapshot, events: outcome.events },
      { claim: monitor.claim, nextCheckAt: nextCheckAfter(monitor.schedule, at) },
    );
    if (!written) return;
    this.options.onChecked?.(monitor, outcome);
    if (outcome.events.length > 0) this.options.onEvents?.();
  }
}
