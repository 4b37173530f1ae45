/**
 * Scheduled checks on SQLite and PostgreSQL with an injected clock: the due time is in the store
 * (a restart loses no check), a lapsed claim is taken over and the late writer writes nothing, two
 * runners never check one monitor twice, per-payer pacing holds across runners, the off-hours
 * window holds checks, and a check across a plan boundary raises one coverage.changed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCheckWindow } from '../../src/domain/monitoring/schedule.ts';
import { MonitorRunner } from '../../src/operations/monitoring/monitor-runner.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import type { Db } from '../../src/store/db.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { MonitorStore } from '../../src/store/monitors.ts';
import { WebhookStore } from '../../src/store/webhooks.ts';
import { needsPostgres, postgresStore, sqliteStore, withFreshStore, type TestStore } from '../support/stores.ts';
import { clockAt } from '../helpers/clock.ts';

const avery = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
};
const T0 = new Date('2026-06-15T10:00:00Z');
const HOUR = 3_600_000;

function clock(start: Date) {
  let t = start.getTime();
  return { now: () => new Date(t), today: () => new Date(t).toISOString().slice(0, 10), set: (d: Date) => (t = d.getTime()) };
}

function stores(db: Db) {
  const webhooks = new WebhookStore(db);
  return { webhooks, monitors: new MonitorStore(db, webhooks) };
}

function runner(db: Db, c: ReturnType<typeof clock>, opts: { payerIntervalMs?: number; window?: string; leaseMs?: number } = {}) {
  const clock = clockAt(c.now);
  const deps = { network: new SandboxNetwork({ clock }), clock, payerTimeoutMs: 5_000, scanTimeoutMs: 5_000 };
  return new MonitorRunner({
    deps,
    queue: stores(db).monitors,
    env: 'sandbox',
    concurrency: 8,
    payerIntervalMs: opts.payerIntervalMs ?? 0,
    window: parseCheckWindow(opts.window),
    leaseMs: opts.leaseMs ?? 60_000,
    pollMs: 60_000,
  });
}

/** The owner of the monitors: a live key (the owner of a revoked key's monitors is not checked). */
const OWNER = 'owner1';
async function ensureOwner(db: Db): Promise<void> {
  const keys = new KeyStore(db);
  if (!(await db.kysely.selectFrom('api_keys').select('id').where('owner_id', '=', OWNER).executeTakeFirst()))
    await keys.create({ name: 'practice', env: 'sandbox', owner_id: OWNER });
}

async function createMonitor(db: Db, firstCheckAt: Date, schedule: object = { every_days: 200 }, payerKey = 'SBX-EVERGREEN') {
  await ensureOwner(db);
  return stores(db).monitors.create(
    { ownerId: OWNER, keyId: 'key1', env: 'sandbox', payerKey, what: { request: avery, reference: null }, schedule, firstCheckAt },
    firstCheckAt,
  );
}

const checksOf = async (db: Db, id: string) => (await stores(db).monitors.get(id, OWNER))!;

