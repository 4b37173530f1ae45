/** Monitors, their payer pacing, webhooks and the outbox of webhook deliveries (docs/monitoring.md). */
import type { Kysely, Migration } from 'kysely';
import { createTable } from './create-table.ts';

export const monitorsMigration: Migration = {
  async up(db: Kysely<any>) {
    await createTable(
      db,
      'monitors',
      {
        id: 'varchar(40) primary key',
        owner_id: 'varchar(40) not null',
        key_id: 'varchar(40) not null',
        env: 'varchar(20) not null',
        payer_key: 'varchar(80) not null',
        request: 'text not null',
        schedule: 'text not null',
        created_at: 'varchar(30) not null',
        next_check_at: 'varchar(30)',
        claimed_by: 'varchar(80)',
        lease_until: 'varchar(30)',
        checks: 'integer not null default 0',
        last_check: 'text',
        snapshot: 'text',
      },
      { indexes: { monitors_owner_created: ['owner_id', 'created_at'], monitors_due: ['env', 'next_check_at'] } },
    );
    await createTable(db, 'monitor_pacing', { payer_key: 'varchar(80) primary key', next_at: 'varchar(30) not null' });
    await createTable(
      db,
      'webhooks',
      {
        id: 'varchar(40) primary key',
        owner_id: 'varchar(40) not null',
        key_id: 'varchar(40) not null',
        url: 'varchar(2000) not null',
        events: 'varchar(200) not null',
        secret: 'text not null',
        created_at: 'varchar(30) not null',
      },
      { indexes: { webhooks_owner: ['owner_id'] } },
    );
    await createTable(
      db,
      'webhook_deliveries',
      {
        id: 'varchar(80) primary key',
        webhook_id: 'varchar(40) not null',
        event_type: 'varchar(40) not null',
        payload: 'text not null',
        state: 'varchar(10) not null',
        attempts: 'integer not null default 0',
        next_attempt_at: 'varchar(30)',
        claimed_by: 'varchar(80)',
        lease_until: 'varchar(30)',
        last_status: 'integer',
        last_error: 'varchar(200)',
        created_at: 'varchar(30) not null',
        retry_from: 'varchar(30) not null',
        last_attempt_at: 'varchar(30)',
      },
      { indexes: { webhook_deliveries_due: ['state', 'next_attempt_at'], webhook_deliveries_webhook: ['webhook_id', 'created_at'] } },
    );
  },
};
