/**
 * Issue 17, finding 3: batch rows did not record their mode, so a sandbox instance sharing the
 * store answered a production batch with catalog data. Rows carry their key's environment and a
 * runner claims only its own; on SQLite and (when DATABASE_URL is set) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import type { BatchCheck } from '../../src/domain/batch.ts';
import type { Mode } from '../../src/domain/mode.ts';
import { BatchRunner, type QueuedRow } from '../../src/operations/batch-runner.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import { BatchStore } from '../../src/store/batches.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { MIGRATIONS, migrateToLatest } from '../../src/store/migrations.ts';
import { onEachStore, withFreshStore, type TestStore } from '../support/stores.ts';
import { eventually } from '../helpers/eventually.ts';
import { onDay } from '../helpers/clock.ts';

const check = (i: number): BatchCheck => ({
  endpoint: 'estimate',
  request: { member_id: `${i}MHNA`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
});
const batchOf = (n: number, env: Mode, ownerId: string) => ({
  keyId: ownerId,
  ownerId,
  env,
  source: 'json' as const,
  checks: Array.from({ length: n }, (_, i) => check(i + 1)),
  payerKeys: Array.from({ length: n }, () => 'SBX-EVERGREEN'),
});
const inAMinute = () => new Date(Date.now() + 60_000);

/** The store as it was before batches had a mode: migrations up to 0004 only. */
async function oldSchema(store: TestStore): Promise<Kysely<any>> {
  const db = store.env.DATABASE_URL
    ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.env.DATABASE_URL, max: 1 }) }) })
    : new Kysely<any>({ dialect: new SqliteDialect({ database: new SqliteDatabase(join(store.env.COVERAGE_DATA_DIR, 'coverage.sqlite')) }) });
  const upTo4 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0005'));
  const schema = store.env.DATABASE_URL ? new URL(store.env.DATABASE_URL).searchParams.get('options')!.split('=')[1] : undefined;
  await migrateToLatest(db, upTo4, schema);
  return db;
}

onEachStore(
  (name) => name,
  (open) => {
    const withStore = (run: (store: TestStore) => Promise<void>) => withFreshStore(open, run);

    test('a production runner never claims a sandbox batch, nor a sandbox runner a production one', () =>
      withStore(async (store) => {
        const s = new BatchStore(await store.open());
        const sandbox = await s.create(batchOf(5, 'sandbox', 'owner_s'));
        const production = await s.create(batchOf(5, 'production', 'owner_p'));
        assert.deepEqual(await s.pendingPayers('production'), ['SBX-EVERGREEN']);
        const prod = await s.claim('production', 'SBX-EVERGREEN', 100, 'prod-runner', inAMinute());
        assert.deepEqual([...new Set(prod.map((r) => r.batch_id))], [production.id]);
        assert.equal(prod.length, 5);
        assert.deepEqual(await s.pendingPayers('production'), [], 'no production rows left; the sandbox rows are not its');
        const sbx = await s.claim('sandbox', 'SBX-EVERGREEN', 100, 'sandbox-runner', inAMinute());
        assert.deepEqual([...new Set(sbx.map((r) => r.batch_id))], [sandbox.id]);
        assert.equal(sbx.length, 5);
      }));

    test('two runners of different modes on one store each finish only their own mode’s batch', () =>
      withStore(async (store) => {
        const db = await store.open();
        const keys = new KeyStore(db);
        const sandboxKey = (await keys.create({ name: 'front desk', env: 'sandbox' })).key;
        const productionKey = (await keys.create({ name: 'front desk', env: 'production' })).key;
        const s = new BatchStore(db);
        const sandbox = await s.create(batchOf(30, 'sandbox', sandboxKey.id));
        const production = await s.create(batchOf(30, 'production', productionKey.id));
        const clock = onDay('2026-06-15');
        const deps = { network: new SandboxNetwork({ clock }), clock, payerTimeoutMs: 5_000, scanTimeoutMs: 5_000 };
        const ranBy = new Map<string, Mode>();
        const runners = (['sandbox', 'production'] as const).map(
          (env) =>
            new BatchRunner({
              deps,
              queue: new BatchStore(db),
              env,
              concurrency: 4,
              perPayer: 4,
              leaseMs: 10_000,
              pollMs: 20,
              retentionMs: 0,
              graceMs: 1_000,
              onRowDone: (row: QueuedRow) => ranBy.set(`${row.batch_id}.${row.row_no}`, env),
            }),
        );
        for (const r of runners) r.start();
        try {
          await eventually('60 rows run', () => ranBy.size >= 60);
        } finally {
          await Promise.all(runners.map((r) => r.close()));
        }
        assert.equal(ranBy.size, 60);
        for (const [id, env] of ranBy) assert.equal(env, id.startsWith(sandbox.id) ? 'sandbox' : 'production', id);
        assert.ok([...ranBy.keys()].some((id) => id.startsWith(production.id)));
      }));

    test('existing batches take their key’s environment at migration; a batch whose key is gone is never run', () =>
      withStore(async (store) => {
        const old = await oldSchema(store);
        const at = new Date().toISOString();
        try {
          await old
            .insertInto('api_keys')
            .values({ id: 'key_live', name: 'old', env: 'production', prefix: 'cov_live_abc', hash: 'a'.repeat(64), created_at: at })
            .execute();
          for (const [id, key] of [
            ['bat_prod', 'key_live'],
            ['bat_orphan', 'key_gone'],
          ]) {
            await old.insertInto('batches').values({ id, key_id: key, source: 'json', total: 1, created_at: at }).execute();
            await old
              .insertInto('batch_rows')
              .values({ batch_id: id, row_no: 1, key_id: key, endpoint: 'estimate', payer_key: 'SBX-EVERGREEN', request: '{}', state: 'pending', attempts: 0 })
              .execute();
          }
        } finally {
          await old.destroy();
        }
        const db = await store.open();
        const s = new BatchStore(db);
        const rows = await db.kysely.selectFrom('batch_rows').select(['batch_id', 'env', 'owner_id']).orderBy('batch_id').execute();
        assert.deepEqual(rows, [
          { batch_id: 'bat_orphan', env: 'unknown', owner_id: 'key_gone' },
          { batch_id: 'bat_prod', env: 'production', owner_id: 'key_live' },
        ]);
        assert.equal((await s.get('bat_prod', 'key_live'))?.env, 'production');
        assert.equal((await new KeyStore(db).get('key_live'))?.owner_id, 'key_live', 'an existing key is its own owner');
        assert.deepEqual(await s.claim('sandbox', 'SBX-EVERGREEN', 10, 'c', inAMinute()), [], 'a sandbox runner takes neither');
        assert.deepEqual(
          (await s.claim('production', 'SBX-EVERGREEN', 10, 'c', inAMinute())).map((r) => r.batch_id),
          ['bat_prod'],
        );
        assert.equal(await s.cancelOrphaned(), 1, 'the batch with no key ends cancelled');
      }));
  },
);
