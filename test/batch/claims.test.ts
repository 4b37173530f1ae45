/**
 * Row claims in the store, on SQLite and (when DATABASE_URL is set) PostgreSQL: instances sharing
 * a store never take the same row, a result is written only under the claim that holds the row,
 * and two runners on one store finish a batch together with each row done once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchCheck } from '../../src/domain/batch.ts';
import { BatchRunner, type QueuedRow } from '../../src/operations/batch-runner.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import { BatchStore, STAGING_MS } from '../../src/store/batches.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { onEachStore, withFreshStore, type TestStore } from '../support/stores.ts';
import type { Mode } from '../../src/domain/mode.ts';
import { eventually } from '../helpers/eventually.ts';
import { onDay } from '../helpers/clock.ts';

const check = (i: number): BatchCheck => ({
  endpoint: 'estimate',
  request: { member_id: `${i}MH${i % 5 === 0 ? 'MNF' : 'NA'}`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
});
const batchOf = (n: number, payerKeys: (i: number) => string = (i) => (i % 2 ? 'SBX-EVERGREEN' : 'SBX-HARBOR'), env: Mode = 'sandbox') => ({
  keyId: 'key_test',
  ownerId: 'key_test',
  env,
  source: 'json' as const,
  checks: Array.from({ length: n }, (_, i) => check(i + 1)),
  payerKeys: Array.from({ length: n }, (_, i) => payerKeys(i + 1)),
});
const inAMinute = () => new Date(Date.now() + 60_000);
const ok = { status: 200, error_code: null, body: { ok: true } };

onEachStore(
  (name) => name,
  (open) => {
    const withStore = (run: (store: TestStore) => Promise<void>) => withFreshStore(open, run);

    test('two instances claiming at once never take the same row', () =>
      withStore(async (store) => {
        const [a, b] = [new BatchStore(await store.open()), new BatchStore(await store.open())];
        const batch = await a.create(batchOf(300));
        const taken: string[][] = [[], []];
        await Promise.all(
          [a, b].map(async (s, n) => {
            for (let round = 0; ; round++) {
              const rows = [
                ...(await s.claim('sandbox', 'SBX-EVERGREEN', 7, `w${n}.${round}`, inAMinute())),
                ...(await s.claim('sandbox', 'SBX-HARBOR', 7, `w${n}.${round}`, inAMinute())),
              ];
              if (rows.length === 0) return;
              taken[n]!.push(...rows.map((r) => `${r.batch_id}.${r.row_no}`));
            }
          }),
        );
        const all = [...taken[0]!, ...taken[1]!];
        assert.equal(all.length, 300);
        assert.equal(new Set(all).size, 300, 'no row taken twice');
        assert.ok(all.every((id) => id.startsWith(batch.id)));
      }));

    test('claims take the lowest row numbers first across batches, so a small batch is not stuck behind a big one', () =>
      withStore(async (store) => {
        const s = new BatchStore(await store.open());
        const big = await s.create(batchOf(50, () => 'P'));
        const small = await s.create(batchOf(2, () => 'P'));
        const rows = await s.claim('sandbox', 'P', 4, 'c', inAMinute());
        assert.deepEqual(rows.map((r) => [r.batch_id === big.id ? 'big' : 'small', r.row_no]).sort(), [
          ['big', 1],
          ['big', 2],
          ['small', 1],
          ['small', 2],
        ]);
        assert.ok(small.id);
      }));

    test('a result is written once, and only under the claim that holds the row', () =>
      withStore(async (store) => {
        const s = new BatchStore(await store.open());
        const batch = await s.create(batchOf(1, () => 'P'));
        const [first] = await s.claim('sandbox', 'P', 1, 'slow-worker', new Date(Date.now() - 1));
        assert.equal(await s.reclaimExpired(), 1, 'the lease ran out: the row goes back');
        const [second] = await s.claim('sandbox', 'P', 1, 'next-worker', inAMinute());
        assert.equal(second!.row_no, first!.row_no);
        assert.equal(await s.complete(first!, { ...ok, body: { from: 'slow' } }, null), false, 'the old claim writes nothing');
        assert.equal(await s.complete(second!, { ...ok, body: { from: 'next' } }, null), true);
        assert.equal(await s.complete(second!, { ...ok, body: { from: 'again' } }, null), false, 'a done row is not written again');
        const rows = [];
        for await (const r of s.rows(batch.id)) rows.push(r);
        assert.deepEqual(
          rows.map((r) => [r.state, JSON.parse(r.result!).from]),
          [['done', 'next']],
        );
        const attempts = await (await store.open()).kysely.selectFrom('batch_rows').select('attempts').executeTakeFirstOrThrow();
        assert.equal(Number(attempts.attempts), 2);
      }));

    test('renewed leases are not taken back; released rows are', () =>
      withStore(async (store) => {
        const s = new BatchStore(await store.open());
        await s.create(batchOf(4, () => 'P'));
        await s.claim('sandbox', 'P', 2, 'alive', new Date(Date.now() - 1));
        await s.claim('sandbox', 'P', 2, 'stopping', inAMinute());
        await s.renew(['alive'], inAMinute());
        assert.equal(await s.reclaimExpired(), 0);
        assert.equal(await s.release(['stopping']), 2);
        assert.deepEqual(await s.pendingPayers('sandbox'), ['P']);
        assert.equal((await s.claim('sandbox', 'P', 10, 'later', inAMinute())).length, 2);
      }));

    test('old batches are purged with their rows', () =>
      withStore(async (store) => {
        const s = new BatchStore(await store.open());
        const old = await s.create(batchOf(3), new Date(Date.now() - 8 * 86_400_000));
        const fresh = await s.create(batchOf(3));
        assert.equal(await s.purgeCreatedBefore(new Date(Date.now() - 7 * 86_400_000)), 1);
        assert.equal(await s.get(old.id, 'key_test'), undefined);
        assert.ok(await s.get(fresh.id, 'key_test'));
        assert.equal(await s.unfinishedRows('key_test'), 3);
      }));

    test('a large batch is written in several transactions and appears whole: never part of it visible or claimed', () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const other = new BatchStore(await store.open());
        const seen: { batches: number; rows: number; claimed: number; get: boolean }[] = [];
        let id: string | undefined;
        // At each turn the creation hands back, another instance looks: no batch, no runnable row.
        const made = await s.create(
          batchOf(1_000, () => 'P'),
          new Date(),
          async () => {
            id ??= (await db.kysely.selectFrom('batches').select('id').executeTakeFirst())?.id;
            const rows = await db.kysely
              .selectFrom('batch_rows')
              .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
              .executeTakeFirst();
            seen.push({
              batches: id ? 1 : 0,
              rows: Number(rows?.n ?? 0),
              claimed: (await other.claim('sandbox', 'P', 5, 'early', inAMinute())).length,
              get: id !== undefined && (await other.get(id, 'key_test')) !== undefined,
            });
          },
        );
        assert.ok(
          seen.some((v) => v.rows > 0 && v.rows < 1_000),
          'rows were committed before the last ones were written',
        );
        assert.deepEqual(
          seen.filter((v) => v.claimed > 0 || v.get),
          [],
          'no row claimed and no batch visible before the last row was in',
        );
        assert.equal(made.id, id);
        assert.ok(await other.get(made.id, 'key_test'));
        assert.equal(await other.unfinishedRows('key_test'), 1_000);
        assert.equal((await other.claim('sandbox', 'P', 5, 'now', inAMinute())).length, 5);
      }));

    test('a large batch whose writing fails part way leaves nothing behind', () =>
      withStore(async (store) => {
        const db = await store.open();
        class FailingStore extends BatchStore {
          chunks = 0;
          protected override async insertRows(rows: Parameters<BatchStore['insertRows']>[0]): Promise<void> {
            if (++this.chunks === 3) throw new Error('disk full');
            await super.insertRows(rows);
          }
        }
        const s = new FailingStore(db);
        await assert.rejects(s.create(batchOf(1_000, () => 'P')), /disk full/);
        assert.equal(s.chunks, 3);
        assert.deepEqual(await db.kysely.selectFrom('batches').selectAll().execute(), []);
        assert.deepEqual(await db.kysely.selectFrom('batch_rows').select('row_no').execute(), []);
        assert.deepEqual(await s.claim('sandbox', 'P', 5, 'c', inAMinute()), []);
      }));

    test('a large batch whose process stopped part way is never run, and is deleted once its staging time has passed', () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const finished = await s.create(batchOf(3, () => 'P'));
        // The creation stops for good at its fifth turn: what a crash leaves in the store.
        let turns = 0;
        let stopped!: () => void;
        const atStop = new Promise<void>((resolve) => (stopped = resolve));
        void s.create(
          batchOf(1_000, () => 'P'),
          new Date(),
          () => {
            if (++turns < 5) return Promise.resolve();
            stopped();
            return new Promise<void>(() => {});
          },
        );
        await atStop;
        const other = new BatchStore(await store.open());
        const staged = await db.kysely.selectFrom('batches').select(['id', 'staged_until']).where('id', '!=', finished.id).executeTakeFirstOrThrow();
        assert.ok(staged.staged_until);
        assert.equal(await other.get(staged.id, 'key_test'), undefined);
        const claimed = await other.claim('sandbox', 'P', 100, 'c', inAMinute());
        assert.deepEqual(new Set(claimed.map((r) => r.batch_id)), new Set([finished.id]), "only the finished batch's rows run");
        assert.equal(await other.dropAbandoned(new Date()), 0, 'not before its staging time has passed');
        assert.equal(await other.dropAbandoned(new Date(Date.now() + STAGING_MS + 1_000)), 1);
        assert.deepEqual(await db.kysely.selectFrom('batches').select('id').execute(), [{ id: finished.id }]);
        const left = await db.kysely.selectFrom('batch_rows').select('batch_id').distinct().execute();
        assert.deepEqual(left, [{ batch_id: finished.id }]);
      }));

    test('two runners on one store finish a batch together, each row done once', () =>
      withStore(async (store) => {
        const clock = onDay('2026-06-15');
        const deps = { network: new SandboxNetwork({ clock }), clock, payerTimeoutMs: 5_000, scanTimeoutMs: 5_000 };
        const db = await store.open();
        // The batch's owner has a live key: rows of owners without one are cancelled, not run.
        await new KeyStore(db).create({ name: 'test', env: 'sandbox', owner_id: 'key_test' });
        const stores = [new BatchStore(db), new BatchStore(await store.open())];
        const batch = await stores[0]!.create(batchOf(200));
        const done = new Map<string, string>();
        let twice = 0;
        const runners = stores.map(
          (queue) =>
            new BatchRunner({
              deps,
              queue,
              env: 'sandbox',
              concurrency: 4,
              perPayer: 2,
              leaseMs: 10_000,
              pollMs: 20,
              retentionMs: 0,
              graceMs: 1_000,
              onRowDone: (row: QueuedRow) => {
                const id = `${row.batch_id}.${row.row_no}`;
                if (done.has(id)) twice++;
                done.set(id, row.claim.split('.')[0]!);
              },
            }),
        );
        for (const r of runners) r.start();
        try {
          await eventually('200 rows done', () => done.size >= 200);
        } finally {
          await Promise.all(runners.map((r) => r.close()));
        }
        assert.equal(done.size, 200);
        assert.equal(twice, 0);
        const workers = new Set(done.values());
        assert.equal(workers.size, 2, 'both runners took rows');
        const counts = await stores[0]!.counts(batch.id);
        assert.deepEqual(counts.map((c) => [c.state, c.status, c.count]).sort(), [
          ['done', 200, 160],
          ['done', 404, 40],
        ]);
      }));
  },
);
