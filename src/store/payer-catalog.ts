/** The payer catalog in the store: imported payers and their IDs per connection (coverage payers import). */
import type { Db } from './db.ts';

export type Eligibility = 'supported' | 'enrollment_required' | 'not_supported';

export interface CatalogPayer {
  payer_id: string;
  name: string;
  aliases: string[];
  eligibility: Eligibility;
  medicaid_state: string | null;
  /** connection name -> that connection's payer ID. */
  routes: Record<string, string>;
}

export class PayerCatalogStore {
  constructor(private readonly db: Db) {}

  /** Adds or updates payers and their route through `connection`; aliases are merged. Returns how many were added and updated. */
  async upsert(
    entries: Omit<CatalogPayer, 'routes'>[],
    connection: string,
    connectionIds: Map<string, string>,
    now = new Date(),
  ): Promise<{ added: number; updated: number }> {
    let added = 0;
    let updated = 0;
    await this.db.kysely.transaction().execute(async (tx) => {
      for (const e of entries) {
        const existing = await tx.selectFrom('payer_catalog').select(['aliases']).where('payer_id', '=', e.payer_id).executeTakeFirst();
        const aliases = JSON.stringify([...new Set([...(existing ? (JSON.parse(existing.aliases) as string[]) : []), ...e.aliases])]);
        const row = { name: e.name, aliases, eligibility: e.eligibility, medicaid_state: e.medicaid_state, updated_at: now.toISOString() };
        if (existing) {
          await tx.updateTable('payer_catalog').set(row).where('payer_id', '=', e.payer_id).execute();
          updated++;
        } else {
          await tx
            .insertInto('payer_catalog')
            .values({ payer_id: e.payer_id, ...row })
            .execute();
          added++;
        }
        const id = connectionIds.get(e.payer_id);
        if (id !== undefined) {
          await tx.deleteFrom('payer_catalog_routes').where('payer_id', '=', e.payer_id).where('connection', '=', connection).execute();
          await tx.insertInto('payer_catalog_routes').values({ payer_id: e.payer_id, connection, connection_payer_id: id }).execute();
        }
      }
    });
    return { added, updated };
  }

  async list(): Promise<CatalogPayer[]> {
    const [payers, routes] = await Promise.all([
      this.db.kysely.selectFrom('payer_catalog').selectAll().orderBy('payer_id').execute(),
      this.db.kysely.selectFrom('payer_catalog_routes').selectAll().orderBy('connection').execute(),
    ]);
    const byPayer = new Map<string, Record<string, string>>();
    for (const r of routes) byPayer.set(r.payer_id, { ...byPayer.get(r.payer_id), [r.connection]: r.connection_payer_id });
    return payers.map((p) => ({
      payer_id: p.payer_id,
      name: p.name,
      aliases: JSON.parse(p.aliases) as string[],
      eligibility: p.eligibility,
      medicaid_state: p.medicaid_state,
      routes: byPayer.get(p.payer_id) ?? {},
    }));
  }
}
