/**
 * The runner's side of the batch store: rows claimed in groups under a claim token with a lease
 * (on PostgreSQL with FOR UPDATE SKIP LOCKED, so instances sharing the database never take the
 * same row; on SQLite with one UPDATE ... RETURNING, atomic in the single process that owns the
 * file), only of the runner's own mode. A row's result, with its audit record, is written only
 * under the claim that holds it, so it is written once.
 */
import { sql } from 'kysely';
import type { ClaimedRow, RowAudit, RowResult } from '../domain/batch.ts';
import type { Mode } from '../domain/mode.ts';
import type { OperationName } from '../domain/schemas/requests.ts';
import type { Db } from './db.ts';
import { SealedText } from './sealed-text.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

/** The answer of a row whose request was sealed under another COVERAGE_DATA_KEY: it cannot be checked. */
export const UNREADABLE_ROW = {
  status: 500,
  error_code: 'INTERNAL_ERROR',
  message: 'This row was stored under another COVERAGE_DATA_KEY and cannot be read; submit it again',
} as const;

/** What a sealed column is bound to: a value copied to another row or column does not open there. */
export const rowContext = (batchId: string, rowNo: number, column: 'request' | 'result') => `batch_rows:${batchId}:${rowNo}:${column}`;

/** A row whose batch is written whole: not one being created (store/batches.ts create, `staged_until`). */
const VISIBLE = sql`not exists (select 1 from batches b where b.id = batch_rows.batch_id and b.staged_until is not null)`;

export class BatchClaims {
  constructor(
    protected readonly db: Db,
    /** Seals each row's request and result with the data key (sealed-text.ts); plain JSON without one. */
    protected readonly sealed: SealedText = new SealedText(null),
  ) {}

  /** Payers with rows of this environment waiting. */
  async pendingPayers(env: Mode): Promise<string[]> {
    const rows = await this.db.kysely.selectFrom('batch_rows').select('payer_key').distinct().where('state', '=', 'pending').where('env', '=', env).execute();
    return rows.map((r) => r.payer_key);
  }

  /**
   * Takes up to `limit` waiting rows of one payer and environment under the claim token, lowest row
   * numbers first across batches. A sandbox instance never takes a production row, nor the reverse,
   * and no row of a batch still being created.
   */
  async claim(env: Mode, payerKey: string, limit: number, claim: string, leaseUntil: Date): Promise<ClaimedRow[]> {
    const lease = leaseUntil.toISOString();
    type Claimed = { batch_id: string; row_no: number | string; key_id: string; user_id: string | null; endpoint: string; payer_key: string; request: string };
    const { rows } =
      this.db.dialect === 'postgres'
        ? await sql<Claimed>`
            with picked as (
              select batch_id, row_no from batch_rows
              where state = 'pending' and payer_key = ${payerKey} and env = ${env} and ${VISIBLE}
              order by row_no, batch_id limit ${limit}
              for update skip locked)
            update batch_rows r set state = 'running', claimed_by = ${claim}, lease_until = ${lease}, attempts = r.attempts + 1
            from picked p where r.batch_id = p.batch_id and r.row_no = p.row_no
            returning r.batch_id, r.row_no, r.key_id, r.user_id, r.endpoint, r.payer_key, r.request`.execute(this.db.kysely)
        : await sql<Claimed>`
            update batch_rows set state = 'running', claimed_by = ${claim}, lease_until = ${lease}, attempts = attempts + 1
            where (batch_id, row_no) in (
              select batch_id, row_no from batch_rows
              where state = 'pending' and payer_key = ${payerKey} and env = ${env} and ${VISIBLE}
              order by row_no, batch_id limit ${limit})
            returning batch_id, row_no, key_id, user_id, endpoint, payer_key, request`.execute(this.db.kysely);
    const claimed: ClaimedRow[] = [];
    for (const r of rows) {
      const row = {
        batch_id: r.batch_id,
        row_no: Number(r.row_no),
        key_id: r.key_id,
        user_id: r.user_id,
        endpoint: r.endpoint as OperationName,
        payer_key: r.payer_key,
        request: {},
        claim,
      };
      const json = this.sealed.read(r.request, rowContext(row.batch_id, row.row_no, 'request'));
      if (json !== null) {
        claimed.push({ ...row, request: JSON.parse(json) as Record<string, unknown> });
        continue;
      }
      // Not runnable by anyone holding this key: finished here, with its audit record, instead of retried forever.
      const { status, error_code, message } = UNREADABLE_ROW;
      const at = dateOf(systemClock).toISOString();
      await this.complete(
        row,
        { status, error_code, body: { error_code, message, request_id: `${row.batch_id}.${row.row_no}` } },
        {
          at,
          endpoint: row.endpoint,
          payer_id: null,
          status,
          error_code,
          latency_ms: 0,
          member_hash: null,
        },
      );
    }
    return claimed.sort((a, b) => a.row_no - b.row_no || (a.batch_id < b.batch_id ? -1 : 1));
  }

  /**
   * Writes a row's result and, in the same transaction, its audit record: after any crash a finished
   * row has both or neither. False when the row is no longer held under this claim (it was taken
   * back), so nothing was written.
   */
  async complete(
    row: Pick<ClaimedRow, 'batch_id' | 'row_no' | 'claim' | 'key_id' | 'user_id'>,
    result: RowResult,
    audit: RowAudit | null,
    now = dateOf(systemClock),
  ): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('batch_rows')
        .set({
          state: 'done',
          status: result.status,
          error_code: result.error_code,
          result: this.sealed.write(JSON.stringify(result.body), rowContext(row.batch_id, row.row_no, 'result')),
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

  /**
   * Cancels the waiting rows of owners with no live key (every key revoked) and no active console
   * user: a revoked key's batches stop, while a rotated key's go on under its successor.
   */
  async cancelOrphaned(now = dateOf(systemClock)): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'cancelled', finished_at: now.toISOString() })
      .where('state', '=', 'pending')
      .where('owner_id', 'in', (eb) =>
        eb
          .selectFrom('batches as b')
          .select('b.owner_id')
          .where((w) =>
            w.not(w.exists(w.selectFrom('api_keys as k').select('k.id').whereRef('k.owner_id', '=', 'b.owner_id').where('k.revoked_at', 'is', null))),
          )
          .where((w) => w.not(w.exists(w.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'b.owner_id').where('u.disabled_at', 'is', null)))),
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
  async reclaimExpired(now = dateOf(systemClock)): Promise<number> {
    const res = await this.db.kysely
      .updateTable('batch_rows')
      .set({ state: 'pending', claimed_by: null, lease_until: null })
      .where('state', '=', 'running')
      .where('lease_until', '<', now.toISOString())
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
