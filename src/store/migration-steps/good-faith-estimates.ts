/**
 * Good Faith Estimates (docs/good-faith-estimate.md): one row per version, the client named by a
 * keyed hash and everything else about them sealed with the data key (store/good-faith-estimates.ts);
 * and each key's fee schedule (coverage fees import), which holds no PHI.
 */
import type { Kysely, Migration } from 'kysely';

export const goodFaithEstimatesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('good_faith_estimates')
      .addColumn('id', 'varchar(40)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('client_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(12)', (c) => c.notNull())
      .addColumn('service_date', 'varchar(10)')
      .addColumn('due_date', 'varchar(10)')
      .addColumn('total_cents', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('given_at', 'varchar(30)')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('good_faith_estimates_pk', ['id', 'version'])
      .execute();
    await db.schema.createIndex('good_faith_estimates_key_status').on('good_faith_estimates').columns(['key_id', 'status', 'due_date']).execute();
    await db.schema.createIndex('good_faith_estimates_key_client').on('good_faith_estimates').columns(['key_id', 'client_hash']).execute();
    await db.schema
      .createTable('fee_schedule')
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('code', 'varchar(5)', (c) => c.notNull())
      // '' for the code's own fee; a modifier's fee is looked up first.
      .addColumn('modifier', 'varchar(2)', (c) => c.notNull())
      .addColumn('charge_cents', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
      .addPrimaryKeyConstraint('fee_schedule_pk', ['key_id', 'code', 'modifier'])
      .execute();
  },
};
