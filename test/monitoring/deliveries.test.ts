/**
 * The delivery worker over the outbox: retries with the same webhook-id until the receiver takes
 * it, gives up after 24 h, refuses loopback at delivery time without the insecure flag, and two
 * workers sharing a store (PostgreSQL too) deliver each event once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newWebhookSecret } from '../../src/operations/monitoring/signature.ts';
import { DeliveryWorker } from '../../src/operations/monitoring/delivery-worker.ts';
import type { Db } from '../../src/store/db.ts';
import { newEventId, WebhookStore } from '../../src/store/webhooks.ts';
import { needsPostgres, postgresStore, sqliteStore, type TestStore } from '../support/stores.ts';
import { startReceiver, verifySignature, type Receiver } from './receiver.ts';
import { eventually } from '../helpers/eventually.ts';
import { clockAt } from '../helpers/clock.ts';

const event = (n = 0) => ({
  id: newEventId(),
  type: 'coverage.changed' as const,
  timestamp: new Date().toISOString(),
  data: { monitor_id: `mon_${n}`, changes: [] },
});

function worker(db: Db, opts: { allowInsecure?: boolean; now?: () => Date; baseMs?: number } = {}) {
  return new DeliveryWorker({
    queue: new WebhookStore(db),
    ...(opts.now ? { clock: clockAt(opts.now) } : {}),
    concurrency: 4,
    leaseMs: 30_000,
    pollMs: 20,
    timeoutMs: 2_000,
    backoff: { baseMs: opts.baseMs ?? 10, capMs: 50, giveUpAfterMs: 24 * 3_600_000 },
    allowInsecure: opts.allowInsecure ?? true,
  });
}

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());

for (const [name, open, skip] of [
  ['SQLite', sqliteStore, false],
  ['PostgreSQL', postgresStore, needsPostgres()],
] as const) {
  describe(`deliveries on ${name}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await open();
    });
    after(() => store.cleanup());

    test('a receiver that fails twice gets the event on the third try, with the same webhook-id and a valid signature each time', async () => {
      const db = await store.open();
      const hooks = new WebhookStore(db);
      const secret = newWebhookSecret();
      const hook = await hooks.create({ ownerId: 'o-retry', keyId: 'k', url: receiver.url, events: ['coverage.changed'], secret });
      receiver.received.length = 0;
      receiver.statuses.push(500, 503);
      const [id] = await hooks.enqueue(null, 'o-retry', event());
      const w = worker(db);
      w.start();
      await eventually('three attempts', () => receiver.received.length >= 3);
      await eventually('delivered', async () => (await hooks.delivery(hook.id, id!))?.state === 'delivered');
      await w.close();
      assert.equal(receiver.received.length, 3);
      assert.deepEqual(
        receiver.received.map((r) => r.headers['webhook-id']),
        [id, id, id],
      );
      for (const r of receiver.received) assert.ok(verifySignature(secret, r));
      const log = (await hooks.delivery(hook.id, id!))!;
      assert.equal(log.attempts, 3);
      assert.equal(log.last_status, 200);
      assert.equal(log.next_attempt_at, null);
    });

    test('a delivery still failing 24 h after its event is given up, and a redelivery sends it again with the same id', async () => {
      const db = await store.open();
      const hooks = new WebhookStore(db);
      const hook = await hooks.create({ ownerId: 'o-giveup', keyId: 'k', url: receiver.url, events: ['coverage.changed'], secret: newWebhookSecret() });
      let t = Date.now();
      const [id] = await hooks.enqueue(null, 'o-giveup', event(), undefined, new Date(t));
      receiver.received.length = 0;
      receiver.statuses.push(500);
      const w = worker(db, { now: () => new Date(t) });
      t += 25 * 3_600_000;
      w.wake();
      await eventually('given up', async () => (await hooks.delivery(hook.id, id!))?.state === 'failed');
      assert.equal((await hooks.delivery(hook.id, id!))!.last_status, 500);
      assert.ok(await hooks.redeliver(hook.id, id!, new Date(t)));
      w.wake();
      await eventually('delivered on redelivery', async () => (await hooks.delivery(hook.id, id!))?.state === 'delivered');
      assert.deepEqual(
        receiver.received.map((r) => r.headers['webhook-id']),
        [id, id],
      );
      await w.close();
    });

    test('without the insecure flag a loopback receiver is refused at delivery time too (nothing is sent)', async () => {
      const db = await store.open();
      const hooks = new WebhookStore(db);
      const hook = await hooks.create({
        ownerId: 'o-ssrf',
        keyId: 'k',
        url: receiver.url.replace('127.0.0.1', 'localhost'),
        events: ['coverage.changed'],
        secret: newWebhookSecret(),
      });
      receiver.received.length = 0;
      const [id] = await hooks.enqueue(null, 'o-ssrf', event());
      const w = worker(db, { allowInsecure: false, baseMs: 60_000 });
      w.wake();
      await eventually('the refused attempt', async () => ((await hooks.delivery(hook.id, id!))?.attempts ?? 0) >= 1);
      await w.close();
      const log = (await hooks.delivery(hook.id, id!))!;
      assert.equal(log.state, 'pending');
      assert.equal(log.last_status, null);
      assert.match(log.last_error ?? '', /http|loopback/);
      assert.equal(receiver.received.length, 0);
    });

    test('two workers sharing the store deliver each of 30 events once', async () => {
      const [dbA, dbB] = [await store.open(), await store.open()];
      const hooks = new WebhookStore(dbA);
      const hook = await hooks.create({ ownerId: 'o-two', keyId: 'k', url: receiver.url, events: ['coverage.changed'], secret: newWebhookSecret() });
      receiver.received.length = 0;
      const ids = new Set<string>();
      for (let i = 0; i < 30; i++) for (const id of await hooks.enqueue(null, 'o-two', event(i))) ids.add(id);
      const [a, b] = [worker(dbA), worker(dbB)];
      a.start();
      b.start();
      await eventually('30 deliveries', async () => (await hooks.deliveries(hook.id, 0, 100)).every((d) => d.state === 'delivered'));
      await Promise.all([a.close(), b.close()]);
      // (The loopback delivery of the test before is due again too: these workers allow loopback.)
      const mine = receiver.received.map((r) => String(r.headers['webhook-id'])).filter((id) => ids.has(id));
      assert.equal(mine.length, 30);
      assert.deepEqual(new Set(mine), ids);
      // The log keeps finished deliveries for a while (30 days by default), then they are purged; pending ones stay.
      const pending = (await hooks.enqueue(null, 'o-two', event(99)))[0]!;
      assert.equal((await hooks.purgeFinishedBefore(new Date('9999-12-31T00:00:00Z'))) >= 30, true);
      assert.deepEqual(
        (await hooks.deliveries(hook.id, 0, 100)).map((d) => d.id),
        [pending],
      );
    });
  });
}
