/**
 * The remittance loop's store (docs/remittances.md): estimates kept for comparison (indexed by keyed
 * hashes, payer and date of service; their figures sealed), remittances with their compared lines
 * (sealed), and one plain row per compared line without PHI for the accuracy report. Every read is
 * scoped to the API key that wrote it.
 */
import type { Transaction } from 'kysely';
import type { Observed } from '../domain/remittance-line.ts';
import type { Db } from './db.ts';
import type { EstimateRecordTable, RemittanceClaimTable, RemittanceLineTable, RemittanceTable } from './remittance-tables.ts';
import type { Database } from './schema.ts';
import { SealedText } from './sealed-text.ts';

/** An estimate to keep: its payload is sealed as JSON. */
export interface EstimateRecordInput extends Omit<EstimateRecordTable, 'payload'> {
  payload: unknown;
}

export interface RemittanceInput extends Omit<RemittanceTable, 'payload'> {
  /** The answer as JSON text (built in slices by the route), sealed as it is. */
  payload_json: string;
  lines: Omit<RemittanceLineTable, 'remittance_id' | 'key_id' | 'created_at'>[];
  /** The claims that carry a payer claim control number (CLP07), by keyed hash: what reversals and corrections are matched on. */
  claims_keyed?: Pick<RemittanceClaimTable, 'claim_no' | 'claim_hash' | 'paid' | 'reversal'>[];
}

/** A kept line's figures for the desk's advisory (operations/remittance/advisory.ts Observation). */
export type ObservationRow = Observed & Pick<RemittanceLineTable, 'line_no' | 'created_at'> & { remittance_id: string };

export interface AccuracyFilter {
  key_id: string;
  payer_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Rows per INSERT: within SQLite's limit on bound values (32,766). */
const LINES_PER_INSERT = 500;
const CLAIMS_PER_INSERT = 1000;

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

