/**
 * Estimates kept for comparison with remittances, the remittances read, and one row per compared
 * line for the accuracy report (docs/remittances.md). What names a member is a keyed hash; the
 * estimate's figures and the remittance's lines are sealed with the data key (store/remittances.ts).
 */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const remittancesMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(
      db,
      'estimate_records',
      {
        id: 'varchar(64) primary key',
        key_id: 'varchar(40) not null',
        member_id_hash: 'varchar(64) not null',
        payer_id: 'varchar(80) not null',
        date_of_service: 'varchar(10) not null',
        at: 'varchar(30) not null',
        expires_at: 'varchar(30) not null',
        payload: 'text not null',
      },
      { indexes: { estimate_records_match: ['key_id', 'member_id_hash', 'payer_id', 'date_of_service'], estimate_records_expires: ['expires_at'] } },
    );
    await createTable(
      db,
      'remittances',
      {
        id: 'varchar(40) primary key',
        key_id: 'varchar(40) not null',
        created_at: 'varchar(30) not null',
        claims: 'integer not null',
        service_lines: 'integer not null',
        matched: 'integer not null',
        payload: 'text not null',
      },
      { indexes: { remittances_key_created: ['key_id', 'created_at'] } },
    );
    await createTable(
      db,
      'remittance_lines',
      {
        remittance_id: 'varchar(40) not null',
        line_no: 'integer not null',
        key_id: 'varchar(40) not null',
        created_at: 'varchar(30) not null',
        payer_id: 'varchar(80) not null',
        group_id: 'varchar(80)',
        benefit_structure: 'varchar(80)',
        verdict: 'varchar(20) not null',
        difference: 'integer',
        cause: 'varchar(120)',
      },
      { primaryKey: ['remittance_id', 'line_no'], indexes: { remittance_lines_key_payer: ['key_id', 'payer_id', 'created_at'] } },
    );
  },
};
