/** Large audit batches on SQLite (the prepared multi-row INSERT): every record once, mixed column sets, retries ignored. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { AuditWriter, COMMIT_GROUP, type AuditEvent } from '../../src/store/audit.ts';
import { sqliteStore } from '../support/stores.ts';

const event = (i: number, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  request_id: randomUUID(),
  at: `2025-03-01T12:00:${String(i % 60).padStart(2, '0')}.000Z`,
  key_id: `key_${i % 3}`,
  endpoint: 'estimate',
  payer_id: i % 5 === 0 ? null : 'SBX-EVERGREEN',
  status: i % 7 === 0 ? 404 : 200,
  error_code: i % 7 === 0 ? 'MEMBER_NOT_FOUND' : null,
  latency_ms: i,
  member_hash: i % 11 === 0 ? null : 'ab'.repeat(32),
  user_id: i % 4 === 0 ? 'usr_1' : null,
  ...overrides,
});

/** A fresh SQLite store, closed and removed when the test ends. */
async function openSqlite(t: TestContext) {
  const store = await sqliteStore();
  const db = await store.open();
  t.after(async () => {
    await db.close();
    await store.cleanup();
  });
  return db;
}

test('hundreds of records, some without user_id, some written twice: each stored once, as recorded', async (t) => {
  const db = await openSqlite(t);
  const writer = new AuditWriter(db, { batchSize: 200, flushIntervalMs: 60_000 });
  const events: AuditEvent[] = [];
  for (let i = 0; i < 437; i++) {
    const e = event(i);
    // A record without user_id (checks made with a machine key may leave it out) breaks a run of one column set.
    if (i % 97 === 0) delete (e as { user_id?: unknown }).user_id;
    events.push(e);
    writer.record(e);
  }
  // A retried batch: records already written come again and must not fail or double.
  for (const e of events.slice(100, 160)) writer.record(e);
  await writer.close();
  const rows = await db.kysely.selectFrom('audit_events').selectAll().execute();
  assert.equal(rows.length, events.length);
  const byId = new Map(rows.map((r) => [r.request_id, r]));
  // Columns a record leaves out are null (the exchange columns: route, control and trace numbers, for checks that asked no payer).
  const absent = { user_id: null, route: null, control_number: null, trace_number: null };
  for (const e of events) assert.deepEqual({ ...byId.get(e.request_id) }, { ...absent, ...e }, e.request_id);
});

test('write(): a full commit group is committed at once, the rest of the turn waits for its end', async (t) => {
  const db = await openSqlite(t);
  const writer = new AuditWriter(db, { flushIntervalMs: 60_000 });
  const events = Array.from({ length: COMMIT_GROUP + 7 }, (_, i) => event(i));
  const answers = events.map((e) => writer.write(e));
  // The full group committed synchronously (better-sqlite3), the last seven wait for the turn to end.
  assert.equal(writer.queued, 7);
  assert.equal((await db.kysely.selectFrom('audit_events').select('request_id').execute()).length, COMMIT_GROUP);
  assert.deepEqual(await Promise.all(answers), Array(events.length).fill(true));
  assert.equal(writer.queued, 0);
  assert.equal((await db.kysely.selectFrom('audit_events').select('request_id').execute()).length, events.length);
  await writer.close();
});

test('write(): a store that fails is tried once per commit group, not once per record', async (t) => {
  const store = await sqliteStore();
  const db = await store.open();
  t.after(() => store.cleanup());
  const failures: number[] = [];
  const writer = new AuditWriter(db, { flushIntervalMs: 60_000, onError: (_err, info) => failures.push(info.queued) });
  await db.close();
  const answers = Array.from({ length: COMMIT_GROUP * 3 }, (_, i) => writer.write(event(i)));
  assert.deepEqual(await Promise.all(answers), Array(COMMIT_GROUP * 3).fill(false));
  // Three full groups and the end of the turn: at most four attempts for 150 records.
  assert.ok(failures.length >= 1 && failures.length <= 4, `${failures.length} attempts`);
  assert.equal(writer.queued, COMMIT_GROUP * 3, 'every record kept for retry');
});

test('the SQLite store keeps SQLite’s 2 MB page cache, not better-sqlite3’s 16 MB (the audit trail would fill it)', async (t) => {
  const db = await openSqlite(t);
  assert.equal(db.sqlite!.pragma('cache_size', { simple: true }), -2000);
});
