/**
 * Batches and their rows in the store. Rows are claimed in groups under a claim token with a
 * lease: on PostgreSQL with FOR UPDATE SKIP LOCKED, so instances sharing the database never take
 * the same row; on SQLite with one UPDATE ... RETURNING, atomic in the single process that owns the
 * file. A row's result is written only under the claim it is held by, so it is written once.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { CANCELLED_OUTCOME, PENDING_OUTCOME, type BatchCheck, type BatchMode, type ClaimedRow, type RowAudit, type RowResult, type RowState } from '../domain/batch.ts';
import type { OperationName } from '../domain/schemas/requests.ts';
import type { Db } from './db.ts';
import type { BatchTable } from './schema.ts';

export type Batch = BatchTable;

export interface NewBatch {
  keyId: string;
  /** The key's owner (keys.ts ownerOf): every key of the owner reaches the batch. */
  ownerId: string;
  /** The key's environment: only an instance of this mode runs the rows. */
  env: BatchMode;
  /** The person signed in to the console, if one queued it. */
  userId?: string | null;
  source: 'json' | 'csv';
  checks: readonly BatchCheck[];
  /** The payer each check goes to, in the order of checks. */
  payerKeys: readonly string[];
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

const INSERT_CHUNK = 500;
const PAGE = 500;

export const newBatchId = () => `bat_${randomBytes(12).toString('hex')}`;

export class BatchStore {
  constructor(private readonly db: Db) {}

