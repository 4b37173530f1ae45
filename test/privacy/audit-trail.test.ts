/** One audit record per check, through the server: who, which endpoint and payer, the outcome, and a keyed hash of whom. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime, type Runtime } from '../../src/server/runtime.ts';
import { memberHasher } from '../../src/store/member-hash.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { sqliteStore, type TestStore } from '../support/stores.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

async function server(
  t: { after(fn: () => Promise<void>): void },
  env: Record<string, string> = {},
): Promise<{ runtime: Runtime; secret: string; keyId: string; store: TestStore }> {
  const store = await sqliteStore();
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR, ...env }), { logLevel: false });
  t.after(async () => {
    await runtime.close();
    await store.cleanup();
  });
  const { secret, key } = await runtime.keys.create({ name: 'audit', env: 'sandbox' });
  return { runtime, secret, keyId: key.id, store };
}

async function records(runtime: Runtime) {
  await runtime.audit.flush();
  return runtime.db.kysely.selectFrom('audit_events').selectAll().orderBy('at').execute();
}

test('each check is recorded with key, endpoint, payer, status, error code, latency, request id and member hash', async (t) => {
  const { runtime, secret, keyId } = await server(t, { COVERAGE_AUDIT_KEY: 'operator-audit-key' });
  const post = (url: string, payload: object) => runtime.app.inject({ method: 'POST', url, headers: { apikey: secret }, payload });

  const ok = await post('/v1/estimate', AVERY_ESTIMATE);
  const notFound = await post('/v1/estimate/', { ...AVERY_ESTIMATE, member_id: '10100MHMNF' });
  const invalid = await post('/v1/discover', { member_first_name: 'Avery' });
  assert.deepEqual([ok.statusCode, notFound.statusCode, invalid.statusCode], [200, 404, 400]);

  const rows = await records(runtime);
  const byId = new Map(rows.map((r) => [r.request_id, r]));
  assert.equal(rows.length, 3);
  const hash = memberHasher('operator-audit-key');
  const first = byId.get(String(ok.headers['x-request-id']));
  assert.ok(first);
  assert.deepEqual(
    {
      ...first,
      at: typeof first.at,
      latency_ms: typeof first.latency_ms,
      control_number: typeof first.control_number,
      trace_number: typeof first.trace_number,
    },
    {
      request_id: ok.headers['x-request-id'],
      at: 'string',
      key_id: keyId,
      endpoint: 'estimate',
      payer_id: ok.json().payer_id,
      status: 200,
      error_code: null,
      latency_ms: 'number',
      member_hash: hash({ member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' }),
      user_id: null,
      // The sandbox answers in process: no connection, but the exchange is named as in production (ISA13, BHT03/TRN02).
      route: null,
      control_number: 'string',
      trace_number: 'string',
    },
  );
  assert.ok(!Number.isNaN(Date.parse(first.at)));
  const second = byId.get(String(notFound.headers['x-request-id']));
  assert.deepEqual([second?.endpoint, second?.status, second?.error_code], ['estimate', 404, 'MEMBER_NOT_FOUND']);
  assert.equal(second?.member_hash, hash({ member_id: '10100MHMNF', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' }));
  const third = byId.get(String(invalid.headers['x-request-id']));
  assert.deepEqual([third?.endpoint, third?.status, third?.error_code, third?.member_hash], ['discover', 400, 'INVALID_REQUEST', null]);
});

test('requests that are not checks leave no record: no key, a bad key, the sandbox catalog, probes', async (t) => {
  const { runtime, secret } = await server(t);
  const noKey = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', payload: AVERY_ESTIMATE });
  const badKey = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: 'cov_test_nope' }, payload: AVERY_ESTIMATE });
  const members = await runtime.app.inject({ method: 'GET', url: '/v1/sandbox/members', headers: { apikey: secret } });
  const unknown = await runtime.app.inject({ method: 'POST', url: '/v1/nothing', headers: { apikey: secret }, payload: {} });
  await runtime.app.inject({ method: 'GET', url: '/readyz' });
  assert.deepEqual([noKey.statusCode, badKey.statusCode, members.statusCode, unknown.statusCode], [401, 401, 200, 404]);
  assert.deepEqual(await records(runtime), []);
});

test('without COVERAGE_AUDIT_KEY the member hash uses the deployment key kept in the store', async (t) => {
  const { runtime, secret, store } = await server(t);
  const res = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload: AVERY_ESTIMATE });
  const [row] = await records(runtime);
  assert.equal(row?.request_id, res.headers['x-request-id']);
  const other = await store.open();
  const kept = await other.kysely.selectFrom('settings').select('value').executeTakeFirstOrThrow();
  assert.equal(row?.member_hash, memberHasher(kept.value)({ member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' }));
});

// Issue 23, finding 4: the record is committed before the answer goes out.
test('a check is in the audit table by the time its answer arrives, without a flush', async (t) => {
  const { runtime, secret } = await server(t);
  const res = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload: AVERY_ESTIMATE });
  assert.equal(res.statusCode, 200);
  const row = await runtime.db.kysely
    .selectFrom('audit_events')
    .select('status')
    .where('request_id', '=', String(res.headers['x-request-id']))
    .executeTakeFirst();
  assert.equal(row?.status, 200);
});

test('when the record cannot be written, the answer is withheld (503) and the record kept for retry says so', async (t) => {
  const { runtime, secret } = await server(t);
  const sqlite = runtime.db.sqlite!;
  // The store refuses audit inserts, as a full disk or a lost connection would.
  sqlite.exec(`create trigger refuse_audit before insert on audit_events begin select raise(abort, 'disk full'); end`);
  const res = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload: AVERY_ESTIMATE });
  assert.equal(res.statusCode, 503);
  const body = res.json<{ error_code: string; message: string; request_id: string }>();
  assert.equal(body.error_code, 'SERVICE_UNAVAILABLE');
  assert.ok(!res.body.includes('Avery') && !res.body.includes('10010MHNA'), 'nothing of the member is disclosed');
  assert.equal(runtime.audit.queued, 1);
  sqlite.exec('drop trigger refuse_audit');
  const rows = await records(runtime);
  assert.deepEqual(
    rows.map((r) => [r.request_id, r.status, r.error_code]),
    [[body.request_id, 503, 'SERVICE_UNAVAILABLE']],
  );
});
