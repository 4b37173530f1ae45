/**
 * Makes monitors' scheduled checks (docs/monitoring.md): due checks are claimed from the store a
 * payer at a time under a lease, paced per payer (one check to a payer per interval, across every
 * instance sharing the store) and, when an off-hours window is set, only while it is open. Each
 * result, the next due time and the events are written under the claim; a check whose claim was
 * lost (its lease ran out) writes nothing, and the instance that took it over writes its own.
 */
import { ownTurn } from '../own-turn.ts';
import type { Mode } from '../../domain/mode.ts';
import { inWindow, nextCheckAfter, type CheckWindow, type MonitorSchedule } from '../../domain/monitoring/schedule.ts';
import type { OperationDeps } from '../context.ts';
import { errType, LeasedWorker, type LeaseQueue, type WorkerLog } from '../lease-worker.ts';
import { recordedCheck, type CheckRecorder } from './check-now.ts';
import type { MonitorCheckOutcome, MonitorToCheck } from './monitor-check.ts';

export type { CheckWrite } from './check-now.ts';

export interface DueMonitor extends MonitorToCheck {
  owner_id: string;
  key_id: string;
  payer_key: string;
  schedule: MonitorSchedule;
  claim: string;
}

/** What the runner needs of the store (store/monitors.ts). */
export interface MonitorQueue extends LeaseQueue, CheckRecorder {
  duePayers(env: Mode, now: Date): Promise<string[]>;
  takePacing(payerKey: string, intervalMs: number, now: Date): Promise<boolean>;
  claimDue(env: Mode, payerKey: string, limit: number, claim: string, leaseUntil: Date, now: Date): Promise<DueMonitor[]>;
  /** Deletes bulk uploads whose writing never finished, once their staging time has passed (store/monitors.ts createWithin). */
  dropAbandoned?(now: Date): Promise<number>;
}

export interface MonitorRunnerOptions {
  deps: OperationDeps;
  queue: MonitorQueue;
  env: Mode;
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
  log?: WorkerLog;
}

export class MonitorRunner extends LeasedWorker {
  constructor(private readonly options: MonitorRunnerOptions) {
    super({
      prefix: 'm',
      what: 'monitor checks',
      queue: options.queue,
      clock: options.deps.clock,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      log: options.log,
    });
  }

  /** One pass over the due payers (also what the timer runs); resolves when the checks it started are written. */
  async runDue(): Promise<void> {
    await this.worker.wake();
    await this.worker.idle();
  }

  protected override async housekeep(): Promise<void> {
    const abandoned = (await this.options.queue.dropAbandoned?.(this.worker.now())) ?? 0;
    if (abandoned > 0) this.options.log?.warn({ uploads: abandoned }, 'bulk monitor uploads whose writing never finished deleted');
  }

  protected async claim(): Promise<void> {
    const { queue, env, window, payerIntervalMs, concurrency } = this.options;
    const now = this.worker.now();
    if (window && !inWindow(window, now)) return;
    for (const payer of await queue.duePayers(env, now)) {
      const free = concurrency - this.worker.active;
      if (free <= 0 || this.worker.closed) return;
      if (!(await queue.takePacing(payer, payerIntervalMs, now))) continue;
      const { claim, until } = this.worker.lease(now);
      const due = await queue.claimDue(env, payer, payerIntervalMs > 0 ? 1 : free, claim, until, now);
      this.worker.run(claim, due, (monitor) =>
        this.check(monitor).catch((err) =>
          this.options.log?.error({ err_type: errType(err), monitor_id: monitor.id }, 'monitor check not recorded; it is made again when its lease ends'),
        ),
      );
    }
  }

  private async check(monitor: DueMonitor): Promise<void> {
    await ownTurn();
    const at = this.worker.now();
    const outcome = await recordedCheck(this.options.deps, this.options.queue, monitor, at, {
      claim: monitor.claim,
      nextCheckAt: nextCheckAfter(monitor.schedule, at),
    });
    if (!outcome) return;
    this.options.onChecked?.(monitor, outcome);
    if (outcome.events.length > 0) this.options.onEvents?.();
  }
}
