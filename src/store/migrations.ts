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
};

export const MIGRATIONS: Record<string, Migration> = migrations;

class StaticProvider implements MigrationProvider {
  constructor(private readonly all: Record<string, Migration>) {}
  async getMigrations() {
    return this.all;
  }
}

export async function migrateToLatest(db: Kysely<any>, all: Record<string, Migration> = MIGRATIONS): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider(all), migrationTableName: 'coverage_migrations', migrationLockTableName: 'coverage_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
