/** CoverageClient's monitor and webhook methods against a running sandbox, every answer held against the served document. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CoverageApiError, CoverageClient, type Monitor } from 'coverage-service-client';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/eventually.ts';

let server: TestServer;
let client: CoverageClient;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_MONITOR_POLL_MS: '50', COVERAGE_WEBHOOK_DELIVERY: '0' } });
  client = new CoverageClient({ baseUrl: server.url, apiKey: TEST_KEY, fetch: checkingFetch(await checkerForServer(server.url), server.url) });
});
after(() => server.close());

const avery = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
};

test('monitors: create, read once checked, list, check now, delete; an unknown id is a CoverageApiError 404', async () => {
  const created = await client.createMonitor({ ...avery, schedule: { every_days: 14 }, reference: 'chart 9' });
  let monitor: Monitor = await client.getMonitor(created.id);
  await eventually('the first check', async () => (monitor = await client.getMonitor(created.id)).checks !== 0, { tries: 300 });
  assert.equal(monitor.last_check?.plan_status, 'ACTIVE');
  const bulk = await client.createMonitors({ monitors: [{ ...avery, schedule: { appointments: ['2026-12-03'] } }] });
  assert.equal(bulk.monitors.length, 1);
  const page = await client.listMonitors({ limit: 1 });
  assert.equal(page.monitors.length, 1);
  assert.equal(page.next_offset, 1);
  const checked = await client.checkMonitor(created.id);
  assert.equal(checked.monitor.checks, 2);
  assert.deepEqual(await client.deleteMonitor(created.id), { id: created.id, deleted: true });
  const err = await client.getMonitor(created.id).then(
    () => assert.fail('deleted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof CoverageApiError);
  assert.equal(err.status, 404);
});

test('webhooks: create (secret once), test, delivery log, redeliver, delete', async () => {
  const hook = await client.createWebhook({ url: 'https://203.0.113.10/hook', events: ['coverage.changed'] });
  assert.match(hook.secret, /^whsec_/);
  assert.equal((await client.getWebhook(hook.id)).url, 'https://203.0.113.10/hook');
  assert.equal((await client.listWebhooks()).webhooks.length, 1);
  const { delivery } = await client.testWebhook(hook.id);
  const log = await client.webhookDeliveries(hook.id, { limit: 10 });
  assert.deepEqual(
    log.deliveries.map((d) => d.id),
    [delivery.id],
  );
  assert.equal((await client.redeliver(hook.id, delivery.id)).delivery.id, delivery.id);
  assert.deepEqual(await client.deleteWebhook(hook.id), { id: hook.id, deleted: true });
});
