/**
 * Issue 39, item 2: `POST /v1/monitors/bulk` wrote all its monitors in one transaction, which on
 * SQLite's one connection held every other query (and the event loop at its commit) until the last
 * was in. A large upload is now written like a large batch (store/batches.ts): staged under an upload
 * record, in transactions of 250 monitors with turns between them, made visible all at once, and
 * deleted whole when it fails part way or is abandoned.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/store/db.ts';
import type { MonitorTable } from '../../src/store/monitor-tables.ts';
import { MonitorStore, STAGING_MS, type NewMonitor } from '../../src/store/monitors.ts';
import { WebhookStore } from '../../src/store/webhooks.ts';
import { eventually } from '../helpers/eventually.ts';
import { onEachStore } from '../support/stores.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

const monitorsOf = (owner: string, n: number): NewMonitor[] =>
  Array.from({ length: n }, (_, i) => ({
    ownerId: owner,
    keyId: 'k',
    env: 'sandbox' as const,
    payerKey: 'SBX-EVERGREEN',
    what: { request: { member_id: `${100000 + i}MHNA`, member_dob: '1980-01-01' }, reference: null },
    schedule: { appointments: ['2026-07-01'] },
    firstCheckAt: NOW,
  }));

/** A pause that lets a turn of the event loop pass, as the server's does. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every monitor row and upload record in the store, visible or not. */
async function written(db: Db): Promise<{ monitors: number; uploads: number }> {
  const count = async (table: 'monitors' | 'monitor_uploads') =>
    Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely)).rows[0]!.n);
  return { monitors: await count('monitors'), uploads: await count('monitor_uploads') };
}

/** A store whose n-th transaction of monitors fails. */
class FailingStore extends MonitorStore {
  calls = 0;
  constructor(
    db: Db,
    private readonly failAt: number,
  ) {
    super(db, new WebhookStore(db));
  }
  protected override async insertMonitors(rows: MonitorTable[]): Promise<void> {
    if (++this.calls === this.failAt) throw new Error('the disk is full');
    await super.insertMonitors(rows);
  }
}

