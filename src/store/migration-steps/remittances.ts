/**
 * Estimates kept for comparison with remittances, the remittances read, and one row per compared
 * line for the accuracy report (docs/remittances.md). What names a member is a keyed hash; the
 * estimate's figures and the remittance's lines are sealed with the data key (store/remittances.ts).
 */
import type { Kysely, Migration } from 'kysely';

export const remittancesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('estimate_records')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('member_id_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('payer_id', 'varchar(80)', (c) => c.notNull())
      .addColumn('date_of_service', 'varchar(10)', (c) => c.notNull())
      .addColumn('at', 'varchar(30)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('estimate_records_match').on('estimate_records').columns(['key_id', 'member_id_hash', 'payer_id', 'date_of_service']).execute();
    await db.schema.createIndex('estimate_records_expires').on('estimate_records').column('expires_at').execute();
    await db.schema
      .createTable('remittances')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('claims', 'integer', (c) => c.notNull())
      .addColumn('service_lines', 'integer', (c) => c.notNull())
      .addColumn('matched', 'integer', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('remittances_key_created').on('remittances').columns(['key_id', 'created_at']).execute();
    await db.schema
      .createTable('remittance_lines')
      .addColumn('remittance_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('line_no', 'integer', (c) => c.notNull())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('payer_id', 'varchar(80)', (c) => c.notNull())
      .addColumn('group_id', 'varchar(80)')
      .addColumn('benefit_structure', 'varchar(80)')
      .addColumn('verdict', 'varchar(20)', (c) => c.notNull())
      .addColumn('difference', 'integer')
      .addColumn('cause', 'varchar(120)')
      .addPrimaryKeyConstraint('remittance_lines_pk', ['remittance_id', 'line_no'])
      .execute();
    await db.schema.createIndex('remittance_lines_key_payer').on('remittance_lines').columns(['key_id', 'payer_id', 'created_at']).execute();
  },
};
