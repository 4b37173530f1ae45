/**
 * A monitor whose change reaches the practice's webhook, through the server as users start it
 * (launch.ts). The sandbox's answers do not change between two checks of one day, so the change is
 * made the way the product offers for rehearsing against recorded answers (docs/estimates.md, 1.5;
 * docs/going-live.md): production mode against `coverage simulate-payer --replay DIR`, which reads
 * DIR at each request, with the 271 in DIR rewritten between two checks and the cache off
 * (COVERAGE_CACHE_TTL_MS=0). No clock is moved: the second check is `POST /v1/monitors/{id}/check`.
 * The production key comes from `coverage keys create`, as the simulator's printout says. With
 * DATABASE_URL and REDIS_URL set (as .ci/run sets them) the instance runs on them, as production
 * deployments do (a schema of its own, test/support/stores.ts); else on SQLite.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventChecker } from '../monitoring/receiver.ts';
import { DATABASE_URL, postgresStore, REDIS_URL, sqliteStore, type TestStore } from '../support/stores.ts';
import { apiOf, type Call } from './api.ts';
import { coverage, prepare, serve, simulatePayer, TARGET, type Running } from './launch.ts';
import { deliveredEvent, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { eventually } from '../helpers/eventually.ts';

/** A recorded 271 of test/fixtures/271/ whose plan copay is $30 (EB*B**MH***27*30*). */
const RECORDED = fileURLToPath(new URL('../fixtures/271/specificity-mh-copay-beats-plan-coinsurance.271', import.meta.url));
const ben = {
  member_id: 'C14101',
  member_first_name: 'Ben',
  member_last_name: 'Baker',
  member_dob: '1961-02-02',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: 15000,
};

let dir: string;
let store: TestStore;
let replay: string;
let simulator: Running;
let server: Running;
let api: Call;
let receiver: WebhookReceiver;

before(async () => {
  await prepare();
  dir = mkdtempSync(join(tmpdir(), 'coverage-e2e-monitor-'));
  replay = join(dir, 'replay');
  mkdirSync(replay);
  copyFileSync(RECORDED, join(replay, 'ben.271'));
  const directory = join(dir, 'payers.local.json');
  simulator = await simulatePayer(['--replay', replay, '--port', '0', '--directory-out', directory]);
  store = DATABASE_URL ? await postgresStore() : await sqliteStore();
  const env = {
    COVERAGE_MODE: 'production',
    COVERAGE_PAYERS: directory,
    ...store.env,
    ...(REDIS_URL ? { REDIS_URL } : {}),
    COVERAGE_DATA_KEY: 'e2'.repeat(32),
    // The simulator's credentials, as its printout says (every secret is `sim`).
    COVERAGE_SIM_USERNAME: 'sim',
    COVERAGE_SIM_PASSWORD: 'sim',
    COVERAGE_CACHE_TTL_MS: '0',
    COVERAGE_WEBHOOK_ALLOW_INSECURE: '1',
    COVERAGE_WEBHOOK_POLL_MS: '50',
    COVERAGE_MONITOR_POLL_MS: '50',
  };
  const key = await coverage(['keys', 'create', '--name', 'e2e', '--env', 'production'], env);
  assert.equal(key.code, 0, key.stderr);
  receiver = await startWebhookReceiver();
  server = await serve(env);
  api = await apiOf(server.url, key.stdout.trim());
});
after(async () => {
  await server?.stop();
  await simulator?.stop();
  await receiver?.close();
  await store?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const STORE = DATABASE_URL ? `PostgreSQL${REDIS_URL ? ' and Redis' : ''}` : 'SQLite';

test(`${TARGET} on ${STORE}: a monitor's change is delivered to the webhook, signed (Standard Webhooks), without PHI`, async () => {
  const hook = await api('POST', '/v1/webhooks', { body: { url: receiver.url, events: ['coverage.changed', 'coverage.check_failed'] } });
  assert.equal(hook.status, 201, hook.text);
  const created = await api('POST', '/v1/monitors', { body: { ...ben, reference: 'chart 4411', schedule: { every_days: 7 } } });
  assert.equal(created.status, 201, created.text);
  const id: string = created.body.id;

  // The baseline: the first check is made right away by the monitor worker.
  const baseline = await eventually(
    'the baseline check',
    async () => {
      const got = await api('GET', `/v1/monitors/${id}`);
      return got.body.checks >= 1 && got;
    },
    { tries: 1200, pauseMs: 50 },
  );
  assert.equal(baseline.body.last_check.status, 200, baseline.text);

  // The payer's answer changes: the recorded copay goes from $30 to $45.
  const file = join(replay, 'ben.271');
  const recorded = readFileSync(file, 'utf8');
  assert.ok(recorded.includes('EB*B**MH***27*30*'));
  writeFileSync(file, recorded.replace('EB*B**MH***27*30*', 'EB*B**MH***27*45*'));
  const checked = await api('POST', `/v1/monitors/${id}/check`);
  assert.equal(checked.status, 200, checked.text);
  const changes = checked.body.monitor.last_check.changes as { field: string }[];
  assert.deepEqual(
    changes.find((c) => c.field === 'copayment'),
    { field: 'copayment', old: 3000, new: 4500 },
  );

  const delivered = await deliveredEvent(
    receiver,
    hook.body,
    'coverage.changed',
    async (hookId) => (await api('GET', `/v1/webhooks/${hookId}/deliveries`)).body.deliveries,
  );
  (await eventChecker(server.url))(delivered.raw);
  assert.equal(delivered.event.data.monitor_id, id);
  assert.deepEqual(delivered.event.data.changes, changes);
  for (const phi of ['Ben', 'BAKER', 'Baker', '1961-02-02', '19610202', 'C14101', 'chart 4411'])
    assert.ok(!delivered.raw.includes(phi), `no ${phi} in the event`);
  const log = await api('GET', `/v1/webhooks/${hook.body.id}/deliveries`);
  assert.deepEqual(
    log.body.deliveries.map((d: { id: string; event_type: string; state: string; attempts: number }) => [d.id, d.event_type, d.state, d.attempts]),
    [[delivered.webhookId, 'coverage.changed', 'delivered', 1]],
    'the baseline raised nothing; the change raised one event, delivered at the first attempt',
  );
});
