/** The name of the file a batch was uploaded from, so its results download is named after it (docs/batch.md). */
import type { Kysely, Migration } from 'kysely';

export const batchNameMigration: Migration = {
  async up(db: Kysely<any>) {
    // Sealed with COVERAGE_DATA_KEY when there is one (store/batches.ts), so longer than the name.
    await db.schema.alterTable('batches').addColumn('name', 'text').execute();
  },
};
