/**
 * The remittance loop's store (docs/remittances.md): estimates kept for comparison (indexed by keyed
 * hashes, payer and date of service; their figures sealed), remittances with their compared lines
 * (sealed), and one plain row per compared line without PHI for the accuracy report. Every read is
 * scoped to the API key that wrote it.
 */
import type { Db } from './db.ts';
import type { RemittanceLineTable } from './remittance-tables.ts';
import { SealedText } from './sealed-text.ts';

export interface EstimateRecordInput {
  id: string;
  key_id: string;
  member_id_hash: string;
  payer_id: string;
  date_of_service: string;
  at: string;
  expires_at: string;
  payload: unknown;
}

export interface RemittanceInput {
  id: string;
  key_id: string;
  created_at: string;
  claims: number;
  service_lines: number;
  matched: number;
  payload: unknown;
  lines: Omit<RemittanceLineTable, 'remittance_id' | 'key_id' | 'created_at'>[];
}

export interface AccuracyFilter {
  key_id: string;
  payer_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const estimateContext = (id: string) => `estimate_records:${id}`;
const remittanceContext = (id: string) => `remittances:${id}`;

export class RemittanceStore {
  constructor(
    private readonly db: Db,
    private readonly text: SealedText = new SealedText(null),
  ) {}

  async keepEstimate(e: EstimateRecordInput): Promise<void> {
    const { payload, ...columns } = e;
    await this.db.kysely
      .insertInto('estimate_records')
      .values({ ...columns, payload: this.text.write(JSON.stringify(payload), estimateContext(e.id)) })
      .execute();
  }

  /** The unexpired estimates a key kept for a member ID hash, payer and date of service. */
  async estimatesFor(keyId: string, memberIdHash: string, payerId: string, dateOfService: string, now: string): Promise<unknown[]> {
    const rows = await this.db.kysely
      .selectFrom('estimate_records')
      .select(['id', 'payload'])
      .where('key_id', '=', keyId)
      .where('member_id_hash', '=', memberIdHash)
      .where('payer_id', '=', payerId)
      .where('date_of_service', '=', dateOfService)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((r) => this.text.readJson<unknown>(r.payload, estimateContext(r.id))).filter((p) => p !== null);
  }

  /** Drops the estimates past their keeping time; the number dropped. */
  async dropExpired(now: string): Promise<number> {
    const r = await this.db.kysely.deleteFrom('estimate_records').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async saveRemittance(r: RemittanceInput): Promise<void> {
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx
        .insertInto('remittances')
        .values({
          id: r.id,
          key_id: r.key_id,
          created_at: r.created_at,
          claims: r.claims,
          service_lines: r.service_lines,
          matched: r.matched,
          payload: this.text.write(JSON.stringify(r.payload), remittanceContext(r.id)),
        })
        .execute();
      if (r.lines.length > 0)
        await tx
          .insertInto('remittance_lines')
          .values(r.lines.map((l) => ({ ...l, remittance_id: r.id, key_id: r.key_id, created_at: r.created_at })))
          .execute();
    });
  }

  /** The remittance's stored answer, or null when this key has none by that id (or it was sealed under another key). */
  async remittance(keyId: string, id: string): Promise<unknown> {
    const row = await this.db.kysely.selectFrom('remittances').select(['payload']).where('id', '=', id).where('key_id', '=', keyId).executeTakeFirst();
    return row ? this.text.readJson<unknown>(row.payload, remittanceContext(id)) : null;
  }

  /** The compared lines of a key's remittances received from `from` to `to` (ISO dates, inclusive), for the accuracy report. */
  accuracyLines(
    f: AccuracyFilter,
  ): Promise<Pick<RemittanceLineTable, 'payer_id' | 'group_id' | 'benefit_structure' | 'verdict' | 'difference' | 'cause' | 'created_at'>[]> {
    let q = this.db.kysely
      .selectFrom('remittance_lines')
      .select(['payer_id', 'group_id', 'benefit_structure', 'verdict', 'difference', 'cause', 'created_at'])
      .where('key_id', '=', f.key_id);
    if (f.payer_id) q = q.where('payer_id', '=', f.payer_id);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<', nextDay(f.to));
    return q.orderBy('created_at').execute();
  }
}

function nextDay(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