for (const [name, open, skip] of [
  ['SQLite', sqliteStore, false],
  ['PostgreSQL', postgresStore, needsPostgres()],
] as const) {
  describe(`scheduled checks on ${name}`, { skip }, () => {
    const withStore = (run: (store: TestStore) => Promise<void>) => withFreshStore(open, run);

    test('a restart loses no scheduled check, and a check across a plan boundary raises one coverage.changed', () =>
      withStore(async (store) => {
        const db1 = await store.open();
        const hook = await stores(db1).webhooks.create({
          ownerId: 'owner1',
          keyId: 'key1',
          url: 'https://203.0.113.9/hook',
          events: ['coverage.changed'],
          secret: 'whsec_AAAA',
        });
        const m = await createMonitor(db1, T0);
        const c = clock(new Date(T0.getTime() - HOUR));
        const early = runner(db1, c);
        await early.runDue();
        assert.equal((await checksOf(db1, m.id)).checks, 0, 'not due yet');
        await early.close();
        await db1.close();

        const db2 = await store.open();
        c.set(new Date(T0.getTime() + 60_000));
        const after = runner(db2, c);
        await after.runDue();
        const first = await checksOf(db2, m.id);
        assert.equal(first.checks, 1, 'the check due while no instance ran is made after the restart');
        assert.equal(first.next_check_at, new Date(T0.getTime() + 60_000 + 200 * 24 * HOUR).toISOString());
        assert.equal(first.last_check!.status, 200);

        c.set(new Date('2027-01-05T12:00:00Z'));
        await after.runDue();
        const second = await checksOf(db2, m.id);
        assert.equal(second.checks, 2);
        const fields = second.last_check!.changes.map((ch) => ch.field);
        assert.ok(fields.includes('plan_begin_date') && fields.includes('plan_end_date'), fields.join());
        assert.deepEqual(
          second.last_check!.changes.find((ch) => ch.field === 'plan_begin_date'),
          { field: 'plan_begin_date', old: '2026-01-01', new: '2027-01-01' },
        );
        const deliveries = await stores(db2).webhooks.deliveries(hook.id, 0, 10);
        assert.deepEqual(
          deliveries.map((d) => d.event_type),
          ['coverage.changed'],
        );
        await after.close();
      }));

    test("a check whose worker died is made by another once its lease ends; the dead worker's late write is refused", () =>
      withStore(async (store) => {
        const db = await store.open();
        const m = await createMonitor(db, T0);
        const { monitors } = stores(db);
        const [claimed] = await monitors.claimDue('sandbox', 'SBX-EVERGREEN', 1, 'dead.1', new Date(T0.getTime() + 60_000), T0);
        assert.equal(claimed!.id, m.id);
        const c = clock(new Date(T0.getTime() + 30_000));
        const other = runner(db, c);
        await other.runDue();
        assert.equal((await checksOf(db, m.id)).checks, 0, 'held by the live lease');
        c.set(new Date(T0.getTime() + 61_000));
        await other.runDue();
        assert.equal((await checksOf(db, m.id)).checks, 1);
        const late = await monitors.recordCheck(
          m,
          {
            last: { at: T0.toISOString(), status: 200, error_code: null, plan_status: null, member_obligation: null, changes: [] },
            snapshot: null,
            events: [],
          },
          { claim: 'dead.1', nextCheckAt: null },
        );
        assert.equal(late, false);
        assert.equal((await checksOf(db, m.id)).checks, 1);
        await other.close();
      }));

    test('two runners sharing the store check each due monitor once', () =>
      withStore(async (store) => {
        const [dbA, dbB] = [await store.open(), await store.open()];
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) ids.push((await createMonitor(dbA, T0, { every_days: 30 }, `PAYER-${i % 3}`)).id);
        const c = clock(new Date(T0.getTime() + 1_000));
        const [a, b] = [runner(dbA, c), runner(dbB, c)];
        await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
        for (const id of ids) assert.equal((await checksOf(dbA, id)).checks, 1, id);
        await Promise.all([a.close(), b.close()]);
      }));

    test('per-payer pacing holds across runners; the off-hours window holds checks until it opens', () =>
      withStore(async (store) => {
        const [dbA, dbB] = [await store.open(), await store.open()];
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push((await createMonitor(dbA, T0, { every_days: 30 })).id);
        const c = clock(new Date(T0.getTime() + 1_000));
        const [a, b] = [runner(dbA, c, { payerIntervalMs: HOUR }), runner(dbB, c, { payerIntervalMs: HOUR })];
        const total = async () => (await Promise.all(ids.map((id) => checksOf(dbA, id)))).reduce((n, m) => n + m.checks, 0);
        await Promise.all([a.runDue(), b.runDue()]);
        assert.equal(await total(), 1, 'one check to the payer per interval, whichever runner');
        c.set(new Date(T0.getTime() + HOUR / 2));
        await Promise.all([a.runDue(), b.runDue()]);
        assert.equal(await total(), 1);
        c.set(new Date(T0.getTime() + HOUR + 2_000));
        await Promise.all([a.runDue(), b.runDue()]);
        assert.equal(await total(), 2);
        await Promise.all([a.close(), b.close()]);

        const night = await createMonitor(dbA, T0, { every_days: 30 }, 'NIGHT-PAYER');
        const windowed = runner(dbA, c, { window: '22:00-06:00' });
        c.set(new Date('2026-06-15T12:00:00Z'));
        await windowed.runDue();
        assert.equal((await checksOf(dbA, night.id)).checks, 0, 'outside the window');
        c.set(new Date('2026-06-15T23:00:00Z'));
        await windowed.runDue();
        assert.equal((await checksOf(dbA, night.id)).checks, 1, 'inside the window');
        await windowed.close();
      }));

    test("a revoked key's monitors are not checked; a rotated key's successor keeps them going", () =>
      withStore(async (store) => {
        const db = await store.open();
        const m = await createMonitor(db, T0);
        const keys = new KeyStore(db);
        const key = (await db.kysely.selectFrom('api_keys').select('id').where('owner_id', '=', OWNER).executeTakeFirstOrThrow()).id;
        await keys.rotate(key);
        const c = clock(new Date(T0.getTime() + 1_000));
        const r = runner(db, c);
        await r.runDue();
        assert.equal((await checksOf(db, m.id)).checks, 1, 'the rotated key owns it');
        await db.kysely.updateTable('api_keys').set({ revoked_at: T0.toISOString() }).where('owner_id', '=', OWNER).execute();
        c.set(new Date(T0.getTime() + 300 * 24 * HOUR));
        await r.runDue();
        assert.equal((await checksOf(db, m.id)).checks, 1, 'every key of the owner revoked: no more checks');
        await r.close();
      }));
  });
}
