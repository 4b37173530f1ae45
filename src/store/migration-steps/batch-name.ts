/** The name of the file a batch was uploaded from, so its results download is named after it (docs/batch.md). */
import type { Kysely, Migration } from 'kysely';

export const batchNameMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('batches').addColumn('name', 'varchar(80)').execute();
  },
};
