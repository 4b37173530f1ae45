/** Renewing and giving back leased claims on the tables whose rows a claim holds outright (monitors, webhook deliveries). */
import type { Db } from './db.ts';

type LeasedTable = 'monitors' | 'webhook_deliveries';

export async function renewLeases(db: Db, table: LeasedTable, claims: readonly string[], leaseUntil: Date): Promise<void> {
  if (claims.length === 0) return;
  await db.kysely
    .updateTable(table)
    .set({ lease_until: leaseUntil.toISOString() })
    .where('claimed_by', 'in', [...claims])
    .execute();
}

export async function releaseLeases(db: Db, table: LeasedTable, claims: readonly string[]): Promise<void> {
  if (claims.length === 0) return;
  await db.kysely
    .updateTable(table)
    .set({ claimed_by: null, lease_until: null })
    .where('claimed_by', 'in', [...claims])
    .execute();
}
