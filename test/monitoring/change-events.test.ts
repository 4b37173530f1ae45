/**
 * A monitor over a replayed payer answer (production mode, `simulate-payer --replay`): the 271 is
 * rewritten between two checks, and exactly one signed coverage.changed event names the change.
 * Snapshots, requests and payloads are sealed with COVERAGE_DATA_KEY; without it a production
 * server refuses to create monitors.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { eventChecker, startReceiver, verifySignature, type Receiver } from './receiver.ts';
import { eventually } from '../helpers/eventually.ts';

const CASE = 'specificity-mh-copay-beats-plan-coinsurance';
const FIXTURES = new URL('../fixtures/271/', import.meta.url);
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
let prod: ProductionSetup;
let receiver: Receiver;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coverage-monitor-replay-'));
  copyFileSync(fileURLToPath(new URL(`${CASE}.271`, FIXTURES)), join(dir, `${CASE}.271`));
  prod = await startProduction({
    replayDir: dir,
    env: {
      COVERAGE_CACHE_TTL_MS: '0',
      COVERAGE_DATA_KEY: 'ab'.repeat(32),
      COVERAGE_WEBHOOK_ALLOW_INSECURE: '1',
      COVERAGE_MONITOR_POLL_MS: '50',
      COVERAGE_WEBHOOK_POLL_MS: '50',
    },
  });
  receiver = await startReceiver();
});
after(async () => {
  await prod.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the copay changes between two checks: one signed coverage.changed naming it, with no names or dates of birth', async () => {
  const server = prod.server;
  const hook = await server.post('/v1/webhooks', { url: receiver.url, events: ['coverage.changed', 'coverage.check_failed'] });
  assert.equal(hook.status, 201);
  const created = await server.post('/v1/monitors', { ...ben, schedule: { every_days: 7 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  const baseline = await eventually('the baseline check', async () => {
    const res = await server.get(`/v1/monitors/${id}`);
    return res.body.checks === 1 ? res.body : undefined;
  });
  assert.equal(baseline.last_check.status, 200, JSON.stringify(baseline.last_check));
  assert.ok(Date.parse(baseline.next_check_at) - Date.parse(baseline.last_check.at) === 7 * 86_400_000, 'every 7 days from the check');

  const file = join(dir, `${CASE}.271`);
  writeFileSync(file, readFileSync(file, 'utf8').replace('EB*B**MH***27*30*', 'EB*B**MH***27*45*'));
  const checked = await server.post(`/v1/monitors/${id}/check`, undefined);
  assert.equal(checked.status, 200);
  const changes = checked.body.monitor.last_check.changes;
  assert.deepEqual(
    changes.find((c: { field: string }) => c.field === 'copayment'),
    { field: 'copayment', old: 3000, new: 4500 },
  );
  assert.equal(new Set(changes.map((c: { field: string }) => c.field)).size, changes.length, 'each field once');
  assert.deepEqual(checked.body.monitor.timeline, [{ at: checked.body.monitor.last_check.at, changes }], 'the timeline of changes');

  const event = await eventually('the coverage.changed delivery', () => receiver.received.find((r) => JSON.parse(r.body).type === 'coverage.changed'));
  assert.ok(verifySignature(hook.body.secret, event));
  const body = JSON.parse(event.body);
  const checkEvent = await eventChecker(server.url);
  checkEvent(event.body);
  assert.equal(body.data.monitor_id, id);
  assert.deepEqual(body.data.changes, changes);
  for (const phi of ['Ben', 'BAKER', 'Baker', '1961-02-02', '19610202', 'C14101']) assert.ok(!event.body.includes(phi), `no ${phi} in the event`);
  // A third check with the same answer changes nothing: still exactly one event.
  const again = await server.post(`/v1/monitors/${id}/check`, undefined);
  assert.deepEqual(again.body.monitor.last_check.changes, []);
  assert.equal(again.body.monitor.timeline.length, 1, 'a check without changes adds nothing to the timeline');
  // Counted once nothing is being checked or sent: the queue holds every event the checks raised.
  await prod.server.runtime.monitoring.idle();
  const queued = await server.runtime.db.kysely
    .selectFrom('webhook_deliveries')
    .select('state')
    .where('webhook_id', '=', hook.body.id)
    .where('event_type', '=', 'coverage.changed')
    .execute();
  assert.deepEqual(
    queued.map((d) => d.state),
    ['delivered'],
    'exactly one coverage.changed queued, and delivered',
  );
  assert.equal(receiver.received.filter((r) => JSON.parse(r.body).type === 'coverage.changed').length, 1);

  const row = await server.runtime.db.kysely.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  for (const column of [row.request, row.snapshot!, row.last_check!]) {
    assert.match(column, /^v1\./, 'sealed with COVERAGE_DATA_KEY');
    assert.ok(!column.includes('C14101') && !column.includes('Baker'));
  }
  const delivery = await server.runtime.db.kysely
    .selectFrom('webhook_deliveries')
    .select('payload')
    .where('event_type', '=', 'coverage.changed')
    .executeTakeFirstOrThrow();
  assert.match(delivery.payload, /^v1\./);
  const secret = await server.runtime.db.kysely.selectFrom('webhooks').select('secret').where('id', '=', hook.body.id).executeTakeFirstOrThrow();
  assert.match(secret.secret, /^v1\./);
});

test('a member the payer does not find raises coverage.check_failed with the status and code only', async () => {
  const before = receiver.received.length;
  const created = await prod.server.post('/v1/monitors', { ...ben, member_id: 'NOSUCH1', schedule: { every_days: 7 } });
  const failed = await eventually('coverage.check_failed', () =>
    receiver.received.slice(before).find((r) => JSON.parse(r.body).type === 'coverage.check_failed'),
  );
  const body = JSON.parse(failed.body);
  (await eventChecker(prod.server.url))(failed.body);
  assert.equal(body.data.monitor_id, created.body.id);
  assert.equal(typeof body.data.status, 'number');
  assert.ok(!failed.body.includes('NOSUCH1'));
});

test('a production server without COVERAGE_DATA_KEY does not start, so it never keeps monitors in plain text', async () => {
  await assert.rejects(startProduction({ replayDir: dir, env: { COVERAGE_DATA_KEY: '' } }), /COVERAGE_DATA_KEY is required in production/);
});