onEachStore(
  (dialect) => `a bulk upload of monitors, on ${dialect}`,
  (newStore) => {
    test('1,000 monitors are written in transactions other queries run between, none visible until the last', async () => {
      const store = await newStore();
      try {
        const db = await store.open();
        const monitors = new MonitorStore(db, new WebhookStore(db));
        await monitors.createWithin(monitorsOf('other', 1), 10, NOW);
        const seen: { mine: number; others: number; listed: number }[] = [];
        let pauses = 0;
        const made = await monitors.createWithin(monitorsOf('o', 1_000), 5_000, NOW, async () => {
          await turn();
          // Part way through the writing: another request's queries are answered now, not after the last monitor.
          if (++pauses !== 6) return;
          let answer: (typeof seen)[number] | undefined;
          void Promise.all([monitors.count('o'), monitors.count('other'), monitors.list('o', 0, 10)]).then(
            ([mine, others, listed]) => (answer = { mine, others, listed: listed.length }),
          );
          seen.push(await eventually('queries sent between two slices answered before the upload ends', () => answer, { tries: 100 }));
        });
        assert.ok('made' in made && made.made.length === 1_000);
        assert.equal(seen.length, 1);
        assert.deepEqual(seen[0], { mine: 0, others: 1, listed: 0 }, 'the upload being written is not visible yet');
        assert.ok((await written(db)).monitors > 1, 'read part way through, some of its monitors were already written');
        assert.equal(await monitors.count('o'), 1_000);
        assert.deepEqual(await written(db), { monitors: 1_001, uploads: 0 });
        const [first] = await monitors.list('o', 0, 1);
        assert.ok(first && (await monitors.get(first.id, 'o')));
      } finally {
        await store.cleanup();
      }
    });

    test('a failure part way through leaves no monitor and no upload', async () => {
      const store = await newStore();
      try {
        const db = await store.open();
        const failing = new FailingStore(db, 3);
        await assert.rejects(failing.createWithin(monitorsOf('o', 1_000), 5_000, NOW, turn), /the disk is full/);
        assert.equal(failing.calls, 3, 'two transactions of monitors were written before the failure');
        assert.equal(await failing.count('o'), 0);
        assert.deepEqual(await written(db), { monitors: 0, uploads: 0 });
      } finally {
        await store.cleanup();
      }
    });

    test('an upload left part way (the process stopped) is never checked, and is deleted once its staging time has passed', async () => {
      const store = await newStore();
      try {
        const db = await store.open();
        const monitors = new MonitorStore(db, new WebhookStore(db));
        // The owner has a live key, so its visible monitors are checked.
        await db.kysely
          .insertInto('api_keys')
          .values({
            id: 'k',
            name: 'k',
            env: 'sandbox',
            prefix: 'cov_k',
            hash: 'h',
            rate_limit_per_minute: null,
            created_at: NOW.toISOString(),
            revoked_at: null,
            last_used_at: null,
            owner_id: 'o',
          })
          .execute();
        await monitors.create({ ...monitorsOf('o', 1)[0]!, payerKey: 'SBX-OTHER' }, NOW);
        // What a process stopped part way through createWithin leaves: the upload record, and some of its monitors.
        const upload = { id: 'mup_left', owner_id: 'o', staged_until: new Date(NOW.getTime() + STAGING_MS).toISOString() };
        await db.kysely.insertInto('monitor_uploads').values(upload).execute();
        const rows = monitorsOf('o', 300).map((m, i) => ({
          id: `mon_left_${i}`,
          owner_id: 'o',
          key_id: m.keyId,
          env: m.env,
          payer_key: m.payerKey,
          request: JSON.stringify(m.what),
          schedule: JSON.stringify(m.schedule),
          created_at: NOW.toISOString(),
          next_check_at: NOW.toISOString(),
          claimed_by: null,
          lease_until: null,
          checks: 0,
          last_check: null,
          snapshot: null,
          upload_id: upload.id,
        }));
        await db.kysely.insertInto('monitors').values(rows).execute();
        assert.equal(await monitors.count('o'), 1);
        assert.deepEqual(await monitors.duePayers('sandbox', NOW), ['SBX-OTHER']);
        assert.deepEqual(await monitors.claimDue('sandbox', 'SBX-EVERGREEN', 10, 'claim', new Date(NOW.getTime() + 60_000), NOW), []);
        assert.equal(await monitors.get('mon_left_0', 'o'), undefined);
        assert.equal(await monitors.dropAbandoned(new Date(NOW.getTime() + STAGING_MS - 1)), 0);
        assert.equal(await monitors.dropAbandoned(new Date(NOW.getTime() + STAGING_MS + 1)), 1);
        assert.deepEqual(await written(db), { monitors: 1, uploads: 0 });
        assert.deepEqual(await monitors.duePayers('sandbox', NOW), ['SBX-OTHER']);
      } finally {
        await store.cleanup();
      }
    });

    test('large uploads sent at once cannot together pass the limit; the refused one leaves nothing', async () => {
      const store = await newStore();
      try {
        const db = await store.open();
        const monitors = new MonitorStore(db, new WebhookStore(db));
        const answers = await Promise.all([
          monitors.createWithin(monitorsOf('o', 300), 500, NOW, turn),
          monitors.createWithin(monitorsOf('o', 300), 500, NOW, turn),
        ]);
        assert.equal(answers.filter((a) => 'made' in a).length, 1, JSON.stringify(answers.map((a) => ('count' in a ? a : 'made'))));
        assert.deepEqual(
          answers.find((a) => 'count' in a),
          { count: 300 },
        );
        assert.equal(await monitors.count('o'), 300);
        assert.deepEqual(await written(db), { monitors: 300, uploads: 0 });
      } finally {
        await store.cleanup();
      }
    });
  },
);
