/**
 * Issue 17, finding 5, in the store (SQLite and, when DATABASE_URL is set, PostgreSQL): the rows
 * of a revoked key's batches are cancelled, a rotated key's successor keeps them, a console
 * person's batches run while the person is active, and a batch is cancelled on request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchCheck } from '../../src/domain/batch.ts';
import { BatchStore } from '../../src/store/batches.ts';
import { KeyStore, ownerOf } from '../../src/store/keys.ts';
import { onEachStore, withFreshStore, type TestStore } from '../support/stores.ts';

const check = (i: number): BatchCheck => ({
  endpoint: 'estimate',
  request: { member_id: `${i}MHNA`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
});
const batchOf = (n: number, keyId: string, ownerId: string, payer = 'P') => ({
  keyId,
  ownerId,
  env: 'sandbox' as const,
  source: 'json' as const,
  checks: Array.from({ length: n }, (_, i) => check(i + 1)),
  payerKeys: Array.from({ length: n }, () => payer),
});
const inAMinute = () => new Date(Date.now() + 60_000);

async function states(s: BatchStore, id: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const c of await s.counts(id)) out[c.state] = (out[c.state] ?? 0) + c.count;
  return out;
}

onEachStore(
  (name) => name,
  (open) => {
    const withStore = (run: (store: TestStore) => Promise<void>) => withFreshStore(open, run);

    test("a revoked key's waiting rows are cancelled; its running rows finish", () =>
      withStore(async (store) => {
        const db = await store.open();
        const keys = new KeyStore(db);
        const s = new BatchStore(db);
        const { key } = await keys.create({ name: 'front desk', env: 'sandbox' });
        const { key: other } = await keys.create({ name: 'billing', env: 'sandbox' });
        const batch = await s.create(batchOf(6, key.id, ownerOf(key)));
        const kept = await s.create(batchOf(2, other.id, ownerOf(other), 'Q'));
        const [running] = await s.claim('sandbox', 'P', 1, 'c', inAMinute());
        assert.equal(running!.batch_id, batch.id);
        assert.equal(await s.cancelOrphaned(), 0, 'a live key: nothing to cancel');
        await keys.revoke(key.id);
        assert.equal(await s.cancelOrphaned(), 5);
        assert.deepEqual(await states(s, batch.id), { running: 1, cancelled: 5 });
        assert.equal(await s.complete(running!, { status: 200, error_code: null, body: {} }, null), true, 'the row in progress still writes its result');
        assert.deepEqual(await states(s, kept.id), { pending: 2 }, "another key's batch is untouched");
        assert.equal(await s.unfinishedRows(ownerOf(key)), 0);
      }));

    test("a rotated key's batches go on, reachable by the new key; a namesake key is another owner", () =>
      withStore(async (store) => {
        const db = await store.open();
        const keys = new KeyStore(db);
        const s = new BatchStore(db);
        const { key } = await keys.create({ name: 'front desk', env: 'sandbox' });
        const batch = await s.create(batchOf(3, key.id, ownerOf(key)));
        const rotated = (await keys.rotate(key.id))!;
        const again = (await keys.rotate(rotated.key.id))!;
        assert.equal(ownerOf(again.key), key.id, 'ownership passes down the rotations');
        assert.equal(await s.cancelOrphaned(), 0);
        assert.equal((await s.get(batch.id, ownerOf(again.key)))?.id, batch.id);
        const { key: namesake } = await keys.create({ name: 'front desk', env: 'sandbox' });
        assert.equal(await s.get(batch.id, ownerOf(namesake)), undefined);
        await keys.revoke(again.key.id);
        assert.equal(await s.cancelOrphaned(), 3, 'revoking the current key of the line cancels');
      }));

    test("a console person's batches run while the person is active, and are cancelled once disabled", () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const at = new Date().toISOString();
        await db.kysely
          .insertInto('users')
          .values({
            id: 'usr_alice',
            username: 'alice',
            env: 'sandbox',
            password_hash: 'x',
            totp_secret: null,
            totp_last_step: null,
            failed_attempts: 0,
            locked_until: null,
            created_at: at,
            password_changed_at: at,
            disabled_at: null,
            last_sign_in_at: null,
          })
          .execute();
        const batch = await s.create({ ...batchOf(2, 'usr_alice', 'usr_alice'), userId: 'usr_alice' });
        assert.equal(await s.cancelOrphaned(), 0);
        const [row] = await s.claim('sandbox', 'P', 1, 'c', inAMinute());
        assert.equal(row!.user_id, 'usr_alice', 'the person goes with the row, for its audit record');
        await db.kysely.updateTable('users').set({ disabled_at: at }).where('id', '=', 'usr_alice').execute();
        assert.equal(await s.cancelOrphaned(), 1);
        assert.deepEqual(await states(s, batch.id), { running: 1, cancelled: 1 });
      }));

    test('cancel: waiting rows end cancelled with a time, running and done rows keep going; the results select them', () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const batch = await s.create(batchOf(5, 'k', 'k'));
        const [first, second] = await s.claim('sandbox', 'P', 2, 'c', inAMinute());
        await s.complete(first!, { status: 200, error_code: null, body: {} }, null);
        assert.equal(await s.cancel(batch.id), 3);
        assert.equal(await s.cancel(batch.id), 0, 'twice is harmless');
        assert.deepEqual(await states(s, batch.id), { done: 1, running: 1, cancelled: 3 });
        assert.deepEqual((await s.claim('sandbox', 'P', 10, 'd', inAMinute())).length, 0, 'no cancelled row is claimed');
        assert.equal(await s.complete(second!, { status: 200, error_code: null, body: {} }, null), true);
        const cancelled = [];
        for await (const r of s.rows(batch.id, { outcome: 'CANCELLED' })) cancelled.push(r.row_no);
        assert.deepEqual(cancelled, [3, 4, 5]);
        const pending = [];
        for await (const r of s.rows(batch.id, { outcome: 'PENDING' })) pending.push(r.row_no);
        assert.deepEqual(pending, []);
        assert.ok(await s.lastFinishedAt(batch.id));
      }));
  },
);
