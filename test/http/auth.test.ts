/** The apikey header: no endpoint under /v1 answers without a valid, unrevoked key of the server's mode. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const body = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const paths = ['/v1/estimate', '/v1/estimate/', '/v1/discover', '/v1/scan', '/v1/medicaid'];

test('a missing key gives 401 on every endpoint, before the body is looked at', async () => {
  for (const path of [...paths, '/v1/sandbox/members']) {
    const res = await fetch(server.url + path, {
      method: path.includes('members') ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: path.includes('members') ? undefined : 'not json',
    });
    assert.equal(res.status, 401, path);
    const json = (await res.json()) as { error_code: string; request_id: string };
    assert.equal(json.error_code, 'UNAUTHORIZED');
    assert.ok(json.request_id);
  }
});

test('a path that is no route is 404 with or without a key: access follows the matched route (test/security/path-variants.test.ts)', async () => {
  for (const headers of [{}, { apikey: 'cov_test_integration_suite_key_0001' }] as Record<string, string>[]) {
    const res = await fetch(server.url + '/v1/unknown', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error_code: string }).error_code, 'NOT_FOUND');
  }
});

test('an unknown key gives 401', async () => {
  for (const path of paths) {
    const res = await server.post(path, body, { apikey: 'cov_test_not_a_real_key' });
    assert.equal(res.status, 401, path);
    assert.equal(res.body.error_code, 'UNAUTHORIZED');
  }
});

test('a created key works, and stops working once revoked', async () => {
  const { key, secret } = await server.runtime.keys.create({ name: 'revocable', env: 'sandbox' });
  assert.equal((await server.post('/v1/estimate', body, { apikey: secret })).status, 200);
  assert.equal(await server.runtime.keys.revoke(key.id), true);
  const res = await server.post('/v1/estimate', body, { apikey: secret });
  assert.equal(res.status, 401);
});

test('a production key cannot reach the sandbox network', async () => {
  const { secret } = await server.runtime.keys.create({ name: 'prod', env: 'production' });
  const res = await server.post('/v1/estimate', body, { apikey: secret });
  assert.equal(res.status, 401);
  assert.match(res.body.message, /production key/);
});

test('keys are stored as hashes, never as secrets', async () => {
  const { secret } = await server.runtime.keys.create({ name: 'hashed', env: 'sandbox' });
  const rows = await server.runtime.db.kysely.selectFrom('api_keys').selectAll().execute();
  for (const row of rows) {
    assert.ok(!Object.values(row).includes(secret));
    assert.match(row.hash, /^[0-9a-f]{64}$/);
  }
});

test('health probes answer without a key', async () => {
  assert.equal((await fetch(server.url + '/healthz')).status, 200);
  assert.equal((await fetch(server.url + '/readyz')).status, 200);
});
