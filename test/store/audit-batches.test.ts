/** Large audit batches on SQLite (the prepared multi-row INSERT): every record once, mixed column sets, retries ignored. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { AuditWriter, type AuditEvent } from '../../src/store/audit.ts';
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

test('hundreds of records, some without user_id, some written twice: each stored once, as recorded', async (t) => {
  const store = await sqliteStore();
  const db = await store.open();
  t.after(async () => {
    await db.close();
    await store.cleanup();
  });
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
