/** The payer catalog: payers imported from a clearinghouse's list (coverage payers import), with their IDs at each connection. */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const payerCatalogMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(db, 'payer_catalog', {
      payer_id: 'varchar(80) primary key',
      name: 'varchar(200) not null',
      /** JSON array of strings. */
      aliases: 'text not null',
      eligibility: 'varchar(30) not null',
      medicaid_state: 'varchar(2)',
      updated_at: 'varchar(30) not null',
    });
    await createTable(
      db,
      'payer_catalog_routes',
      { payer_id: 'varchar(80) not null', connection: 'varchar(80) not null', connection_payer_id: 'varchar(80) not null' },
      { primaryKey: ['payer_id', 'connection'] },
    );
  },
};

/** The practice's providers by NPI (coverage providers add): the 2100B name of a 270 whose request gave only an NPI. */
export const providersMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(db, 'providers', {
      npi: 'varchar(10) primary key',
      first_name: 'varchar(35)',
      last_name: 'varchar(60)',
      organization_name: 'varchar(60)',
      taxonomy: 'varchar(10)',
      updated_at: 'varchar(30) not null',
    });
  },
};
