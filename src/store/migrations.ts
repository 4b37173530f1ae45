/** Versioned schema migrations; they run at start on SQLite and PostgreSQL alike. */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

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
