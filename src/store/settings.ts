/** Deployment settings kept in the store: generated once, then the same for every instance and restart. */
import type { Db } from './db.ts';

export async function getSetting(db: Db, name: string): Promise<string | null> {
  const row = await db.kysely.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}

/** The stored value, or `create()` stored now; when instances race, every one gets the first value written. */
export async function settingOrCreate(db: Db, name: string, create: () => string): Promise<string> {
  const existing = await getSetting(db, name);
  if (existing !== null) return existing;
  await db.kysely
    .insertInto('settings')
    .values({ name, value: create() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await getSetting(db, name);
  if (stored === null) throw new Error(`setting ${name} was not stored`);
  return stored;
}
