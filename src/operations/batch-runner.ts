/**
 * Runs batch rows in the background: claims waiting rows from the store a payer at a time, checks
 * each with the real-time operation, and writes its result under the claim. Bounded per instance
 * (all rows) and per payer, below a payer connection's own limit, so live checks keep their share.
 * Leases are renewed while rows run; rows of a worker that died come back when their lease ends.
 */
import { ownTurn } from './own-turn.ts';
import type { ClaimedRow, RowAudit, RowResult } from '../domain/batch.ts';
import type { Mode } from '../domain/mode.ts';
import { runCheck, type CheckOutcome } from './batch-check.ts';
import type { OperationDeps } from './context.ts';
import { errType, LeasedWorker, type LeaseQueue, type WorkerLog } from './lease-worker.ts';

export type QueuedRow = ClaimedRow;

/** What the runner needs of the store (store/batches.ts). */
export interface BatchQueue extends LeaseQueue {
  pendingPayers(env: Mode): Promise<string[]>;
  claim(env: Mode, payerKey: string, limit: number, claim: string, leaseUntil: Date): Promise<QueuedRow[]>;
  /** Writes the result and, atomically with it, the audit record. */
  complete(row: QueuedRow, result: RowResult, audit: RowAudit | null): Promise<boolean>;
  /** Cancels the waiting rows of owners with no live key. */
  cancelOrphaned(): Promise<number>;
  release(claims: readonly string[]): Promise<number>;
  reclaimExpired(): Promise<number>;
  /** Deletes batches whose creation never finished (their process stopped part way). */
  dropAbandoned(): Promise<number>;
  purgeCreatedBefore(instant: Date): Promise<number>;
}

export type RunnerLog = WorkerLog;

export interface BatchRunnerOptions {
  deps: OperationDeps;
  queue: BatchQueue;
  /** The rows this instance runs: its own mode's only (a sandbox instance never answers a production row). */
  env: Mode;
  /** The audit record of a finished row, written in the same transaction as its result; null writes none. */
  auditOf?: (row: QueuedRow, outcome: CheckOutcome, latencyMs: number) => RowAudit | null;
  /** Rows checked at once by this instance. */
  concurrency: number;
  /** Rows of one payer checked at once by this instance. */
  perPayer: number;
  /** How long a claim holds without renewal; a dead worker's rows wait this long. */
  leaseMs: number;
  /** How often to look for rows other instances queued, and for expired leases. */
  pollMs: number;
  /** Batches older than this are deleted with their results; 0 keeps them. */
  retentionMs: number;
  /** On close, how long rows in progress may take to finish before they are put back. */
  graceMs: number;
  /** Told about each row whose result was written (once per row). */
  onRowDone?: (row: QueuedRow, outcome: CheckOutcome, latencyMs: number) => void;
  log?: RunnerLog;
}

const PURGE_EVERY_MS = 10 * 60_000;
const WRITE_ATTEMPTS = 3;

export class BatchRunner extends LeasedWorker {
  private readonly byPayer = new Map<string, number>();
  private lastPurge = 0;
  private rotation = 0;
  /** Payers with waiting rows as last read; re-read on each poll and wake, not on every claim. */
  private payers: string[] = [];
  private payersStale = true;

  constructor(private readonly options: BatchRunnerOptions) {
    super({
      prefix: 'w',
      what: 'batch rows',
      queue: options.queue,
      clock: options.deps.clock,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      graceMs: options.graceMs,
      log: options.log,
    });
  }

  /** New rows were queued: look now rather than at the next poll. */
  wake(): void {
    this.payersStale = true;
    void this.worker.wake();
  }

  get inProgress(): number {
    return this.worker.active;
  }

  protected override async housekeep(): Promise<void> {
    const { queue, retentionMs, log } = this.options;
    this.payersStale = true;
    const reclaimed = await queue.reclaimExpired();
    if (reclaimed > 0) log?.warn({ rows: reclaimed }, 'batch rows of a stopped worker taken back');
    const abandoned = await queue.dropAbandoned();
    if (abandoned > 0) log?.warn({ batches: abandoned }, 'batches whose creation never finished deleted');
    const cancelled = await queue.cancelOrphaned();
    if (cancelled > 0) log?.warn({ rows: cancelled }, 'batch rows cancelled: their key was revoked');
    const now = this.worker.now().getTime();
    if (retentionMs > 0 && now - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = now;
      await queue.purgeCreatedBefore(new Date(now - retentionMs));
    }
  }

  protected async claim(): Promise<void> {
    const { queue, concurrency, perPayer } = this.options;
    if (this.worker.active >= concurrency) return;
    if (this.payersStale) {
      this.payersStale = false;
      this.payers = await queue.pendingPayers(this.options.env);
    }
    const payers = [...this.payers];
    // Start at a different payer each time, so a busy one does not always come first.
    const start = payers.length > 0 ? this.rotation++ % payers.length : 0;
    for (let i = 0; i < payers.length && !this.worker.closed; i++) {
      const payer = payers[(start + i) % payers.length]!;
      const free = Math.min(perPayer - (this.byPayer.get(payer) ?? 0), concurrency - this.worker.active);
      if (free <= 0) continue;
      const { claim, until } = this.worker.lease();
      const rows = await queue.claim(this.options.env, payer, free, claim, until);
      // Fewer rows than asked: the payer has none left waiting (or other instances took them).
      if (rows.length < free) this.payers = this.payers.filter((p) => p !== payer);
      for (const row of rows) this.byPayer.set(row.payer_key, (this.byPayer.get(row.payer_key) ?? 0) + 1);
      this.worker.run(
        claim,
        rows,
        (row) => this.run(row),
        (row) => {
          const left = (this.byPayer.get(row.payer_key) ?? 1) - 1;
          if (left > 0) this.byPayer.set(row.payer_key, left);
          else this.byPayer.delete(row.payer_key);
          void this.worker.wake();
        },
      );
    }
  }

  private async run(row: QueuedRow): Promise<void> {
    // The sandbox network and SQLite answer without real I/O: without this turn of the event loop a
    // batch would run as one chain of microtasks and starve the HTTP requests (real-time checks too).
    // A turn of its own: rows started at once would otherwise all run in one turn.
    await ownTurn();
    const requestId = `${row.batch_id}.${row.row_no}`;
    const started = performance.now();
    let outcome: CheckOutcome;
    try {
      outcome = await runCheck(this.options.deps, row.endpoint, row.request, { request_id: requestId, owner: { key_id: row.key_id, surface: 'batch' } });
    } catch (err) {
      this.options.log?.error({ err_type: errType(err), request_id: requestId }, 'batch row failed');
      outcome = {
        result: { status: 500, error_code: 'INTERNAL_ERROR', body: { error_code: 'INTERNAL_ERROR', message: 'Internal error', request_id: requestId } },
        payerId: null,
      };
    }
    const latency = performance.now() - started;
    const audit = this.options.auditOf?.(row, outcome, latency) ?? null;
    if (await this.write(row, outcome.result, audit)) this.options.onRowDone?.(row, outcome, latency);
  }

  /** False when the row was taken back meanwhile (another claim owns its result) or the store kept failing. */
  private async write(row: QueuedRow, result: RowResult, audit: RowAudit | null): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.options.queue.complete(row, result, audit);
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || this.worker.closed) {
          this.options.log?.error(
            { err_type: errType(err), request_id: `${row.batch_id}.${row.row_no}` },
            'batch result not written; the row will be checked again',
          );
          return false;
        }
        await this.worker.clock.sleep(250 * attempt);
      }
    }
  }
}