  /** Saves the remittance, its lines and claims; `within` runs in the same transaction (the webhook outbox's events). */
  /** `pause` hands the event loop a turn between slices of rows and of claims settled (the route's: docs/remittances.md, "Reading"). */
  async saveRemittance(r: RemittanceInput, within?: (tx: Transaction<Database>) => Promise<void>, pause?: () => Promise<void>): Promise<void> {
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
      for (let i = 0; i < r.lines.length; i += LINES_PER_INSERT) {
        if (pause && i > 0) await pause();
        await tx
          .insertInto('remittance_lines')
          .values(r.lines.slice(i, i + LINES_PER_INSERT).map((l) => ({ ...l, remittance_id: r.id, key_id: r.key_id, created_at: r.created_at })))
          .execute();
      }
      const keyed = r.claims_keyed ?? [];
      for (let i = 0; i < keyed.length; i += CLAIMS_PER_INSERT) {
        if (pause) await pause();
        await tx
          .insertInto('remittance_claims')
          .values(
            keyed.slice(i, i + CLAIMS_PER_INSERT).map((c) => ({ ...c, remittance_id: r.id, key_id: r.key_id, created_at: r.created_at, settled_by: null })),
          )
          .execute();
      }
      if (keyed.length > 0) await settleClaims(tx, r.key_id, [...new Set(keyed.map((c) => c.claim_hash))], pause);
      await within?.(tx);
    });
  }

  /**
   * Drops the remittances received before `before` (ISO instant), with their lines and claims: the
   * retention sweep (COVERAGE_REMITTANCE_RETENTION_DAYS). The number of remittances dropped.
   */
  async dropRemittancesBefore(before: string): Promise<number> {
    return this.db.kysely.transaction().execute(async (tx) => {
      await tx.deleteFrom('remittance_lines').where('created_at', '<', before).execute();
      await tx.deleteFrom('remittance_claims').where('created_at', '<', before).execute();
      const r = await tx.deleteFrom('remittances').where('created_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    });
  }

  /** A key's compared lines of a payer and plan group received since `since` that still count, newest first: the advisory's observations. */
  async observations(keyId: string, payerId: string, groupId: string, since: string, limit = 200): Promise<ObservationRow[]> {
    return this.db.kysely
      .selectFrom('remittance_lines')
      .select([
        'remittance_id',
        'line_no',
        'created_at',
        'copay_said',
        'copay_estimated',
        'copay_paid',
        'coinsurance_said',
        'coinsurance_estimated',
        'coinsurance_paid',
        'deductible_estimated',
        'deductible_paid',
      ])
      .where('key_id', '=', keyId)
      .where('payer_id', '=', payerId)
      .where('group_id', '=', groupId)
      .where('created_at', '>=', since)
      .where('withdrawn_by', 'is', null)
      .where('verdict', '<>', 'not_comparable')
      .orderBy('created_at', 'desc')
      .orderBy('remittance_id', 'desc')
      .orderBy('line_no', 'desc')
      .limit(limit)
      .execute();
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
      .where('key_id', '=', f.key_id)
      .where('withdrawn_by', 'is', null);
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

/**
 * Which payments of a claim (a key's claim hash) still count, from every claim of it received, in
 * the order received (docs/remittances.md 'Reversals and corrections'): each reversal withdraws the
 * latest earlier payment of the amount it reverses not yet reversed, else (a reversal received before
 * its payment) the first later one; of the payments left, those of the latest remittance count and
 * an earlier remittance's are withdrawn by it (a correction). A reversal's own lines never count
 * (withdrawn when written).
 */
export function settlementOf(claims: readonly RemittanceClaimTable[]): Map<RemittanceClaimTable, string | null> {
  const settled = new Map<RemittanceClaimTable, string | null>(claims.map((c) => [c, null]));
  const payments = claims.filter((c) => !c.reversal);
  for (const [i, r] of claims.entries()) {
    if (!r.reversal) continue;
    const open = (p: RemittanceClaimTable) => p.paid === -r.paid && settled.get(p) === null;
    const before = payments.filter((p) => claims.indexOf(p) < i && open(p));
    const target = before.at(-1) ?? payments.find((p) => claims.indexOf(p) > i && open(p));
    if (!target) continue;
    settled.set(target, r.remittance_id);
    settled.set(r, target.remittance_id);
  }
  const standing = payments.filter((p) => settled.get(p) === null);
  const latest = standing.at(-1)?.remittance_id;
  for (const p of standing) if (p.remittance_id !== latest) settled.set(p, latest!);
  return settled;
}

/** Hashes read per query: the IN list stays under SQLite's limit on bound values. */
const HASHES_PER_READ = 500;

/**
 * Settles again every claim of the hashes a remittance names, written only where it changed (a new
 * claim number's first payment changes nothing): the claims' settled_by and their lines' withdrawn_by.
 */
async function settleClaims(tx: Transaction<Database>, keyId: string, hashes: readonly string[], pause?: () => Promise<void>): Promise<void> {
  for (let i = 0; i < hashes.length; i += HASHES_PER_READ) {
    // Each slice's settling is a few queries; SQLite answers them without handing the loop a turn.
    if (pause && i > 0) await pause();
    const rows = await tx
      .selectFrom('remittance_claims')
      .selectAll()
      .where('key_id', '=', keyId)
      .where('claim_hash', 'in', hashes.slice(i, i + HASHES_PER_READ))
      .orderBy('created_at')
      .orderBy('remittance_id')
      .orderBy('claim_no')
      .execute();
    const byHash = new Map<string, RemittanceClaimTable[]>();
    for (const row of rows) byHash.set(row.claim_hash, [...(byHash.get(row.claim_hash) ?? []), row]);
    for (const claims of byHash.values()) {
      for (const [c, by] of settlementOf(claims)) {
        if (by === c.settled_by) continue;
        await tx
          .updateTable('remittance_claims')
          .set({ settled_by: by })
          .where('remittance_id', '=', c.remittance_id)
          .where('claim_no', '=', c.claim_no)
          .execute();
        if (!c.reversal)
          await tx
            .updateTable('remittance_lines')
            .set({ withdrawn_by: by })
            .where('remittance_id', '=', c.remittance_id)
            .where('claim_no', '=', c.claim_no)
            .execute();
      }
    }
  }
}
