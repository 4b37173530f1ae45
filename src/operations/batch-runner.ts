/**
 * Runs batch rows in the background: claims waiting rows from the store a payer at a time, checks
 * each with the real-time operation, and writes its result under the claim. Bounded per instance
 * (all rows) and per payer, below a payer connection's own limit, so live checks keep their share.
 * Leases are renewed while rows run; rows of a worker that died come back when their lease ends.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BatchMode, ClaimedRow, RowAudit, RowResult } from '../domain/batch.ts';
import { runCheck, type CheckOutcome } from './batch-check.ts';
import type { OperationDeps } from './context.ts';

export type QueuedRow = ClaimedRow;

/** What the runner needs of the store (store/batches.ts). */
export interface BatchQueue {
  pendingPayers(env: BatchMode): Promise<string[]>;
  claim(env: BatchMode, payerKey: string, limit: number, claim: string, leaseUntil: Date): Promise<QueuedRow[]>;
  /** Writes the result and, atomically with it, the audit record. */
  complete(row: QueuedRow, result: RowResult, audit: RowAudit | null): Promise<boolean>;
  /** Cancels the waiting rows of owners with no live key. */
  cancelOrphaned(): Promise<number>;
  renew(claims: readonly string[], leaseUntil: Date): Promise<void>;
  release(claims: readonly string[]): Promise<number>;
  reclaimExpired(): Promise<number>;
  purgeCreatedBefore(instant: Date): Promise<number>;
}

export interface RunnerLog {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface BatchRunnerOptions {
  deps: OperationDeps;
  queue: BatchQueue;
  /** The rows this instance runs: its own mode's only (a sandbox instance never answers a production row). */
  env: BatchMode;
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
const errType = (err: unknown) => (err instanceof Error ? err.name : typeof err);

export class BatchRunner {
  readonly workerId = `w_${randomBytes(6).toString('hex')}`;
  private seq = 0;
  private active = 0;
  private readonly byPayer = new Map<string, number>();
  /** Claims with rows still in progress here, and how many. */
  private readonly claims = new Map<string, number>();
  private readonly tasks = new Set<Promise<void>>();
  private filling: Promise<void> | null = null;
  private refill = false;
  private ticking: Promise<void> | null = null;
  private lastPurge = 0;
  private rotation = 0;
  /** Payers with waiting rows as last read; re-read on each poll and wake, not on every claim. */
  private payers: string[] = [];
  private payersStale = true;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: BatchRunnerOptions) {}

  start(): void {
    this.timers.push(setInterval(() => void this.tick(), this.options.pollMs).unref());
    this.timers.push(setInterval(() => void this.renew(), Math.max(50, Math.floor(this.options.leaseMs / 3))).unref());
    void this.tick();
  }

  /** New rows were queued: look now rather than at the next poll. */
  wake(): void {
    this.payersStale = true;
    void this.fill();
  }

  get inProgress(): number {
    return this.active;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.filling;
    await this.ticking;
    await Promise.race([Promise.allSettled([...this.tasks]), sleep(this.options.graceMs)]);
    if (this.claims.size === 0) return;
    try {
      await this.options.queue.release([...this.claims.keys()]);
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, 'batch rows could not be released; they return when their lease ends');
    }
  }

  private tick(): Promise<void> {
    if (this.closed || this.ticking) return this.ticking ?? Promise.resolve();
    this.ticking = (async () => {
      try {
        const reclaimed = await this.options.queue.reclaimExpired();
        if (reclaimed > 0) this.options.log?.warn({ rows: reclaimed }, 'batch rows of a stopped worker taken back');
        const cancelled = await this.options.queue.cancelOrphaned();
        if (cancelled > 0) this.options.log?.warn({ rows: cancelled }, 'batch rows cancelled: their key was revoked');
        if (this.options.retentionMs > 0 && Date.now() - this.lastPurge > PURGE_EVERY_MS) {
          this.lastPurge = Date.now();
          await this.options.queue.purgeCreatedBefore(new Date(Date.now() - this.options.retentionMs));
        }
      } catch (err) {
        this.options.log?.error({ err_type: errType(err) }, 'batch poll failed');
      } finally {
        this.ticking = null;
      }
      this.payersStale = true;
      await this.fill();
    })();
    return this.ticking;
  }

  private async renew(): Promise<void> {
    if (this.claims.size === 0) return;
    try {
      await this.options.queue.renew([...this.claims.keys()], new Date(Date.now() + this.options.leaseMs));
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, 'batch lease renewal failed');
    }
  }

  private fill(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.filling) {
      this.refill = true;
      return this.filling;
    }
    this.filling = this.claimRows().finally(() => {
      this.filling = null;
    });
    return this.filling;
  }

  private async claimRows(): Promise<void> {
    const { queue, concurrency, perPayer, leaseMs } = this.options;
    try {
      do {
        this.refill = false;
        if (this.active >= concurrency) return;
        if (this.payersStale) {
          this.payersStale = false;
          this.payers = await queue.pendingPayers(this.options.env);
        }
        const payers = [...this.payers];
        // Start at a different payer each time, so a busy one does not always come first.
        const start = payers.length > 0 ? this.rotation++ % payers.length : 0;
        for (let i = 0; i < payers.length && !this.closed; i++) {
          const payer = payers[(start + i) % payers.length]!;
          const free = Math.min(perPayer - (this.byPayer.get(payer) ?? 0), concurrency - this.active);
          if (free <= 0) continue;
          const claim = `${this.workerId}.${++this.seq}`;
          const rows = await queue.claim(this.options.env, payer, free, claim, new Date(Date.now() + leaseMs));
          // Fewer rows than asked: the payer has none left waiting (or other instances took them).
          if (rows.length < free) this.payers = this.payers.filter((p) => p !== payer);
          if (rows.length > 0) this.claims.set(claim, rows.length);
          for (const row of rows) this.begin(row);
        }
      } while (this.refill && !this.closed);
    } catch (err) {
      this.options.log?.error({ err_type: errType(err) }, 'batch rows could not be claimed');
    }
  }

  private begin(row: QueuedRow): void {
    this.active++;
    this.byPayer.set(row.payer_key, (this.byPayer.get(row.payer_key) ?? 0) + 1);
    const task: Promise<void> = this.run(row).finally(() => {
      this.active--;
      const left = (this.byPayer.get(row.payer_key) ?? 1) - 1;
      if (left > 0) this.byPayer.set(row.payer_key, left);
      else this.byPayer.delete(row.payer_key);
      const rows = (this.claims.get(row.claim) ?? 1) - 1;
      if (rows > 0) this.claims.set(row.claim, rows);
      else this.claims.delete(row.claim);
      this.tasks.delete(task);
      void this.fill();
    });
    this.tasks.add(task);
  }

  private async run(row: QueuedRow): Promise<void> {
    // The sandbox network and SQLite answer without real I/O: without this turn of the event loop a
    // batch would run as one chain of microtasks and starve the HTTP requests (real-time checks too).
    await nextTurn();
    const requestId = `${row.batch_id}.${row.row_no}`;
    const started = performance.now();
    let outcome: CheckOutcome;
    try {
      outcome = await runCheck(this.options.deps, row.endpoint, row.request, { request_id: requestId });
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
        if (attempt >= WRITE_ATTEMPTS || this.closed) {
          this.options.log?.error(
            { err_type: errType(err), request_id: `${row.batch_id}.${row.row_no}` },
            'batch result not written; the row will be checked again',
          );
          return false;
        }
        await sleep(250 * attempt);
      }
    }
  }
}
