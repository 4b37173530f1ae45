/**
 * What the desk's advisory, reversals and corrections need of the remittance lines kept
 * (docs/remittances.md 'Feedback at the desk', 'Reversals and corrections'): per compared line, the
 * estimate's copay, coinsurance and deductible beside the payer's (amounts only, no member data), and
 * which claim it belongs to (a keyed hash of the payer's claim control number, never CLP07 itself);
 * per claim received, its payment, whether it is a reversal, and what withdrew it.
 */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const remittanceFeedbackMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const column of [
      'claim_no',
      'copay_said',
      'copay_estimated',
      'copay_paid',
      'coinsurance_said',
      'coinsurance_estimated',
      'coinsurance_paid',
      'deductible_estimated',
      'deductible_paid',
    ])
      await db.schema.alterTable('remittance_lines').addColumn(column, 'integer').execute();
    await db.schema.alterTable('remittance_lines').addColumn('withdrawn_by', 'varchar(40)').execute();
    await db.schema.createIndex('remittance_lines_key_group').on('remittance_lines').columns(['key_id', 'payer_id', 'group_id', 'created_at']).execute();
    await createTable(
      db,
      'remittance_claims',
      {
        remittance_id: 'varchar(40) not null',
        claim_no: 'integer not null',
        key_id: 'varchar(40) not null',
        created_at: 'varchar(30) not null',
        claim_hash: 'varchar(64) not null',
        paid: 'integer not null',
        reversal: 'integer not null',
        settled_by: 'varchar(40)',
      },
      { primaryKey: ['remittance_id', 'claim_no'], indexes: { remittance_claims_key_hash: ['key_id', 'claim_hash'] } },
    );
    await db.schema.createIndex('remittances_created').on('remittances').column('created_at').execute();
  },
};
