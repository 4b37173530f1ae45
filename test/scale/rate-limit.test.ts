/** Checks per key per minute: 50 by default, per key when set; refusals in the error shape with Retry-After and RateLimit headers. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime, type Runtime } from '../../src/server/runtime.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { REDIS_URL, sqliteStore } from '../support/stores.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';
import { needsRedis } from '../helpers/needs.ts';

async function server(t: { after(fn: () => Promise<void>): void }, env: Record<string, string> = {}, logStream?: Writable): Promise<Runtime> {
  const store = await sqliteStore();
  const runtime = await startRuntime(
    loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR, ...env }),
    logStream ? { logStream, logLevel: 'warn' } : { logLevel: false },
  );
  t.after(async () => {
    await runtime.close();
    await store.cleanup();
  });
  return runtime;
}

const check = (runtime: Runtime, apikey: string) => runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey }, payload: AVERY_ESTIMATE });

test('the 51st check in a minute is refused with 429 TOO_MANY_REQUESTS, Retry-After and RateLimit headers', async (t) => {
  const runtime = await server(t);
  const { secret, key } = await runtime.keys.create({ name: 'default-limit', env: 'sandbox' });
  for (let i = 1; i <= 50; i++) {
    const res = await check(runtime, secret);
    assert.equal(res.statusCode, 200, `check ${i}`);
    assert.equal(res.headers['ratelimit-limit'], '50');
    assert.equal(res.headers['ratelimit-remaining'], String(50 - i));
  }
  const refused = await check(runtime, secret);
  assert.equal(refused.statusCode, 429);
  assert.deepEqual(Object.keys(refused.json()), ['error_code', 'message', 'request_id']);
  assert.equal(refused.json().error_code, 'TOO_MANY_REQUESTS');
  assert.equal(refused.json().request_id, refused.headers['x-request-id']);
  const retryAfter = Number(refused.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} is within the window`);
  assert.equal(refused.headers['ratelimit-remaining'], '0');
  assert.equal(refused.headers['ratelimit-reset'], String(retryAfter));

  const members = await runtime.app.inject({ method: 'GET', url: '/v1/sandbox/members', headers: { apikey: secret } });
  assert.equal(members.statusCode, 200, 'the sandbox catalog is not a check');
  assert.equal(members.headers['ratelimit-limit'], undefined);

  await runtime.audit.flush();
  const refusals = await runtime.db.kysely.selectFrom('audit_events').select('error_code').where('key_id', '=', key.id).where('status', '=', 429).execute();
  assert.deepEqual(refusals, [{ error_code: 'TOO_MANY_REQUESTS' }]);
});

test("a key's own limit applies to it alone", async (t) => {
  const runtime = await server(t);
  const small = await runtime.keys.create({ name: 'small', env: 'sandbox', rate_limit_per_minute: 3 });
  const other = await runtime.keys.create({ name: 'other', env: 'sandbox' });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await check(runtime, small.secret)).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const res = await check(runtime, other.secret);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['ratelimit-remaining'], '49');
});

test('the sandbox catalog and unauthenticated requests do not use up checks', async (t) => {
  const runtime = await server(t);
  const { secret } = await runtime.keys.create({ name: 'tiny', env: 'sandbox', rate_limit_per_minute: 1 });
  for (let i = 0; i < 5; i++) {
    assert.equal((await runtime.app.inject({ method: 'GET', url: '/v1/sandbox/members', headers: { apikey: secret } })).statusCode, 200);
  }
  assert.equal((await check(runtime, 'cov_test_unknown')).statusCode, 401);
  assert.equal((await check(runtime, secret)).statusCode, 200);
  assert.equal((await check(runtime, secret)).statusCode, 429);
});

test('when Redis goes away, checks go through and the server says so', { skip: needsRedis() }, async (t) => {
  const lines: string[] = [];
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const runtime = await server(t, { REDIS_URL: REDIS_URL! }, logs);
  const { secret } = await runtime.keys.create({ name: 'redis', env: 'sandbox', rate_limit_per_minute: 1 });
  assert.equal((await check(runtime, secret)).statusCode, 200);
  assert.equal((await check(runtime, secret)).statusCode, 429, 'counted in Redis');
  runtime.redis!.disconnect();
  assert.equal((await check(runtime, secret)).statusCode, 200);
  assert.ok(lines.some((l) => l.includes('rate limit store unreachable')));
});
