/** Opens the store: SQLite (WAL) under the data directory by default, PostgreSQL when a URL is given. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { MIGRATIONS, migrateToLatest } from './migrations.ts';
import type { Database } from './schema.ts';

export interface StoreConfig {
  dataDir: string;
  databaseUrl?: string | undefined;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openDb(config: StoreConfig): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Db['dialect'];
  if (config.databaseUrl) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server dropped (restart, failover): the pool opens a new one on next use,
    // and queries in flight fail on their own. Unhandled, this event would end the process.
    pool.on('error', () => {});
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    mkdirSync(config.dataDir, { recursive: true });
    const file = new SqliteDatabase(join(config.dataDir, 'coverage.sqlite'));
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = NORMAL');
    file.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  }
  await migrateToLatest(kysely, MIGRATIONS, dialect === 'postgres' ? await currentSchema(kysely) : undefined);
  return {
    kysely,
    dialect,
    async ping() {
      await kysely.selectFrom('api_keys').select('id').limit(1).execute();
    },
    close: () => kysely.destroy(),
  };
}

async function currentSchema(kysely: Kysely<Database>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(kysely);
  return rows[0]?.schema ?? undefined;
}
