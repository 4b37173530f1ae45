/**
 * A large bulk upload of monitors is written in several transactions (store/monitors.ts
 * createWithin): its monitors name their upload, whose record carries, until the last monitor is in,
 * the time after which an unfinished creation is abandoned. While the record exists, its monitors
 * are neither visible nor checked; deleting it makes them all visible at once.
 */
import type { Kysely, Migration } from 'kysely';

export const monitorStagingMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('monitor_uploads')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('owner_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('staged_until', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('monitors').addColumn('upload_id', 'varchar(40)').execute();
    await db.schema.createIndex('monitors_upload').on('monitors').column('upload_id').execute();
  },
};
