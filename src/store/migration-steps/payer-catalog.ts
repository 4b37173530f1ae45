/** The payer catalog: payers imported from a clearinghouse's list (coverage payers import), with their IDs at each connection. */
import type { Kysely, Migration } from 'kysely';

export const payerCatalogMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('payer_catalog')
      .addColumn('payer_id', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      /** JSON array of strings. */
      .addColumn('aliases', 'text', (c) => c.notNull())
      .addColumn('eligibility', 'varchar(30)', (c) => c.notNull())
      .addColumn('medicaid_state', 'varchar(2)')
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('payer_catalog_routes')
      .addColumn('payer_id', 'varchar(80)', (c) => c.notNull())
      .addColumn('connection', 'varchar(80)', (c) => c.notNull())
      .addColumn('connection_payer_id', 'varchar(80)', (c) => c.notNull())
      .addPrimaryKeyConstraint('payer_catalog_routes_pk', ['payer_id', 'connection'])
      .execute();
  },
};

/** The practice's providers by NPI (coverage providers add): the 2100B name of a 270 whose request gave only an NPI. */
export const providersMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('providers')
      .addColumn('npi', 'varchar(10)', (c) => c.primaryKey())
      .addColumn('first_name', 'varchar(35)')
      .addColumn('last_name', 'varchar(60)')
      .addColumn('organization_name', 'varchar(60)')
      .addColumn('taxonomy', 'varchar(10)')
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .execute();
  },
};
