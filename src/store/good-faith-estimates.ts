/**
 * Good Faith Estimates and fee schedules (docs/good-faith-estimate.md). Each version is a row: its
 * content sealed with the data key (bound to id and version), the client named by a keyed hash, and
 * in plain only what the list sorts by (status, dates, total). A new version supersedes the one
 * before in the same transaction; none is ever deleted. Every read is scoped to the key's owner.
 */
import type { Db } from './db.ts';
import type { GoodFaithEstimateTable } from './gfe-tables.ts';
import { SealedText } from './sealed-text.ts';

export interface GfeRow<P> extends Omit<GoodFaithEstimateTable, 'payload'> {
  /** The sealed content, opened; null when sealed under another data key. */
  payload: P | null;
}

export type GfeInsert<P> = Omit<GoodFaithEstimateTable, 'payload'> & { payload: P };

export interface FeeRow {
  code: string;
  /** null: the code's own fee. */
  modifier: string | null;
  charge_cents: number;
}

const context = (id: string, version: number) => `good_faith_estimates:${id}:${version}`;

export class GfeStore {
  constructor(
    private readonly db: Db,
    private readonly text: SealedText = new SealedText(null),
  ) {}

  private open<P>(row: GoodFaithEstimateTable): GfeRow<P> {
    return { ...row, payload: this.text.readJson<P>(row.payload, context(row.id, row.version)) };
  }

  private sealed<P>(row: GfeInsert<P>): GoodFaithEstimateTable {
    return { ...row, payload: this.text.write(JSON.stringify(row.payload), context(row.id, row.version)) };
  }

  async create<P>(row: GfeInsert<P>): Promise<void> {
    await this.db.kysely.insertInto('good_faith_estimates').values(this.sealed(row)).execute();
  }

  /**
   * Adds the next version and marks every earlier one superseded, in one transaction. False when
   * `expected` is no longer the latest version (another change came first).
   */
  async addVersion<P>(row: GfeInsert<P>, expected: number): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (tx) => {
      const latest = await tx
        .selectFrom('good_faith_estimates')
        .select((eb) => eb.fn.max('version').as('v'))
        .where('id', '=', row.id)
        .where('key_id', '=', row.key_id)
        .executeTakeFirst();
      if (Number(latest?.v ?? 0) !== expected) return false;
      await tx.updateTable('good_faith_estimates').set({ status: 'superseded' }).where('id', '=', row.id).where('key_id', '=', row.key_id).execute();
      await tx.insertInto('good_faith_estimates').values(this.sealed(row)).execute();
      return true;
    });
  }

  /** One version (the latest without `version`), or null when this key has none by that id. */
  async get<P>(keyId: string, id: string, version?: number): Promise<GfeRow<P> | null> {
    let q = this.db.kysely.selectFrom('good_faith_estimates').selectAll().where('id', '=', id).where('key_id', '=', keyId);
    q = version === undefined ? q.orderBy('version', 'desc').limit(1) : q.where('version', '=', version);
    const row = await q.executeTakeFirst();
    return row ? this.open<P>(row) : null;
  }

  /** Every version of an estimate, oldest first, without their content. */
  versions(keyId: string, id: string): Promise<Pick<GoodFaithEstimateTable, 'version' | 'status' | 'created_at' | 'total_cents'>[]> {
    return this.db.kysely
      .selectFrom('good_faith_estimates')
      .select(['version', 'status', 'created_at', 'total_cents'])
      .where('id', '=', id)
      .where('key_id', '=', keyId)
      .orderBy('version')
      .execute();
  }

  /** The current version of each of a key's estimates (superseded ones are not current), opened. */
  async current<P>(keyId: string, limit: number): Promise<GfeRow<P>[]> {
    const rows = await this.db.kysely
      .selectFrom('good_faith_estimates')
      .selectAll()
      .where('key_id', '=', keyId)
      .where('status', '!=', 'superseded')
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => this.open<P>(r));
  }

  /** Marks the latest version given (with its sealed content updated); false when it is not a draft. */
  async markGiven<P>(keyId: string, id: string, version: number, givenAt: string, payload: P): Promise<boolean> {
    const r = await this.db.kysely
      .updateTable('good_faith_estimates')
      .set({ status: 'given', given_at: givenAt, payload: this.text.write(JSON.stringify(payload), context(id, version)) })
      .where('id', '=', id)
      .where('key_id', '=', keyId)
      .where('version', '=', version)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Replaces a key's fee schedule with these rows, in one transaction; the number kept. */
  async importFees(keyId: string, rows: readonly FeeRow[], at: string): Promise<number> {
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx.deleteFrom('fee_schedule').where('key_id', '=', keyId).execute();
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insertInto('fee_schedule')
          .values(
            rows.slice(i, i + 500).map((r) => ({ key_id: keyId, code: r.code, modifier: r.modifier ?? '', charge_cents: r.charge_cents, updated_at: at })),
          )
          .execute();
      }
    });
    return rows.length;
  }

  /** A key's fee schedule, looked up by code and modifier (null: the code's own fee). */
  async fees(keyId: string): Promise<(code: string, modifier: string | null) => number | null> {
    const rows = await this.db.kysely.selectFrom('fee_schedule').select(['code', 'modifier', 'charge_cents']).where('key_id', '=', keyId).execute();
    const map = new Map(rows.map((r) => [`${r.code}:${r.modifier}`, r.charge_cents]));
    return (code, modifier) => map.get(`${code}:${modifier ?? ''}`) ?? null;
  }
}
