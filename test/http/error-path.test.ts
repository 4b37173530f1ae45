/**
 * One error path (src/http/errors.ts): whatever refuses a request — auth, a route, the framework,
 * the rate limit — the answer's error_code is on the request's log line and on its audit record,
 * and the answer is the one error shape.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime, type Runtime } from '../../src/server/runtime.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';
import { sqliteStore, type TestStore } from '../support/stores.ts';

let runtime: Runtime;
let store: TestStore;
let secret: string;
const lines: Record<string, unknown>[] = [];

before(async () => {
  store = await sqliteStore();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR }), { logLevel: 'info', logStream });
  ({ secret } = await runtime.keys.create({ name: 'errors', env: 'sandbox' }));
});
after(async () => {
  await runtime.close();
  await store.cleanup();
});

/** The one request line (logging.ts) of a request, by the x-request-id it was answered with. */
function requestLine(requestId: unknown): Record<string, unknown> {
  const line = lines.find((l) => l.msg === 'request' && l.reqId === requestId);
  assert.ok(line, `no request line for ${String(requestId)}`);
  return line;
}

async function auditRecord(requestId: unknown) {
  await runtime.audit.flush();
  return runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', '=', String(requestId)).executeTakeFirst();
}

test('a 401 from auth is logged with its error_code', async () => {
  const res = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', payload: AVERY_ESTIMATE });
  assert.equal(res.statusCode, 401);
  assert.deepEqual(res.json(), { error_code: 'UNAUTHORIZED', message: 'Missing apikey header', request_id: res.headers['x-request-id'] });
  const line = requestLine(res.headers['x-request-id']);
  assert.deepEqual([line.status, line.error_code, line.route], [401, 'UNAUTHORIZED', '/v1/estimate']);
});

test('a 404 on /v1/batches/:id is logged with its error_code, and answers as before', async () => {
  const res = await runtime.app.inject({ method: 'GET', url: '/v1/batches/bat_0000000000000000', headers: { apikey: secret } });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { error_code: 'NOT_FOUND', message: 'No batch bat_0000000000000000', request_id: res.headers['x-request-id'] });
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
  const line = requestLine(res.headers['x-request-id']);
  assert.deepEqual([line.status, line.error_code, line.route], [404, 'NOT_FOUND', '/v1/batches/:id']);
});

test('a 404 of a monitor and of a webhook are logged with their error_code', async () => {
  for (const url of ['/v1/monitors/mon_nope', '/v1/webhooks/whk_nope']) {
    const res = await runtime.app.inject({ method: 'GET', url, headers: { apikey: secret } });
    assert.equal(res.statusCode, 404, url);
    assert.equal(res.json().error_code, 'NOT_FOUND');
    assert.equal(requestLine(res.headers['x-request-id']).error_code, 'NOT_FOUND', url);
  }
});

test("a refused check's audit record and log line carry the same code: validation, media type, rate limit", async () => {
  const invalid = await runtime.app.inject({ method: 'POST', url: '/v1/discover', headers: { apikey: secret }, payload: { member_first_name: 'Avery' } });
  const media = await runtime.app.inject({
    method: 'POST',
    url: '/v1/estimate',
    headers: { apikey: secret, 'content-type': 'text/plain' },
    payload: 'hello',
  });
  const limited = await runtime.keys.create({ name: 'one a minute', env: 'sandbox', rate_limit_per_minute: 1 });
  const post = () => runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: limited.secret }, payload: AVERY_ESTIMATE });
  assert.equal((await post()).statusCode, 200);
  const throttled = await post();
  for (const [res, status, code] of [
    [invalid, 400, 'INVALID_REQUEST'],
    [media, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [throttled, 429, 'TOO_MANY_REQUESTS'],
  ] as const) {
    assert.deepEqual([res.statusCode, res.json().error_code], [status, code]);
    const id = res.headers['x-request-id'];
    assert.equal((await auditRecord(id))?.error_code, code, `audit record of the ${status}`);
    assert.equal(requestLine(id).error_code, code, `log line of the ${status}`);
  }
});

test('a 206 is recorded with the code its answer carries; a 200 with none', async () => {
  const partial = await runtime.app.inject({
    method: 'POST',
    url: '/v1/estimate',
    headers: { apikey: secret },
    payload: { ...AVERY_ESTIMATE, member_id: '10090MHUC', member_first_name: 'Adrian', member_last_name: 'Cole', member_dob: '1986-11-19' },
  });
  assert.deepEqual([partial.statusCode, partial.json().error_code], [206, 'UNKNOWN_COSTSHARE']);
  assert.equal((await auditRecord(partial.headers['x-request-id']))?.error_code, 'UNKNOWN_COSTSHARE');
  const ok = await runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload: AVERY_ESTIMATE });
  assert.equal(ok.statusCode, 200);
  assert.equal((await auditRecord(ok.headers['x-request-id']))?.error_code, null);
  assert.equal(requestLine(ok.headers['x-request-id']).error_code, undefined);
});

test('under /fhir a refusal is an OperationOutcome, and its log line carries the code', async () => {
  const res = await runtime.app.inject({
    method: 'POST',
    url: '/fhir/r4/CoverageEligibilityRequest/$submit',
    payload: { resourceType: 'CoverageEligibilityRequest' },
  });
  assert.equal(res.statusCode, 401);
  const body = res.json();
  assert.equal(body.resourceType, 'OperationOutcome');
  assert.equal(body.issue[0].details.coding[0].code, 'UNAUTHORIZED');
  assert.equal(requestLine(res.headers['x-request-id']).error_code, 'UNAUTHORIZED');
});

test('no request line names a member, whatever was refused', () => {
  const text = JSON.stringify(lines);
  for (const value of ['Avery', 'Walsh', '1988-03-14', '10010MHNA', 'Adrian', '10090MHUC']) assert.ok(!text.includes(value), value);
});