  async create(batch: NewBatch, now = new Date()): Promise<Batch> {
    const record: Batch = {
      id: newBatchId(),
      key_id: batch.keyId,
      owner_id: batch.ownerId,
      env: batch.env,
      source: batch.source,
      total: batch.checks.length,
      created_at: now.toISOString(),
    };
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('batches').values(record).execute();
      for (let start = 0; start < batch.checks.length; start += INSERT_CHUNK) {
        const values = batch.checks.slice(start, start + INSERT_CHUNK).map((check, i) => ({
          batch_id: record.id,
          row_no: start + i + 1,
          key_id: record.key_id,
          owner_id: record.owner_id,
          env: record.env,
          user_id: batch.userId ?? null,
          endpoint: check.endpoint,
          payer_key: batch.payerKeys[start + i] ?? '',
          request: JSON.stringify(check.request),
          state: 'pending' as const,
          attempts: 0,
        }));
        await trx.insertInto('batch_rows').values(values).execute();
      }
    });
    return record;
  }

  /** The batch, if it exists and belongs to the owner. */
  async get(id: string, ownerId: string): Promise<Batch | undefined> {
    return this.db.kysely.selectFrom('batches').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  /** Rows waiting or running across the owner's batches: what its queue budget counts. */
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
        yield {
          row_no: Number(r.row_no),
          endpoint: r.endpoint as OperationName,
          state: r.state,
          status: r.status === null ? null : Number(r.status),
          error_code: r.error_code,
          result: r.result,
          request: JSON.parse(r.request) as Record<string, unknown>,
        };
      }
      remaining -= page.length;
      if (page.length < PAGE) return;
      after = Number(page[page.length - 1]!.row_no);
    }
  }

  /** Payers with rows of this environment waiting. */
  async pendingPayers(env: BatchMode): Promise<string[]> {
    const rows = await this.db.kysely.selectFrom('batch_rows').select('payer_key').distinct().where('state', '=', 'pending').where('env', '=', env).execute();
    return rows.map((r) => r.payer_key);
  }

  /**
   * Takes up to `limit` waiting rows of one payer and environment under the claim token, lowest row
   * numbers first across batches. A sandbox instance never takes a production row, nor the reverse.
   */
  async claim(env: BatchMode, payerKey: string, limit: number, claim: string, leaseUntil: Date): Promise<ClaimedRow[]> {
    const lease = leaseUntil.toISOString();
    type Claimed = { batch_id: string; row_no: number | string; key_id: string; user_id: string | null; endpoint: string; payer_key: string; request: string };
    const { rows } =
      this.db.dialect === 'postgres'
        ? await sql<Claimed>`
            with picked as (
              select batch_id, row_no from batch_rows
              where state = 'pending' and payer_key = ${payerKey} and env = ${env}
              order by row_no, batch_id limit ${limit}
              for update skip locked)
            update batch_rows r set state = 'running', claimed_by = ${claim}, lease_until = ${lease}, attempts = r.attempts + 1
            from picked p where r.batch_id = p.batch_id and r.row_no = p.row_no
            returning r.batch_id, r.row_no, r.key_id, r.user_id, r.endpoint, r.payer_key, r.request`.execute(this.db.kysely)
        : await sql<Claimed>`
            update batch_rows set state = 'running', claimed_by = ${claim}, lease_until = ${lease}, attempts = attempts + 1
            where (batch_id, row_no) in (
              select batch_id, row_no from batch_rows
              where state = 'pending' and payer_key = ${payerKey} and env = ${env}
              order by row_no, batch_id limit ${limit})
            returning batch_id, row_no, key_id, user_id, endpoint, payer_key, request`.execute(this.db.kysely);
    return rows
      .map((r) => ({
        batch_id: r.batch_id,
        row_no: Number(r.row_no),
        key_id: r.key_id,
        user_id: r.user_id,
        endpoint: r.endpoint as OperationName,
        payer_key: r.payer_key,
        request: JSON.parse(r.request) as Record<string, unknown>,
        claim,
      }))
      .sort((a, b) => a.row_no - b.row_no || (a.batch_id < b.batch_id ? -1 : 1));
  }

  /**
   * Writes a row's result and, in the same transaction, its audit record: after any crash a finished
   * row has both or neither. False when the row is no longer held under this claim (it was taken
   * back), so nothing was written.
   */
  async complete(row: Pick<ClaimedRow, 'batch_id' | 'row_no' | 'claim' | 'key_id' | 'user_id'>, result: RowResult, audit: RowAudit | null, now = new Date()): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('batch_rows')
        .set({
          state: 'done',
          status: result.status,
          error_code: result.error_code,
          result: JSON.stringify(result.body),
          finished_at: now.toISOString(),
          claimed_by: null,
          lease_until: null,
        })
        .where('batch_id', '=', row.batch_id)
        .where('row_no', '=', row.row_no)
        .where('state', '=', 'running')
        .where('claimed_by', '=', row.claim)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      if (audit) {
        await trx
          .insertInto('audit_events')
          .values({ request_id: `${row.batch_id}.${row.row_no}`, key_id: row.key_id, user_id: row.user_id, ...audit })
          .onConflict((oc) => oc.column('request_id').doNothing())
          .execute();
      }
      return true;
    });
  }

  /** Cancels the rows of the batch that have not started; rows running finish. Returns how many were cancelled. */
  async cancel(batchId: string, now = new Date()): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'cancelled', finished_at: now.toISOString() })
      .where('batch_id', '=', batchId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * Cancels the waiting rows of owners with no live key (every key revoked) and no active console
   * user: a revoked key's batches stop, while a rotated key's go on under its successor.
   */
  async cancelOrphaned(now = new Date()): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'cancelled', finished_at: now.toISOString() })
      .where('state', '=', 'pending')
      .where('owner_id', 'in', (eb) =>
        eb
          .selectFrom('batches as b')
          .select('b.owner_id')
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('api_keys as k').select('k.id').whereRef('k.owner_id', '=', 'b.owner_id').where('k.revoked_at', 'is', null))),
          )
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'b.owner_id').where('u.disabled_at', 'is', null))),
          ),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Extends the lease of rows held under these claims (their worker is alive). */
  async renew(claims: readonly string[], leaseUntil: Date): Promise<void> {
    if (claims.length === 0) return;
    await this.db.kysely
      .updateTable('batch_rows')
      .set({ lease_until: leaseUntil.toISOString() })
      .where('state', '=', 'running')
      .where('claimed_by', 'in', [...claims])
      .execute();
  }

  /** Puts rows held under these claims back to pending (a worker stopping before it finished them). */
  async release(claims: readonly string[]): Promise<number> {
    if (claims.length === 0) return 0;
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'pending', claimed_by: null, lease_until: null })
      .where('state', '=', 'running')
      .where('claimed_by', 'in', [...claims])
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Puts running rows whose lease ran out back to pending: their worker died or lost the store. */
  async reclaimExpired(now = new Date()): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'pending', claimed_by: null, lease_until: null })
      .where('state', '=', 'running')
      .where('lease_until', '<', now.toISOString())
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
