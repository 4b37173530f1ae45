/**
 * Issue 17, finding 4: finished batch rows could have a result but no audit record (the record
 * waited in memory and died with a killed process). A row's audit record is now written in the
 * transaction of its result: both or neither. On SQLite and (when DATABASE_URL is set) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchCheck, RowAudit } from '../../src/domain/batch.ts';
import { BatchRunner } from '../../src/operations/batch-runner.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import { BatchStore } from '../../src/store/batches.ts';
import type { Db } from '../../src/store/db.ts';
import { KeyStore } from '../../src/store/keys.ts';
import { onEachStore, withFreshStore, type TestStore } from '../support/stores.ts';
import { eventually } from '../helpers/eventually.ts';
import { onDay } from '../helpers/clock.ts';

const check = (i: number): BatchCheck => ({
  endpoint: 'estimate',
  request: { member_id: `${i}MH${i % 4 === 0 ? 'MNF' : 'NA'}`, member_first_name: '', member_last_name: '', member_dob: '1980-01-01' },
});
const batchOf = (n: number, ownerId: string) => ({
  keyId: ownerId,
  ownerId,
  env: 'sandbox' as const,
  source: 'json' as const,
  checks: Array.from({ length: n }, (_, i) => check(i + 1)),
  payerKeys: Array.from({ length: n }, (_, i) => (i % 2 ? 'SBX-EVERGREEN' : 'SBX-HARBOR')),
});
const audit = (status: number): RowAudit => ({
  at: new Date().toISOString(),
  endpoint: 'estimate',
  payer_id: null,
  status,
  error_code: null,
  latency_ms: 1,
  member_hash: null,
});
const inAMinute = () => new Date(Date.now() + 60_000);

async function countOf(db: Db, batchId: string) {
  const results = await db.kysely.selectFrom('batch_rows').select('row_no').where('batch_id', '=', batchId).where('state', '=', 'done').execute();
  const audits = await db.kysely.selectFrom('audit_events').select('request_id').where('request_id', 'like', `${batchId}.%`).execute();
  return { results: results.map((r) => `${batchId}.${r.row_no}`).sort(), audits: audits.map((a) => a.request_id).sort() };
}

onEachStore(
  (name) => name,
  (open) => {
    const withStore = (run: (store: TestStore) => Promise<void>) => withFreshStore(open, run);

    test('rows completed by a runner: as many audit records as results, the same rows, each once', () =>
      withStore(async (store) => {
        const db = await store.open();
        const { key } = await new KeyStore(db).create({ name: 'front desk', env: 'sandbox' });
        const s = new BatchStore(db);
        const batch = await s.create(batchOf(80, key.id));
        const clock = onDay('2026-06-15');
        const runner = new BatchRunner({
          deps: { network: new SandboxNetwork({ clock }), clock, payerTimeoutMs: 5_000, scanTimeoutMs: 5_000 },
          queue: s,
          env: 'sandbox',
          concurrency: 8,
          perPayer: 4,
          leaseMs: 10_000,
          pollMs: 20,
          retentionMs: 0,
          graceMs: 1_000,
          auditOf: (row, outcome, latencyMs) => ({ ...audit(outcome.result.status), endpoint: row.endpoint, latency_ms: Math.round(latencyMs) }),
        });
        runner.start();
        try {
          await eventually('80 results', async () => (await countOf(db, batch.id)).results.length >= 80);
        } finally {
          await runner.close();
        }
        const { results, audits } = await countOf(db, batch.id);
        assert.equal(results.length, 80);
        assert.deepEqual(audits, results);
        const statuses = await db.kysely.selectFrom('audit_events').select(['status', 'key_id']).where('request_id', 'like', `${batch.id}.%`).execute();
        assert.equal(statuses.filter((a) => a.status === 404).length, 20);
        assert.ok(statuses.every((a) => a.key_id === key.id));
      }));

    test('the result and its audit record are one transaction: a failed audit write leaves no result', () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const batch = await s.create(batchOf(2, 'key_x'));
        const [row] = await s.claim('sandbox', 'SBX-HARBOR', 1, 'c1', inAMinute());
        const broken = { ...audit(200), status: null as unknown as number };
        await assert.rejects(s.complete(row!, { status: 200, error_code: null, body: {} }, broken));
        assert.deepEqual(await countOf(db, batch.id), { results: [], audits: [] }, 'neither was written');
        const [state] = await db.kysely
          .selectFrom('batch_rows')
          .select(['state', 'claimed_by'])
          .where('batch_id', '=', batch.id)
          .where('row_no', '=', row!.row_no)
          .execute();
        assert.deepEqual(state, { state: 'running', claimed_by: 'c1' }, 'the row is still held, to be written again');
        assert.equal(await s.complete(row!, { status: 200, error_code: null, body: {} }, audit(200)), true);
        assert.equal(await s.complete(row!, { status: 200, error_code: null, body: {} }, audit(200)), false, 'written once');
        assert.deepEqual(await countOf(db, batch.id), { results: [`${batch.id}.1`], audits: [`${batch.id}.1`] });
      }));

    test('a worker that lost its claim writes neither result nor audit record', () =>
      withStore(async (store) => {
        const db = await store.open();
        const s = new BatchStore(db);
        const batch = await s.create(batchOf(1, 'key_x'));
        const [stale] = await s.claim('sandbox', 'SBX-HARBOR', 1, 'stale', new Date(Date.now() - 1));
        await s.reclaimExpired();
        const [fresh] = await s.claim('sandbox', 'SBX-HARBOR', 1, 'fresh', inAMinute());
        assert.equal(await s.complete(stale!, { status: 200, error_code: null, body: {} }, audit(200)), false);
        assert.deepEqual(await countOf(db, batch.id), { results: [], audits: [] });
        assert.equal(await s.complete(fresh!, { status: 200, error_code: null, body: {} }, audit(200)), true);
        assert.deepEqual(await countOf(db, batch.id), { results: [`${batch.id}.1`], audits: [`${batch.id}.1`] });
      }));
  },
);
