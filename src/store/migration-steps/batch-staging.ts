/**
 * A large batch is written in several transactions (store/batches.ts): its record carries, until its
 * last row is in, the time after which an unfinished creation is abandoned. While set, the batch is
 * neither visible nor run.
 */
import type { Kysely, Migration } from 'kysely';

export const batchStagingMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('batches').addColumn('staged_until', 'varchar(30)').execute();
  },
};
