/**
 * Batches and their rows in the store: creating, reading, cancelling and purging them. The
 * runner's claims on rows are in batch-claims.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import { CANCELLED_OUTCOME, PENDING_OUTCOME, type BatchCheck, type ClaimedRow, type RowState } from '../domain/batch.ts';
import type { Mode } from '../domain/mode.ts';
import type { OperationName } from '../domain/schemas/requests.ts';
import { BatchClaims, rowContext, UNREADABLE_ROW } from './batch-claims.ts';
import type { BatchRowTable, BatchTable } from './schema.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export type Batch = BatchTable;

export interface NewBatch {
  keyId: string;
  /** The key's owner (keys.ts ownerOf): every key of the owner reaches the batch. */
  ownerId: string;
  /** The key's environment: only an instance of this mode runs the rows. */
  env: Mode;
  /** The person signed in to the console, if one queued it. */
  userId?: string | null;
  source: 'json' | 'csv';
  /** The uploaded file's name, cleaned (spreadsheet-cells.ts uploadName). */
  name?: string | null;
  checks: readonly BatchCheck[];
  /** The payer each check goes to, in the order of checks. */
  payerKeys: readonly string[];
}

/** A new batch whose rows are taken one at a time (BatchStore.createFrom): `total` of them. */
export interface NewBatchRows extends Omit<NewBatch, 'checks' | 'payerKeys'> {
  total: number;
  /** Each check, with the payer it goes to. */
  rows: Iterable<{ check: BatchCheck; payerKey: string }>;
}

export type { ClaimedRow };

export interface StateCount {
  state: RowState;
  status: number | null;
  error_code: string | null;
  count: number;
}

export interface StoredRow {
  row_no: number;
  endpoint: OperationName;
  state: RowState;
  status: number | null;
  error_code: string | null;
  /** The response body as stored JSON text, null until done. */
  result: string | null;
  request: Record<string, unknown>;
}

export interface RowSelection {
  /** `OK`, an error code, or PENDING (not done yet). */
  outcome?: string | undefined;
  offset?: number;
  limit?: number;
}

/** Rows written in one transaction (and one INSERT: within SQLite's limit on bound values). */
const INSERT_CHUNK = 250;
/** How long a large batch's creation may take before a batch still staged counts as abandoned. */
export const STAGING_MS = 60 * 60_000;
const PAGE = 500;

const nameContext = (batchId: string) => `batches:${batchId}:name`;

export const newBatchId = () => `bat_${randomBytes(12).toString('hex')}`;

export class BatchStore extends BatchClaims {
  /**
   * Writes the batch and its rows, all or nothing as others see it. Up to INSERT_CHUNK rows go in one
   * transaction with the batch's record. A larger batch is written in transactions of INSERT_CHUNK
   * rows, so other queries run between them (one SQLite connection) and no commit is large: its
   * record goes first, staged (`staged_until` set: not visible through get, its rows never claimed),
   * and is made visible by one UPDATE after the last row is in. A failure on the way deletes what was
   * written; a crash leaves a staged batch, which dropAbandoned deletes once `staged_until` passes.
   * `pause` hands the event loop a turn between slices of rows sealed and between the transactions
   * (the server's: docs/batch.md, "Uploads and other requests").
   */
  async create(batch: NewBatch, now = dateOf(systemClock), pause?: () => Promise<void>): Promise<Batch> {
    const { checks, payerKeys, ...rest } = batch;
    const rows = checks.map((check, i) => ({ check, payerKey: payerKeys[i] ?? '' }));
    return this.createFrom({ ...rest, total: checks.length, rows }, now, pause);
  }

