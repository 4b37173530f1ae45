/** Opens the store: SQLite (WAL) under the data directory by default, PostgreSQL when a URL is given. */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { MIGRATIONS, migrateToLatest } from './migrations.ts';
import type { Database } from './schema.ts';

export interface StoreConfig {
  dataDir: string;
  databaseUrl?: string | undefined;
  /**
   * SQLite: checkpoint the write-ahead log in a worker thread rather than on the committing
   * connection (checkpointer.ts), as the server does; short-lived commands leave it to SQLite.
   */
  checkpointInBackground?: boolean;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  /** The SQLite connection itself, for the few hot writes that reuse a prepared statement (audit.ts); null on PostgreSQL. */
  sqlite: SqliteDatabase.Database | null;
  /** The worker thread checkpointing the SQLite log, when checkpointInBackground asked for one. */
  checkpointer: Checkpointer | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openDb(config: StoreConfig): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Db['dialect'];
  let sqlite: Db['sqlite'] = null;
  let checkpointer: Checkpointer | null = null;
  if (config.databaseUrl) {
    dialect = 'postgres';
    // Loaded only for PostgreSQL: a SQLite start does without the driver.
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server dropped (restart, failover): the pool opens a new one on next use,
    // and queries in flight fail on their own. Unhandled, this event would end the process.
    pool.on('error', () => {});
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    const file = new SqliteDatabase(privateSqliteFile(config.dataDir));
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = NORMAL');
    file.pragma('busy_timeout = 5000');
    // SQLite's own default page cache (2 MB) rather than better-sqlite3's 16 MB: the audit trail only
    // grows, and every page an insert touched stayed cached, some 16 MB of resident memory after a
    // few minutes of checks (bench/RESULTS.md, figure 5). Reads beyond it come from the OS's cache.
    file.pragma('cache_size = -2000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
    sqlite = file;
  }
  await migrateToLatest(kysely, MIGRATIONS, dialect === 'postgres' ? await currentSchema(kysely) : undefined);
  if (sqlite && config.checkpointInBackground) checkpointer = await startCheckpointer(sqlite, sqlite.name);
  return {
    kysely,
    dialect,
    sqlite,
    checkpointer,
    async ping() {
      await kysely.selectFrom('api_keys').select('id').limit(1).execute();
    },
    async close() {
      // The worker's connection first: the last connection to close checkpoints what is left and removes the log.
      await checkpointer?.close();
      await kysely.destroy();
    },
  };
}

const SQLITE_FILE = 'coverage.sqlite';
/** SQLite's write-ahead log and shared-memory index, created next to the database with its mode. */
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'];

/**
 * The database holds member data, keys' hashes and the audit HMAC key: readable by this service's
 * user only. The directory is created 0700, the file 0600 before SQLite opens it (SQLite gives its
 * -wal and -shm files the database's mode). An existing directory is tightened when it is ours
 * (empty, as a volume mounted for us, or holding only the store): one shared with other files is left alone.
 */
export function privateSqliteFile(dataDir: string): string {
  const path = join(dataDir, SQLITE_FILE);
  const existed = existsSync(path);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if ((statSync(dataDir).mode & 0o077) !== 0 && readdirSync(dataDir).every((name) => name.startsWith(SQLITE_FILE))) chmodSync(dataDir, 0o700);
  if (!existed) closeSync(openSync(path, 'a', 0o600));
  for (const suffix of ['', ...SQLITE_SIDE_FILES]) {
    if (existsSync(path + suffix) && (statSync(path + suffix).mode & 0o077) !== 0) chmodSync(path + suffix, 0o600);
  }
  return path;
}

async function currentSchema(kysely: Kysely<Database>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(kysely);
  return rows[0]?.schema ?? undefined;
}
