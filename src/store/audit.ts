/**
 * The audit writer. A check's record is written before its answer is sent (`write`): records that
 * arrive in the same turn of the event loop share one INSERT and one commit, up to COMMIT_GROUP of
 * them, so many checks cost one transaction (docs/security.md, audit controls). Other records
 * (`record`: sign-ins) are queued and written in batches off the request path. close() writes
 * everything still queued.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.ts';
import type { Insertable } from 'kysely';
import type { AuditEventTable } from './schema.ts';

/** user_id may be left out: checks made with a machine key have no person. */
export type AuditEvent = Insertable<AuditEventTable>;

export interface AuditWriterOptions {
  /** Rows per INSERT; a full batch is written at once instead of waiting for the timer. */
  batchSize?: number;
  flushIntervalMs?: number;
  /** While the store is unreachable records wait in memory up to this many; beyond it the oldest are dropped. */
  maxQueued?: number;
  /** Told about failed writes and dropped records; the queue is retried at the next flush. */
  onError?: (err: unknown, info: { queued: number; dropped: number }) => void;
}

/** A queued record, and who waits for it to be written (told true once it is, false when a write failed). */
interface Queued {
  event: AuditEvent;
  done: ((written: boolean) => void) | null;
}

export class AuditWriter {
  private queue: Queued[] = [];
  private scheduled = false;
  /** write()s since the last commit group started: counted rather than read off the queue, which a failing store fills. */
  private turnWrites = 0;
  private draining: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxQueued: number;
  private readonly onError: NonNullable<AuditWriterOptions['onError']>;
  private dropped = 0;
  /** SQLite: one prepared INSERT per set of columns a record carries, run for each row in one transaction. */
  private readonly statements = new Map<string, Statement>();
  private insertBatch: { sqlite: NonNullable<Db['sqlite']>; run: (rows: AuditEvent[]) => void } | null = null;

  constructor(
    private readonly db: Db,
    options: AuditWriterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.maxQueued = options.maxQueued ?? 50_000;
    this.onError = options.onError ?? (() => {});
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 500);
    this.timer.unref();
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Queues a record, written within the flush interval. */
  record(event: AuditEvent): void {
    this.push({ event, done: null });
    if (this.queue.length >= this.batchSize) void this.flush();
  }

  /**
   * Writes a record at once, with whatever else arrives in this turn of the event loop (up to
   * COMMIT_GROUP records): true once it is committed; false when the write failed (it stays queued
   * and is retried with the rest).
   */
  write(event: AuditEvent): Promise<boolean> {
    return new Promise((resolve) => {
      this.push({ event, done: resolve });
      // A full commit group is written at once. Under load one turn can hold hundreds of checks, each
      // keeping its request's objects alive until the commit: enough to be promoted to the old
      // generation and double the service's peak memory (bench/RESULTS.md, figure 5).
      if (++this.turnWrites >= COMMIT_GROUP && !this.draining) {
        this.turnWrites = 0;
        void this.flush();
      } else this.soon();
    });
  }

  /** Writes what is queued; resolves when the queue is empty or a write failed (the rest stays queued). */
  flush(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      // Records that arrived as this drain was ending (a failed write has told its waiters already).
      if (this.queue.some((q) => q.done)) this.soon();
    });
    return this.draining;
  }

  private push(queued: Queued): void {
    this.queue.push(queued);
    if (this.queue.length > this.maxQueued) {
      const excess = this.queue.length - this.maxQueued;
      for (const gone of this.queue.splice(0, excess)) gone.done?.(false);
      this.dropped += excess;
      this.onError(new Error('audit queue full'), { queued: this.queue.length, dropped: this.dropped });
    }
  }

  /** One flush after the current turn of the event loop: every record written in it shares the commit. */
  private soon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.turnWrites = 0;
      void this.flush();
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    // One more pass: a record queued as the last drain was finishing, or a batch that just failed once.
    if (this.queue.length > 0) await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      const events = batch.map((q) => q.event);
      try {
        // A transaction open across turns (a batch's rows, inserted in slices) would take these rows into
        // itself: through Kysely they wait for it to end instead.
        if (this.db.sqlite && !this.db.sqlite.inTransaction) this.insertSqlite(this.db.sqlite, events);
        else {
          await this.db.kysely
            .insertInto('audit_events')
            .values(events)
            // A retried batch whose first attempt did commit must not fail on its own rows.
            .onConflict((oc) => oc.column('request_id').doNothing())
            .execute();
        }
      } catch (err) {
        for (const q of batch) {
          q.done?.(false);
          q.done = null;
        }
        this.queue.unshift(...batch);
        this.onError(err, { queued: this.queue.length, dropped: this.dropped });
        return;
      }
      for (const q of batch) q.done?.(true);
    }
  }

  /**
   * The same rows and conflict rule as the Kysely INSERT, without building a 200-row query each time:
   * prepared INSERTs of ROWS_PER_STATEMENT rows (and of one row for the rest), per set of columns
   * the records carry (their own keys, as Kysely takes them), all in one transaction.
   */
  private insertSqlite(sqlite: NonNullable<Db['sqlite']>, batch: AuditEvent[]): void {
    // One transaction function per connection: better-sqlite3 builds four wrappers for each one made.
    if (this.insertBatch?.sqlite !== sqlite) this.insertBatch = { sqlite, run: sqlite.transaction((rows: AuditEvent[]) => this.insertRows(sqlite, rows)) };
    this.insertBatch.run(batch);
  }

  private insertRows(sqlite: NonNullable<Db['sqlite']>, batch: AuditEvent[]): void {
    const columnSets = batch.map(columnsOf);
    let i = 0;
    while (i < batch.length) {
      const columns = columnSets[i]!;
      const signature = columns.join(',');
      let end = i + 1;
      while (end < batch.length && end - i < ROWS_PER_STATEMENT && sameColumns(columnSets[end]!, columns)) end++;
      const valuesOf = (from: number, to: number) => {
        const values: unknown[] = [];
        for (let r = from; r < to; r++) for (const c of columns) values.push((batch[r] as Record<string, unknown>)[c]);
        return values;
      };
      if (end - i === ROWS_PER_STATEMENT) this.statement(sqlite, columns, signature, ROWS_PER_STATEMENT).run(...valuesOf(i, end));
      else for (let r = i; r < end; r++) this.statement(sqlite, columns, signature, 1).run(...valuesOf(r, r + 1));
      i = end;
    }
  }

  private statement(sqlite: NonNullable<Db['sqlite']>, columns: string[], signature: string, rows: number): Statement {
    const id = `${rows}:${signature}`;
    let statement = this.statements.get(id);
    if (!statement) {
      const names = columns.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ');
      const row = `(${columns.map(() => '?').join(', ')})`;
      statement = sqlite.prepare(`insert into "audit_events" (${names}) values ${Array(rows).fill(row).join(', ')} on conflict ("request_id") do nothing`);
      this.statements.set(id, statement);
    }
    return statement;
  }
}

const ROWS_PER_STATEMENT = 50;

/** Records of one turn that share a commit at most: one full prepared INSERT on SQLite. */
export const COMMIT_GROUP = ROWS_PER_STATEMENT;

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/** The columns a record sets: Kysely leaves undefined values out. */
function columnsOf(event: AuditEvent): string[] {
  const row = event as Record<string, unknown>;
  return Object.keys(row).filter((c) => row[c] !== undefined);
}
