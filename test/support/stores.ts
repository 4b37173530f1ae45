/**
 * Fresh stores for tests: a temporary SQLite directory, or a uniquely named PostgreSQL schema
 * (search_path set through the URL) so parallel runs on one database never meet.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import { openDb, type Db } from '../../src/store/db.ts';
import { KeyStore } from '../../src/store/keys.ts';

export const DATABASE_URL = process.env.DATABASE_URL || undefined;
export const REDIS_URL = process.env.REDIS_URL || undefined;
/** For `skip` (helpers/needs.ts: under CI a missing service fails instead). */
import { needsPostgres } from '../helpers/needs.ts';

export { needsPostgres, needsPostgresAndRedis } from '../helpers/needs.ts';

/** One store, opened as often as a test likes (each open is another instance of the same store). */
export interface TestStore {
  /** What the server and CLI read: COVERAGE_DATA_DIR or DATABASE_URL. */
  env: { COVERAGE_DATA_DIR: string; DATABASE_URL?: string };
  open(): Promise<Db>;
  /** Closes what open() opened and removes the store. */
  cleanup(): Promise<void>;
}

function tracked(env: TestStore['env'], remove: () => Promise<void>): TestStore {
  const opened: Db[] = [];
  return {
    env,
    async open() {
      const db = await openDb({ dataDir: env.COVERAGE_DATA_DIR, databaseUrl: env.DATABASE_URL });
      opened.push(db);
      return db;
    },
    async cleanup() {
      await Promise.allSettled(opened.map((db) => db.close()));
      await remove();
    },
  };
}

/** A sandbox API key created in the store (for a server started on it): its secret. */
export async function sandboxKey(store: TestStore, name: string, ratePerMinute: number): Promise<string> {
  const db = await store.open();
  try {
    return (await new KeyStore(db).create({ name, env: 'sandbox', rate_limit_per_minute: ratePerMinute })).secret;
  } finally {
    await db.close();
  }
}

export async function sqliteStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-store-'));
  return tracked({ COVERAGE_DATA_DIR: dir }, async () => rmSync(dir, { recursive: true, force: true }));
}

export async function postgresStore(): Promise<TestStore> {
  if (!DATABASE_URL) throw new Error('DATABASE_URL not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dir = mkdtempSync(join(tmpdir(), 'coverage-store-'));
  return tracked({ COVERAGE_DATA_DIR: dir, DATABASE_URL: url.toString() }, async () => {
    await admin(`drop schema ${schema} cascade`);
    rmSync(dir, { recursive: true, force: true });
  });
}

/** Runs `run` on a fresh store from `newStore`, and removes the store after, however `run` ends. */
export async function withFreshStore(newStore: () => Promise<TestStore>, run: (store: TestStore) => Promise<void>): Promise<void> {
  const store = await newStore();
  try {
    await run(store);
  } finally {
    await store.cleanup();
  }
}

export type Dialect = 'SQLite' | 'PostgreSQL';

/**
 * Runs `suite` once per store, each inside a `describe` titled `title(dialect)`: on SQLite always, and
 * on PostgreSQL when DATABASE_URL is set (skipped with the reason otherwise; under CI, a failing test).
 * `newStore` gives the suite a fresh store of that dialect each time it is called.
 */
export function onEachStore(title: (dialect: Dialect) => string, suite: (newStore: () => Promise<TestStore>, dialect: Dialect) => void): void {
  const stores: [Dialect, () => Promise<TestStore>, () => string | false][] = [
    ['SQLite', sqliteStore, () => false],
    ['PostgreSQL', postgresStore, needsPostgres],
  ];
  for (const [dialect, newStore, skip] of stores) describe(title(dialect), { skip: skip() }, () => suite(newStore, dialect));
}
