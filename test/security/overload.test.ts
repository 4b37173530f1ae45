/**
 * Finding 6, overload: @fastify/under-pressure was declared but not used. Past the configured
 * event-loop delay or heap, requests are shed with 503 SERVICE_UNAVAILABLE and Retry-After, before
 * authentication; /healthz and /metrics still answer, /readyz does not (traffic goes elsewhere).
 *
 * 503 is service-wide, like 500: the OpenAPI introduction describes it, no operation lists it, so
 * these answers are read with plain fetch rather than the helper that holds them to an operation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const estimate = (server: TestServer, headers: Record<string, string> = { apikey: TEST_KEY }) =>
  fetch(`${server.url}/v1/estimate`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(AVERY_ESTIMATE) });

async function assertShed(server: TestServer, retryAfter: string): Promise<void> {
  const res = await estimate(server);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('retry-after'), retryAfter);
  const body = (await res.json()) as { error_code: string; request_id: string };
  assert.equal(body.error_code, 'SERVICE_UNAVAILABLE');
  assert.ok(body.request_id);
  assert.equal((await estimate(server, {})).status, 503, 'shed before authentication');
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'liveness still answers');
  assert.equal((await fetch(`${server.url}/metrics`)).status, 200, 'metrics still answer');
  assert.equal((await fetch(`${server.url}/readyz`)).status, 503, 'not ready while overloaded');
}

test('past the heap limit, checks are shed with 503 and Retry-After; probes for liveness and metrics are not', async (t) => {
  const server = await startTestServer({
    env: { COVERAGE_MAX_HEAP_USED_MB: '1', COVERAGE_MAX_EVENT_LOOP_DELAY_MS: '0', COVERAGE_OVERLOAD_RETRY_AFTER_S: '7' },
  });
  t.after(() => server.close());
  await eventually('the heap limit sheds a check', async () => (await estimate(server)).status === 503);
  await assertShed(server, '7');
});

test('a stalled event loop sheds checks', async (t) => {
  const server = await startTestServer({ env: { COVERAGE_MAX_EVENT_LOOP_DELAY_MS: '1', COVERAGE_MAX_HEAP_USED_MB: '0' } });
  t.after(() => server.close());
  // Blocks this thread for 300 ms, the kind of stall finding 2's oversized CSV header caused.
  const stall = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  let shed: Response | undefined;
  await eventually('an event-loop stall sheds a check', async () => {
    stall();
    const res = await estimate(server);
    if (res.status === 503) shed = res;
    return shed !== undefined;
  });
  // Only this answer: the next one-second sample of a quiet loop lifts the shedding again.
  assert.equal(shed!.headers.get('retry-after'), '5');
  assert.equal(((await shed!.json()) as { error_code: string }).error_code, 'SERVICE_UNAVAILABLE');
});

test('overload limits: on by default, set or turned off (0) by environment', () => {
  const defaults = loadConfig({}).overload;
  assert.equal(defaults.maxEventLoopDelayMs, 1000);
  assert.ok(defaults.maxHeapUsedBytes > 0);
  assert.equal(defaults.retryAfterSeconds, 5);
  assert.deepEqual(loadConfig({ COVERAGE_MAX_EVENT_LOOP_DELAY_MS: '0', COVERAGE_MAX_HEAP_USED_MB: '0', COVERAGE_OVERLOAD_RETRY_AFTER_S: '30' }).overload, {
    maxEventLoopDelayMs: 0,
    maxHeapUsedBytes: 0,
    retryAfterSeconds: 30,
  });
  assert.throws(() => loadConfig({ COVERAGE_MAX_HEAP_USED_MB: 'lots' }), /COVERAGE_MAX_HEAP_USED_MB must be an integer/);
});
