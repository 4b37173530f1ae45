/**
 * Good Faith Estimates (docs/good-faith-estimate.md): one row per version, the client named by a
 * keyed hash and everything else about them sealed with the data key (store/good-faith-estimates.ts);
 * and each key's fee schedule (coverage fees import), which holds no PHI.
 */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const goodFaithEstimatesMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(
      db,
      'good_faith_estimates',
      {
        id: 'varchar(40) not null',
        version: 'integer not null',
        key_id: 'varchar(40) not null',
        client_hash: 'varchar(64) not null',
        status: 'varchar(12) not null',
        service_date: 'varchar(10)',
        due_date: 'varchar(10)',
        total_cents: 'integer not null',
        created_at: 'varchar(30) not null',
        given_at: 'varchar(30)',
        payload: 'text not null',
      },
      {
        primaryKey: ['id', 'version'],
        indexes: { good_faith_estimates_key_status: ['key_id', 'status', 'due_date'], good_faith_estimates_key_client: ['key_id', 'client_hash'] },
      },
    );
    await createTable(
      db,
      'fee_schedule',
      {
        key_id: 'varchar(40) not null',
        code: 'varchar(5) not null',
        // '' for the code's own fee; a modifier's fee is looked up first.
        modifier: 'varchar(2) not null',
        charge_cents: 'integer not null',
        updated_at: 'varchar(30) not null',
      },
      { primaryKey: ['key_id', 'code', 'modifier'] },
    );
  },
};
