/**
 * Batch rows hold names, dates of birth, member IDs and coverage for days. With COVERAGE_DATA_KEY
 * their request and result columns are sealed (store/sealed-text.ts): a copy of the database shows
 * none of it, a value moved to another row does not open, and rows sealed under another key are
 * answered as unreadable instead of failing the batch. SQLite and (with DATABASE_URL) PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { BatchCheck } from '../../src/domain/batch.ts';
import { BatchStore } from '../../src/store/batches.ts';
import { DataKey } from '../../src/store/data-key.ts';
import type { Db } from '../../src/store/db.ts';
import { SealedText } from '../../src/store/sealed-text.ts';
import { waitForBatch } from '../batch/helpers.ts';
import { startTestServer, TEST_KEY } from '../helpers/server.ts';
import { onEachStore } from '../support/stores.ts';

const MEMBER = { member_id: 'ZQX8812345', member_first_name: 'Philippa', member_last_name: 'Quennell', member_dob: '1977-04-29' };
const check: BatchCheck = { endpoint: 'estimate', request: { ...MEMBER, payer_id: 'SBX-EVERGREEN' } };
const batchOf = (ownerId: string, n = 3) => ({
  keyId: ownerId,
  ownerId,
  env: 'sandbox' as const,
  source: 'json' as const,
  checks: Array.from({ length: n }, () => check),
  payerKeys: Array.from({ length: n }, () => 'SBX-EVERGREEN'),
});
const PHI = [MEMBER.member_id, MEMBER.member_first_name, MEMBER.member_last_name, MEMBER.member_dob];
const rawRows = (db: Db, batchId: string) =>
  db.kysely.selectFrom('batch_rows').select(['row_no', 'request', 'result']).where('batch_id', '=', batchId).orderBy('row_no').execute();
const leaseEnd = () => new Date(Date.now() + 60_000);

onEachStore(
  (name) => name,
  (open) => {
    test('sealed at rest, read back whole; a sealed value copied to another row does not open', async () => {
      const store = await open();
      try {
        const db = await store.open();
        const key = DataKey.generate();
        const s = new BatchStore(db, new SealedText(key));
        const batch = await s.create({ ...batchOf('key_sealed'), name: 'quennell-philippa' });
        const stored = await db.kysely.selectFrom('batches').select('name').where('id', '=', batch.id).executeTakeFirstOrThrow();
        assert.ok(stored.name && !stored.name.includes('quennell'), 'the upload name is sealed too: it may name a patient');
        assert.equal((await s.get(batch.id, 'key_sealed'))?.name, 'quennell-philippa');
        const [row] = await s.claim('sandbox', 'SBX-EVERGREEN', 1, 'claim-1', leaseEnd());
        assert.deepEqual(row!.request, check.request, 'the runner gets the request as sent');
        const body = { plan_status: 'ACTIVE', member_id: MEMBER.member_id, member_first_name: MEMBER.member_first_name };
        assert.equal(await s.complete(row!, { status: 200, error_code: null, body }, null), true);
        const raw = await rawRows(db, batch.id);
        for (const r of raw) for (const v of PHI) assert.ok(!`${r.request}${r.result ?? ''}`.includes(v), `row ${r.row_no} shows ${v}`);
        const read = [];
        for await (const r of s.rows(batch.id)) read.push(r);
        assert.deepEqual(read[0]!.request, check.request);
        assert.deepEqual(JSON.parse(read[0]!.result!), body);
        // Row 1's sealed request pasted over row 2's: bound to its row, it does not open there.
        await db.kysely.updateTable('batch_rows').set({ request: raw[0]!.request }).where('batch_id', '=', batch.id).where('row_no', '=', 2).execute();
        const moved = [];
        for await (const r of s.rows(batch.id)) moved.push(r);
        assert.deepEqual(moved[1]!.request, {});
      } finally {
        await store.cleanup();
      }
    });

    test('rows sealed under another key are finished as unreadable, with their audit record; plain rows of before stay readable', async () => {
      const store = await open();
      try {
        const db = await store.open();
        const old = await new BatchStore(db, new SealedText(DataKey.generate())).create(batchOf('key_rotated', 2));
        const plain = await new BatchStore(db).create(batchOf('key_plain', 1));
        const s = new BatchStore(db, new SealedText(DataKey.generate()));
        const claimed = await s.claim('sandbox', 'SBX-EVERGREEN', 10, 'claim-2', leaseEnd());
        assert.deepEqual(
          claimed.map((r) => r.batch_id),
          [plain.id],
          'only the readable row goes to the runner',
        );
        assert.deepEqual(claimed[0]!.request, check.request);
        const rows = await db.kysely.selectFrom('batch_rows').select(['state', 'status', 'error_code']).where('batch_id', '=', old.id).execute();
        assert.deepEqual(
          rows.map((r) => [r.state, Number(r.status), r.error_code]),
          [
            ['done', 500, 'INTERNAL_ERROR'],
            ['done', 500, 'INTERNAL_ERROR'],
          ],
        );
        const audits = await db.kysely.selectFrom('audit_events').select('request_id').where('request_id', 'like', `${old.id}.%`).execute();
        assert.equal(audits.length, 2, 'one audit record per finished row');
        const listed = [];
        for await (const r of s.rows(old.id)) listed.push(r);
        assert.match(JSON.parse(listed[0]!.result!).message, /another COVERAGE_DATA_KEY/);
      } finally {
        await store.cleanup();
      }
    });
  },
);

test('over HTTP with COVERAGE_DATA_KEY: the batch answers as usual and the database holds no member data', async (t) => {
  const server = await startTestServer({ env: { COVERAGE_DATA_KEY: randomBytes(32).toString('hex') } });
  t.after(() => server.close());
  const body = {
    checks: [
      {
        endpoint: 'estimate',
        request: {
          member_id: '10010MHNA',
          member_first_name: 'Avery',
          member_last_name: 'Walsh',
          member_dob: '1988-03-14',
          payer_id: 'SBX-EVERGREEN',
          provider_npi: '1234567893',
          provider_session_cost: '15000',
          in_network: true,
        },
      },
    ],
  };
  const created = await server.post('/v1/batches', body);
  assert.equal(created.status, 202);
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  const results = await server.get(`/v1/batches/${created.body.id}/results`);
  assert.equal(results.status, 200);
  assert.equal(results.body.results[0].status, 200);
  assert.equal(results.body.results[0].request.member_id, '10010MHNA');
  const raw = await rawRows(server.runtime.db, created.body.id);
  for (const v of ['10010MHNA', 'Avery', 'AVERY', 'Walsh', 'WALSH', '1988-03-14']) assert.ok(!`${raw[0]!.request}${raw[0]!.result}`.includes(v), v);
});
