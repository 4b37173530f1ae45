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

const migrations: Record<string, Migration> = {
  '0001_api_keys': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('env', 'varchar(20)', (c) => c.notNull())
        .addColumn('prefix', 'varchar(40)', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('rate_limit_per_minute', 'integer')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('revoked_at', 'varchar(30)')
        .addColumn('last_used_at', 'varchar(30)')
        .execute();
    },
  },
  '0002_audit_and_settings': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_events')
        .addColumn('request_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('at', 'varchar(30)', (c) => c.notNull())
        .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('endpoint', 'varchar(20)', (c) => c.notNull())
        .addColumn('payer_id', 'varchar(80)')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'varchar(40)')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('member_hash', 'varchar(64)')
        .execute();
      await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
      await db.schema.createIndex('audit_events_key_at').on('audit_events').columns(['key_id', 'at']).execute();
      await db.schema
        .createTable('settings')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('value', 'varchar(500)', (c) => c.notNull())
        .execute();
    },
  },
  '0003_batches': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('batches')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('source', 'varchar(10)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('batches_key_created').on('batches').columns(['key_id', 'created_at']).execute();
      await db.schema
        .createTable('batch_rows')
        .addColumn('batch_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('row_no', 'integer', (c) => c.notNull())
        .addColumn('key_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('endpoint', 'varchar(20)', (c) => c.notNull())
        .addColumn('payer_key', 'varchar(80)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        .addColumn('claimed_by', 'varchar(80)')
        .addColumn('lease_until', 'varchar(30)')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer')
        .addColumn('error_code', 'varchar(40)')
        .addColumn('result', 'text')
        .addColumn('finished_at', 'varchar(30)')
        .addPrimaryKeyConstraint('batch_rows_pk', ['batch_id', 'row_no'])
        .execute();
      await db.schema.createIndex('batch_rows_key_state').on('batch_rows').columns(['key_id', 'state']).execute();
      // Claims take the lowest row numbers first across batches, so a small batch is not stuck behind a big one.
      await db.schema.createIndex('batch_rows_claim').on('batch_rows').columns(['state', 'payer_key', 'row_no', 'batch_id']).execute();
    },
  },
  '0004_console_users': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('env', 'varchar(20)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
        .addColumn('totp_secret', 'varchar(200)')
        .addColumn('totp_last_step', 'integer')
        .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'varchar(30)')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('password_changed_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('disabled_at', 'varchar(30)')
        .addColumn('last_sign_in_at', 'varchar(30)')
        .execute();
      await db.schema
        .createTable('console_sessions')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_seen_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
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
