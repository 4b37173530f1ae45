/** GET /metrics: requests by route and status and payer latency, in Prometheus text (breaker states and cache lookups: test/production/metrics-feed.test.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { sqliteStore } from '../support/stores.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

/** The value of one sample line, found by metric name and all of the given labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}

test('metrics count requests by route pattern and status and time each payer exchange', async (t) => {
  const store = await sqliteStore();
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR }), { logLevel: false });
  t.after(async () => {
    await runtime.close();
    await store.cleanup();
  });
  const { secret } = await runtime.keys.create({ name: 'metrics', env: 'sandbox' });
  const post = (payload: object) => runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload });
  await post(AVERY_ESTIMATE);
  await post(AVERY_ESTIMATE);
  await post({ ...AVERY_ESTIMATE, member_id: '10100MHMNF' });
  await runtime.app.inject({ method: 'GET', url: '/v1/not-a-route?member=10010MHNA', headers: { apikey: secret } });

  const res = await runtime.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200, 'no API key needed');
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  const text = res.body;
  assert.equal(sample(text, 'coverage_http_requests_total', { route: '/v1/estimate', status: '200' }), 2);
  assert.equal(sample(text, 'coverage_http_requests_total', { route: '/v1/estimate', status: '404' }), 1);
  assert.equal(sample(text, 'coverage_http_requests_total', { route: 'unmatched', status: '404' }), 1);
  assert.ok(!text.includes('10010MHNA') && !text.includes('not-a-route'), 'raw URLs never become labels');
  const exchanges = text.split('\n').filter((l) => l.startsWith('coverage_payer_request_duration_seconds_count{') && l.includes('outcome="ok"'));
  assert.ok(exchanges.reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0) >= 3, 'every check asked a payer, and was timed');
  assert.match(text, /^process_cpu_seconds_total /m);
});

test('with COVERAGE_METRICS_TOKEN set, /metrics wants the bearer token and nothing else', async (t) => {
  const store = await sqliteStore();
  const token = 'm'.repeat(40);
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR, COVERAGE_METRICS_TOKEN: token }), {
    logLevel: false,
  });
  t.after(async () => {
    await runtime.close();
    await store.cleanup();
  });
  const { secret } = await runtime.keys.create({ name: 'metrics token', env: 'sandbox' });
  const get = (headers: Record<string, string>) => runtime.app.inject({ method: 'GET', url: '/metrics', headers });
  const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${token}x` }, { authorization: token }, { apikey: secret }];
  for (const headers of attempts) {
    const res = await get(headers);
    assert.equal(res.statusCode, 401, JSON.stringify(Object.keys(headers)));
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
    assert.ok(!res.body.includes('coverage_http_requests_total'));
  }
  const ok = await get({ authorization: `Bearer ${token}` });
  assert.equal(ok.statusCode, 200);
  assert.match(ok.body, /coverage_http_requests_total/);
  assert.throws(() => loadConfig({ COVERAGE_METRICS_TOKEN: 'short' }), /at least 32 characters/);
});
