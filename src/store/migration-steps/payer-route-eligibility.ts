/**
 * Eligibility per route of the payer catalog: each connection's payer list says whether that
 * connection takes 270s for the payer, and the payer's eligibility is derived from its routes
 * (store/payer-catalog.ts), so one vendor's not_supported no longer hides another's supported route.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const payerRouteEligibilityMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('payer_catalog_routes')
      .addColumn('eligibility', 'varchar(30)', (c) => c.notNull().defaultTo('supported'))
      .execute();
    // Routes imported before this step take the payer-level value every import used to overwrite.
    await db
      .updateTable('payer_catalog_routes')
      .set({
        eligibility: sql`coalesce((select p.eligibility from payer_catalog p where p.payer_id = ${sql.ref('payer_catalog_routes.payer_id')}), 'supported')`,
      })
      .execute();
  },
};
