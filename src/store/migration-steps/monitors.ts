/** Monitors, their payer pacing, webhooks and the outbox of webhook deliveries (docs/monitoring.md). */
import type { Kysely, Migration } from 'kysely';

export const monitorsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('monitors')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('owner_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('env', 'varchar(20)', (c) => c.notNull())
      .addColumn('payer_key', 'varchar(80)', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('schedule', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('next_check_at', 'varchar(30)')
      .addColumn('claimed_by', 'varchar(80)')
      .addColumn('lease_until', 'varchar(30)')
      .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_check', 'text')
      .addColumn('snapshot', 'text')
      .execute();
    await db.schema.createIndex('monitors_owner_created').on('monitors').columns(['owner_id', 'created_at']).execute();
    await db.schema.createIndex('monitors_due').on('monitors').columns(['env', 'next_check_at']).execute();
    await db.schema
      .createTable('monitor_pacing')
      .addColumn('payer_key', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('next_at', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('owner_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('events', 'varchar(200)', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_owner').on('webhooks').column('owner_id').execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('webhook_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('event_type', 'varchar(40)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(30)')
      .addColumn('claimed_by', 'varchar(80)')
      .addColumn('lease_until', 'varchar(30)')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'varchar(200)')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('retry_from', 'varchar(30)', (c) => c.notNull())
      .addColumn('last_attempt_at', 'varchar(30)')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
  },
};
