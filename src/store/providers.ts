/** The practice's providers by NPI (coverage providers add|list|remove). */
import type { Db } from './db.ts';
import type { ProviderTable } from './schema.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export type ProviderRecord = Omit<ProviderTable, 'updated_at'>;

export class ProviderStore {
  constructor(private readonly db: Db) {}

  /** Adds the provider, or replaces the one with this NPI; true when it was new. */
  async put(p: ProviderRecord, now = dateOf(systemClock)): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (tx) => {
      const existed = await tx.deleteFrom('providers').where('npi', '=', p.npi).executeTakeFirst();
      await tx
        .insertInto('providers')
        .values({ ...p, updated_at: now.toISOString() })
        .execute();
      return Number(existed.numDeletedRows) === 0;
    });
  }

  async remove(npi: string): Promise<boolean> {
    const r = await this.db.kysely.deleteFrom('providers').where('npi', '=', npi).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  list(): Promise<ProviderRecord[]> {
    return this.db.kysely.selectFrom('providers').select(['npi', 'first_name', 'last_name', 'organization_name', 'taxonomy']).orderBy('npi').execute();
  }
}