  /**
   * create, with the rows taken one at a time from an iterable (a CSV upload's, built again from its
   * text: formats/batch-input.ts csvUpload) and each slice of INSERT_CHUNK rows sealed, written and
   * let go before the next is taken, so a large batch's rows are never all held at once. `total`
   * must be the number of rows the iterable gives; a batch that does not get it is not created.
   */
  async createFrom(batch: NewBatchRows, now = dateOf(systemClock), pause?: () => Promise<void>): Promise<Batch> {
    const id = newBatchId();
    const staged = batch.total > INSERT_CHUNK;
    const record: Batch = {
      id,
      key_id: batch.keyId,
      owner_id: batch.ownerId,
      env: batch.env,
      source: batch.source,
      // A file name may name a patient ("walsh-avery.csv"): sealed like the rows' requests.
      name: batch.name ? this.sealed.write(batch.name, nameContext(id)) : null,
      total: batch.total,
      created_at: now.toISOString(),
      staged_until: staged ? new Date(now.getTime() + STAGING_MS).toISOString() : null,
    };
    const rows = batch.rows[Symbol.iterator]();
    let written = 0;
    /** The next INSERT_CHUNK rows as the table's, their requests sealed; fewer at the end. */
    const nextValues = (): Insertable<BatchRowTable>[] => {
      const values: Insertable<BatchRowTable>[] = [];
      while (values.length < INSERT_CHUNK) {
        const next = rows.next();
        if (next.done) break;
        const rowNo = ++written;
        if (rowNo > batch.total) break;
        values.push({
          batch_id: record.id,
          row_no: rowNo,
          key_id: record.key_id,
          owner_id: record.owner_id,
          env: record.env,
          user_id: batch.userId ?? null,
          endpoint: next.value.check.endpoint,
          payer_key: next.value.payerKey,
          request: this.sealed.write(JSON.stringify(next.value.check.request), rowContext(record.id, rowNo, 'request')),
          state: 'pending' as const,
          attempts: 0,
        });
      }
      return values;
    };
    const counted = () => {
      if (written !== batch.total || !rows.next().done) throw new Error(`batch ${id} was given other than its ${batch.total} rows`);
    };
    if (!staged) {
      const values = nextValues();
      counted();
      await this.db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('batches').values(record).execute();
        if (values.length > 0) await trx.insertInto('batch_rows').values(values).execute();
      });
      return { ...record, name: batch.name ?? null };
    }
    try {
      await this.db.kysely.insertInto('batches').values(record).execute();
      for (;;) {
        // A slice sealed in one turn, and written in the next: each turn holds the loop for one of them.
        if (pause) await pause();
        const values = nextValues();
        if (values.length === 0) break;
        if (pause) await pause();
        await this.insertRows(values);
      }
      counted();
      // Visible, and runnable, from here: unless dropAbandoned took it meanwhile (written past staged_until).
      const res = await this.db.kysely
        .updateTable('batches')
        .set({ staged_until: null })
        .where('id', '=', id)
        .where('staged_until', 'is not', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new Error(`batch ${id} was abandoned before its last row was written`);
    } catch (err) {
      await this.discard(id).catch(() => {});
      throw err;
    }
    return { ...record, staged_until: null, name: batch.name ?? null };
  }

  /** One transaction of rows (a seam for tests, which fail it part way through). */
  protected async insertRows(rows: Insertable<BatchRowTable>[]): Promise<void> {
    await this.db.kysely.insertInto('batch_rows').values(rows).execute();
  }

  /** Deletes a batch being created, its rows first. */
  private async discard(id: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('batch_rows').where('batch_id', '=', id).execute();
      await trx.deleteFrom('batches').where('id', '=', id).where('staged_until', 'is not', null).execute();
    });
  }

  /** Deletes the batches whose creation never finished (the process stopped part way) once their staging time has passed. */
  async dropAbandoned(now = dateOf(systemClock)): Promise<number> {
    const abandoned = await this.db.kysely.selectFrom('batches').select('id').where('staged_until', '<', now.toISOString()).execute();
    for (const { id } of abandoned) await this.discard(id);
    return abandoned.length;
  }

  /** The batch, if it exists and belongs to the owner; its name unsealed (null when sealed under another data key). */
  async get(id: string, ownerId: string): Promise<Batch | undefined> {
    const row = await this.db.kysely
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('staged_until', 'is', null)
      .executeTakeFirst();
    return row && { ...row, name: row.name ? this.sealed.read(row.name, nameContext(row.id)) : null };
  }

  /** Rows waiting or running across the owner's batches (those being created included): what its queue budget counts. */
  async unfinishedRows(ownerId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('batch_rows')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('state', 'in', ['pending', 'running'])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async counts(batchId: string): Promise<StateCount[]> {
    const rows = await this.db.kysely
      .selectFrom('batch_rows')
      .select((eb) => ['state', 'status', 'error_code', eb.fn.countAll<number | string | bigint>().as('count')])
      .where('batch_id', '=', batchId)
      .groupBy(['state', 'status', 'error_code'])
      .execute();
    return rows.map((r) => ({ state: r.state, status: r.status === null ? null : Number(r.status), error_code: r.error_code, count: Number(r.count) }));
  }

  async lastFinishedAt(batchId: string): Promise<string | null> {
    const row = await this.db.kysely
      .selectFrom('batch_rows')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return row?.at ?? null;
  }

  /** The selected rows in row order, read a page at a time so a 10,000-row answer never sits in memory whole. */
  async *rows(batchId: string, selection: RowSelection = {}): AsyncGenerator<StoredRow> {
    let remaining = selection.limit ?? Number.MAX_SAFE_INTEGER;
    let after = 0;
    let skip = selection.offset ?? 0;
    while (remaining > 0) {
      let query = this.db.kysely
        .selectFrom('batch_rows')
        .select(['row_no', 'endpoint', 'state', 'status', 'error_code', 'result', 'request'])
        .where('batch_id', '=', batchId)
        .where('row_no', '>', after);
      const outcome = selection.outcome;
      if (outcome === PENDING_OUTCOME) query = query.where('state', 'in', ['pending', 'running']);
      else if (outcome === CANCELLED_OUTCOME) query = query.where('state', '=', 'cancelled');
      else if (outcome === 'OK') query = query.where('state', '=', 'done').where('error_code', 'is', null);
      else if (outcome !== undefined) query = query.where('error_code', '=', outcome);
      const page = await query.orderBy('row_no').limit(Math.min(PAGE, remaining)).offset(skip).execute();
      skip = 0;
      for (const r of page) {
        const rowNo = Number(r.row_no);
        const request = this.sealed.read(r.request, rowContext(batchId, rowNo, 'request'));
        const result = r.result === null ? null : this.sealed.read(r.result, rowContext(batchId, rowNo, 'result'));
        yield {
          row_no: rowNo,
          endpoint: r.endpoint as OperationName,
          state: r.state,
          status: r.status === null ? null : Number(r.status),
          error_code: r.error_code,
          // Sealed under another COVERAGE_DATA_KEY: said so, instead of failing the whole listing.
          result: r.result === null ? null : (result ?? JSON.stringify({ error_code: UNREADABLE_ROW.error_code, message: UNREADABLE_ROW.message })),
          request: request === null ? {} : (JSON.parse(request) as Record<string, unknown>),
        };
      }
      remaining -= page.length;
      if (page.length < PAGE) return;
      after = Number(page[page.length - 1]!.row_no);
    }
  }

  /** Cancels the rows of the batch that have not started; rows running finish. Returns how many were cancelled. */
  async cancel(batchId: string, now = dateOf(systemClock)): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'cancelled', finished_at: now.toISOString() })
      .where('batch_id', '=', batchId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Deletes batches created before the instant, rows and results with them. */
  async purgeCreatedBefore(instant: Date): Promise<number> {
    const cutoff = instant.toISOString();
    return this.db.kysely.transaction().execute(async (trx) => {
      const old = trx.selectFrom('batches').select('id').where('created_at', '<', cutoff);
      await trx.deleteFrom('batch_rows').where('batch_id', 'in', old).execute();
      const res = await trx.deleteFrom('batches').where('created_at', '<', cutoff).executeTakeFirst();
      return Number(res.numDeletedRows);
    });
  }
}
