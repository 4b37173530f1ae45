/** Versioned schema migrations; they run at start on SQLite and PostgreSQL alike. */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { monitorsMigration } from './migration-steps/monitors.ts';
import { auditRouteMigration } from './migration-steps/audit-route.ts';
import { payerCatalogMigration, providersMigration } from './migration-steps/payer-catalog.ts';
import { payerRouteEligibilityMigration } from './migration-steps/payer-route-eligibility.ts';
import { oidcStatesMigration } from './migration-steps/oidc-states.ts';
import { batchNameMigration } from './migration-steps/batch-name.ts';
import { remittancesMigration } from './migration-steps/remittances.ts';
import { batchStagingMigration } from './migration-steps/batch-staging.ts';
import { remittanceFeedbackMigration } from './migration-steps/remittance-feedback.ts';
import { goodFaithEstimatesMigration } from './migration-steps/good-faith-estimates.ts';
import { monitorStagingMigration } from './migration-steps/monitor-staging.ts';
import { createTable } from './migration-steps/create-table.ts';

const migrations: Record<string, Migration> = {
  '0001_api_keys': {
    async up(db: Kysely<any>) {
      await createTable(db, 'api_keys', {
        id: 'varchar(40) primary key',
        name: 'varchar(200) not null',
        env: 'varchar(20) not null',
        prefix: 'varchar(40) not null',
        hash: 'varchar(64) not null unique',
        rate_limit_per_minute: 'integer',
        created_at: 'varchar(30) not null',
        revoked_at: 'varchar(30)',
        last_used_at: 'varchar(30)',
      });
    },
  },
  '0002_audit_and_settings': {
    async up(db: Kysely<any>) {
      await createTable(
        db,
        'audit_events',
        {
          request_id: 'varchar(64) primary key',
          at: 'varchar(30) not null',
          key_id: 'varchar(40) not null',
          endpoint: 'varchar(20) not null',
          payer_id: 'varchar(80)',
          status: 'integer not null',
          error_code: 'varchar(40)',
          latency_ms: 'integer not null',
          member_hash: 'varchar(64)',
        },
        { indexes: { audit_events_at: ['at'], audit_events_key_at: ['key_id', 'at'] } },
      );
      await createTable(db, 'settings', { name: 'varchar(100) primary key', value: 'varchar(500) not null' });
    },
  },
  '0003_batches': {
    async up(db: Kysely<any>) {
      await createTable(
        db,
        'batches',
        {
          id: 'varchar(40) primary key',
          key_id: 'varchar(40) not null',
          source: 'varchar(10) not null',
          total: 'integer not null',
          created_at: 'varchar(30) not null',
        },
        { indexes: { batches_key_created: ['key_id', 'created_at'] } },
      );
      await createTable(
        db,
        'batch_rows',
        {
          batch_id: 'varchar(40) not null',
          row_no: 'integer not null',
          key_id: 'varchar(40) not null',
          endpoint: 'varchar(20) not null',
          payer_key: 'varchar(80) not null',
          request: 'text not null',
          state: 'varchar(10) not null',
          claimed_by: 'varchar(80)',
          lease_until: 'varchar(30)',
          attempts: 'integer not null default 0',
          status: 'integer',
          error_code: 'varchar(40)',
          result: 'text',
          finished_at: 'varchar(30)',
        },
        {
          primaryKey: ['batch_id', 'row_no'],
          indexes: {
            batch_rows_key_state: ['key_id', 'state'],
            // Claims take the lowest row numbers first across batches, so a small batch is not stuck behind a big one.
            batch_rows_claim: ['state', 'payer_key', 'row_no', 'batch_id'],
          },
        },
      );
    },
  },
  '0004_console_users': {
    async up(db: Kysely<any>) {
      await createTable(db, 'users', {
        id: 'varchar(40) primary key',
        username: 'varchar(64) not null unique',
        env: 'varchar(20) not null',
        password_hash: 'varchar(200) not null',
        totp_secret: 'varchar(200)',
        totp_last_step: 'integer',
        failed_attempts: 'integer not null default 0',
        locked_until: 'varchar(30)',
        created_at: 'varchar(30) not null',
        password_changed_at: 'varchar(30) not null',
        disabled_at: 'varchar(30)',
        last_sign_in_at: 'varchar(30)',
      });
      await createTable(
        db,
        'console_sessions',
        {
          token_hash: 'varchar(64) primary key',
          user_id: 'varchar(40) not null',
          created_at: 'varchar(30) not null',
          last_seen_at: 'varchar(30) not null',
          expires_at: 'varchar(30) not null',
        },
        { indexes: { console_sessions_user: ['user_id'] } },
      );
      await db.schema.alterTable('audit_events').addColumn('user_id', 'varchar(40)').execute();
    },
  },
  '0005_batch_env_owner': {
    async up(db: Kysely<any>) {
      // A key's owner is what a rotated key inherits: the batches of the old key stay reachable by the new one.
      await db.schema.alterTable('api_keys').addColumn('owner_id', 'varchar(40)').execute();
      await db
        .updateTable('api_keys')
        .set({ owner_id: sql`id` })
        .execute();
      await db.schema.createIndex('api_keys_owner').on('api_keys').column('owner_id').execute();
      for (const table of ['batches', 'batch_rows']) {
        await db.schema
          .alterTable(table)
          .addColumn('env', 'varchar(20)', (c) => c.notNull().defaultTo('unknown'))
          .execute();
        await db.schema
          .alterTable(table)
          .addColumn('owner_id', 'varchar(40)', (c) => c.notNull().defaultTo(''))
          .execute();
        // Existing batches take their key's environment; a batch whose key is gone stays 'unknown' and no runner claims it.
        await db
          .updateTable(table)
          .set({
            owner_id: sql`key_id`,
            env: sql`coalesce((select k.env from api_keys k where k.id = ${sql.ref(`${table}.key_id`)}), 'unknown')`,
          })
          .execute();
      }
      await db.schema.alterTable('batch_rows').addColumn('user_id', 'varchar(40)').execute();
      await db.schema.createIndex('batch_rows_owner_state').on('batch_rows').columns(['owner_id', 'state']).execute();
      await db.schema.createIndex('batches_owner_created').on('batches').columns(['owner_id', 'created_at']).execute();
    },
  },
  '0006_monitors': monitorsMigration,
  '0007_audit_route': auditRouteMigration,
  '0008_payer_catalog': payerCatalogMigration,
  '0009_providers': providersMigration,
  '0010_payer_route_eligibility': payerRouteEligibilityMigration,
  '0011_oidc_states': oidcStatesMigration,
  '0012_batch_name': batchNameMigration,
  '0013_remittances': remittancesMigration,
  '0014_batch_staging': batchStagingMigration,
  '0015_remittance_feedback': remittanceFeedbackMigration,
  '0016_good_faith_estimates': goodFaithEstimatesMigration,
  '0017_monitor_staging': monitorStagingMigration,
};

export const MIGRATIONS: Record<string, Migration> = migrations;

class StaticProvider implements MigrationProvider {
  constructor(private readonly all: Record<string, Migration>) {}
  async getMigrations() {
    return this.all;
  }
}

/**
 * On PostgreSQL, pass the connection's current schema: without it Kysely takes a
 * coverage_migrations table in any other schema of the database as ours and skips creating it.
 */
export async function migrateToLatest(db: Kysely<any>, all: Record<string, Migration> = MIGRATIONS, migrationTableSchema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(all),
    migrationTableName: 'coverage_migrations',
    migrationLockTableName: 'coverage_migrations_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
