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
  /** The answer as JSON text (built in slices by the route), sealed as it is. */
  payload_json: string;
  lines: Omit<RemittanceLineTable, 'remittance_id' | 'key_id' | 'created_at'>[];
}

export interface AccuracyFilter {
  key_id: string;
  payer_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const LINES_PER_INSERT = 500;

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

  /**
   * The unexpired estimates a key kept for each (member ID hash, payer, date of service) asked, in one
   * query, by `hash|payer|date`; a key with none is left out.
   */
  async estimatesForMany(
    keyId: string,
    wanted: readonly { member_id_hash: string; payer_id: string; date_of_service: string }[],
    now: string,
  ): Promise<Map<string, unknown[]>> {
    const out = new Map<string, unknown[]>();
    if (wanted.length === 0) return out;
    const asked = new Set(wanted.map((w) => `${w.member_id_hash}|${w.payer_id}|${w.date_of_service}`));
    const rows = await this.db.kysely
      .selectFrom('estimate_records')
      .select(['id', 'payload', 'member_id_hash', 'payer_id', 'date_of_service'])
      .where('key_id', '=', keyId)
      .where('member_id_hash', 'in', [...new Set(wanted.map((w) => w.member_id_hash))])
      .where('payer_id', 'in', [...new Set(wanted.map((w) => w.payer_id))])
      .where('date_of_service', 'in', [...new Set(wanted.map((w) => w.date_of_service))])
      .where('expires_at', '>', now)
      .orderBy('at')
      .execute();
    for (const r of rows) {
      const key = `${r.member_id_hash}|${r.payer_id}|${r.date_of_service}`;
      if (!asked.has(key)) continue;
      const payload = this.text.readJson<unknown>(r.payload, estimateContext(r.id));
      if (payload === null) continue;
      const list = out.get(key);
      if (list) list.push(payload);
      else out.set(key, [payload]);
    }
    return out;
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
          payload: this.text.write(r.payload_json, remittanceContext(r.id)),
        })
        .execute();
      // In slices: each INSERT stays under SQLite's limit on bound values.
      for (let i = 0; i < r.lines.length; i += LINES_PER_INSERT)
        await tx
          .insertInto('remittance_lines')
          .values(r.lines.slice(i, i + LINES_PER_INSERT).map((l) => ({ ...l, remittance_id: r.id, key_id: r.key_id, created_at: r.created_at })))
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
