/** /v1/monitors and /v1/webhooks through the sandbox server: the API, owner isolation, signed deliveries, SSRF refusals. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { eventChecker, startReceiver, verifySignature, type Receiver } from './receiver.ts';
import { eventually } from '../helpers/eventually.ts';

const avery_ = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
};

let server: TestServer;
let receiver: Receiver;
let otherKey: string;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_WEBHOOK_ALLOW_INSECURE: '1', COVERAGE_MONITOR_POLL_MS: '50', COVERAGE_WEBHOOK_POLL_MS: '50' } });
  receiver = await startReceiver();
  otherKey = (await server.runtime.keys.create({ name: 'another practice', env: 'sandbox' })).secret;
});
after(async () => {
  await server.close();
  await receiver.close();
});

describe('monitors', () => {
  test("a person's monitor: its checks are audited with the person, like their other checks", async () => {
    const { UserStore } = await import('../../src/store/users.ts');
    const { user } = await new UserStore(server.runtime.db).create({ username: 'monitor-person', env: 'sandbox', password: 'front desk password 1' });
    const console_ = { 'x-coverage-console': '1', 'content-type': 'application/json' };
    const login = await fetch(`${server.url}/console/session`, {
      method: 'POST',
      headers: console_,
      body: JSON.stringify({ username: 'monitor-person', password: 'front desk password 1' }),
    });
    assert.equal(login.status, 200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`${server.url}/v1/monitors`, {
      method: 'POST',
      headers: { ...console_, cookie },
      body: JSON.stringify({ ...avery_, schedule: { every_days: 7 } }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const rows = await eventually('the baseline check audited', async () => {
      await server.runtime.audit.flush();
      const found = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', 'like', `${id}.%`).execute();
      return found.length > 0 ? found : undefined;
    });
    assert.equal(rows[0]!.user_id, user.id);
  });

  test('created with a schedule, checked once right away (the baseline), read, listed and deleted', async () => {
    const created = await server.post('/v1/monitors', { ...avery_, reference: 'chart 4411', schedule: { appointments: ['2026-06-30'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.id, /^mon_[0-9a-f]{24}$/);
    const id = created.body.id;
    const checked = await eventually('the baseline check', async () => {
      const res = await server.get(`/v1/monitors/${id}`);
      return res.body.last_check ? res.body : undefined;
    });
    assert.equal(checked.checks, 1);
    assert.equal(checked.reference, 'chart 4411');
    assert.equal(checked.payer_id, 'SBX-EVERGREEN');
    assert.equal(checked.last_check.status, 200);
    assert.equal(checked.last_check.plan_status, 'ACTIVE');
    assert.deepEqual(checked.last_check.changes, [], 'nothing to compare with on the first check');
    // The next check is 3 days before the appointment, at 10:00 UTC (the test clock is the wall clock here).
    assert.equal(checked.next_check_at === null || typeof checked.next_check_at === 'string', true);

    const list = await server.get('/v1/monitors?limit=1');
    assert.equal(list.status, 200);
    assert.ok(list.body.monitors.some((m: { id: string }) => m.id === id) || list.body.next_offset === 1);

    const now = await server.post(`/v1/monitors/${id}/check`, undefined);
    assert.equal(now.status, 200);
    assert.equal(now.body.result.plan_status, 'ACTIVE');
    assert.equal(now.body.monitor.checks, 2);
    assert.deepEqual(now.body.monitor.last_check.changes, []);

    // Each check is in the audit trail like any other: the key, the payer, a keyed hash of the member, no names.
    const audited = await eventually('the audit records', async () => {
      const rows = await server.runtime.db.kysely.selectFrom('audit_events').selectAll().where('request_id', 'like', `${id}.%`).execute();
      return rows.length === 2 ? rows : undefined;
    });
    for (const r of audited) {
      assert.equal(r.user_id, null, 'made with a machine key: no person');
      assert.equal(r.endpoint, 'estimate');
      assert.equal(r.payer_id, 'SBX-EVERGREEN');
      assert.equal(r.status, 200);
      assert.match(r.member_hash ?? '', /^[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(r).includes('Avery'));
    }

    assert.equal((await server.delete(`/v1/monitors/${id}`)).status, 200);
    assert.equal((await server.get(`/v1/monitors/${id}`)).status, 404);
    assert.equal(
      await server.runtime.db.kysely.selectFrom('monitors').select('id').where('id', '=', id).executeTakeFirst(),
      undefined,
      'the snapshot is gone with it',
    );
  });

  test("a carve-out's price in the last check names the administrator whose answer it is, as the estimate does", async () => {
    const maya = {
      ...avery_,
      payer_id: 'SBX-HARBOR',
      member_id: '10040MHCA',
      member_first_name: 'Maya',
      member_last_name: 'Goldberg',
      member_dob: '1993-03-19',
    };
    const estimate = await server.post('/v1/estimate', maya);
    assert.equal(estimate.body.priced_by?.payer_id, 'SBX-MINDFUL', JSON.stringify(estimate.body.priced_by));
    const created = await server.post('/v1/monitors', { ...maya, schedule: { every_days: 7 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const now = await server.post(`/v1/monitors/${created.body.id}/check`, undefined);
    assert.equal(now.status, 200, JSON.stringify(now.body));
    assert.equal(now.body.monitor.last_check.member_obligation, estimate.body.member_obligation);
    assert.deepEqual(now.body.monitor.last_check.priced_by, estimate.body.priced_by);
    const plain = await server.post('/v1/monitors', { ...avery_, schedule: { every_days: 7 } });
    const avery = await server.post(`/v1/monitors/${plain.body.id}/check`, undefined);
    assert.equal(avery.body.monitor.last_check.priced_by, null, "no carve-out: the plan's own price");
  });

  test('a schedule needs appointments or every_days; the estimate fields are validated as /v1/estimate does', async () => {
    const none = await server.post('/v1/monitors', { ...avery_, schedule: {} });
    assert.equal(none.status, 400);
    assert.equal(none.body.error_code, 'INVALID_REQUEST');
    const future = await server.post('/v1/monitors', { ...avery_, member_dob: '2099-01-01', schedule: { every_days: 7 } });
    assert.equal(future.status, 400);
    assert.equal(future.body.errors[0].field, 'member_dob');
    const badDate = await server.post('/v1/monitors', { ...avery_, schedule: { appointments: ['12/03/2026'] } });
    assert.equal(badDate.status, 400);
  });

  test('a schedule CSV (batch columns + appointment_date) makes one monitor per patient with all their appointments; JSON too', async () => {
    const csv = [
      'member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,session_cost,appointment_date,reference',
      '10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,12/03/2026,chart 1',
      '10011MHDM,Marcus,Bell,1979-11-02,SBX-EVERGREEN,1234567893,150,12/03/2026,chart 2',
      '10010MHNA,Avery,Walsh,1988-03-14,SBX-EVERGREEN,1234567893,150.00,2026-12-17,chart 1',
      '',
    ].join('\r\n');
    const made = await server.post('/v1/monitors/bulk', csv, { 'content-type': 'text/csv' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(
      made.body.monitors.map((m: { rows: number[] }) => m.rows),
      [[2, 4], [3]],
    );
    const avery = await server.get(`/v1/monitors/${made.body.monitors[0].id}`);
    assert.deepEqual(avery.body.schedule, { appointments: ['2026-12-03', '2026-12-17'] });
    assert.equal(avery.body.reference, 'chart 1');

    const bad = await server.post(
      '/v1/monitors/bulk',
      'member_id,member_first_name,member_last_name,member_dob,appointment_date\n10010MHNA,Avery,Walsh,1988-03-14,\n10010MHNA,Avery,Walsh,1988-03-14,14/03/2026\n',
      { 'content-type': 'text/csv' },
    );
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [
        [2, 'appointment_date'],
        [3, 'appointment_date'],
      ],
    );
    assert.match(bad.body.message, /no monitor was created/);
    const unknown = await server.post('/v1/monitors/bulk', 'member_id,visit\nX1,2026-01-01\n', { 'content-type': 'text/csv' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errors[0].message, /appointment_date/, 'the known columns are listed');

    const json = await server.post('/v1/monitors/bulk', {
      monitors: [
        { ...avery_, schedule: { every_days: 7 } },
        { ...avery_, member_dob: '1988-02-30', schedule: { every_days: 7 } },
      ],
    });
    assert.equal(json.status, 400);
    assert.equal(json.body.errors[0].row, 2);
    const ok = await server.post('/v1/monitors/bulk', { monitors: [{ ...avery_, schedule: { every_days: 7 } }] });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.monitors.length, 1);
  });

  test('the list carries the patient name for the sandbox console and signed-in people, not for production keys; sort orders it', async () => {
    const key = (await server.runtime.keys.create({ name: 'names and order', env: 'sandbox' })).secret;
    const as = { apikey: key };
    const later = await server.post('/v1/monitors', { ...avery_, reference: 'chart 2', schedule: { appointments: ['2030-02-01'] } }, as);
    const sooner = await server.post(
      '/v1/monitors',
      { ...avery_, member_first_name: 'Marcus', member_last_name: 'Bell, Jr.', reference: 'chart 3', schedule: { appointments: ['2030-01-05'] } },
      as,
    );
    assert.equal(sooner.status, 201, JSON.stringify(sooner.body));
    const byAppointment = await server.get('/v1/monitors?sort=appointment', as);
    assert.deepEqual(
      byAppointment.body.monitors.map((m: { member_name: string }) => m.member_name),
      ['Marcus Bell, Jr.', 'Avery Walsh'],
    );
    const byCreated = await server.get('/v1/monitors', as);
    assert.deepEqual(
      byCreated.body.monitors.map((m: { id: string }) => m.id),
      [later.body.id, sooner.body.id],
    );
    assert.equal((await server.get('/v1/monitors?sort=name', as)).status, 400);
    const { presentMonitor } = await import('../../src/http/routes/monitors.ts');
    const stored = { id: 'mon_1', what: { request: avery_, reference: null }, schedule: { every_days: 7 }, last_check: null } as unknown as Parameters<
      typeof presentMonitor
    >[0];
    assert.equal(presentMonitor(stored, true).member_name, 'Avery Walsh');
    assert.equal(presentMonitor(stored, false).member_name, null, 'a production key is not sent names back');
  });

  test("another key's monitors and webhooks answer 404, and are not listed", async () => {
    const mine = await server.post('/v1/monitors', { ...avery_, schedule: { every_days: 30 } });
    const hook = await server.post('/v1/webhooks', { url: receiver.url, events: ['coverage.changed'] });
    const other = { apikey: otherKey };
    for (const path of [`/v1/monitors/${mine.body.id}`, `/v1/webhooks/${hook.body.id}`, `/v1/webhooks/${hook.body.id}/deliveries`]) {
      const res = await server.get(path, other);
      assert.equal(res.status, 404, path);
    }
    assert.equal((await server.post(`/v1/monitors/${mine.body.id}/check`, undefined, other)).status, 404);
    assert.equal((await server.post(`/v1/webhooks/${hook.body.id}/test`, undefined, other)).status, 404);
    assert.equal((await server.delete(`/v1/monitors/${mine.body.id}`, other)).status, 404);
    assert.equal((await server.delete(`/v1/webhooks/${hook.body.id}`, other)).status, 404);
    assert.deepEqual((await server.get('/v1/monitors', other)).body.monitors, []);
    assert.deepEqual((await server.get('/v1/webhooks', other)).body.webhooks, []);
    assert.equal((await server.get(`/v1/monitors/${mine.body.id}`)).status, 200, 'still there for its owner');
    await server.delete(`/v1/webhooks/${hook.body.id}`);
  });
});

describe('webhooks', () => {
  test('the secret is whsec_ + base64 of 32 bytes, shown once; a test event arrives signed per Standard Webhooks, without the API key', async () => {
    const created = await server.post('/v1/webhooks', { url: receiver.url, events: ['coverage.changed', 'batch.completed'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const secret: string = created.body.secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    const read = await server.get(`/v1/webhooks/${created.body.id}`);
    assert.equal(read.body.secret, undefined);
    const stored = await server.runtime.db.kysely.selectFrom('webhooks').select('secret').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    assert.equal(stored.secret, secret, 'plain in a sandbox without COVERAGE_DATA_KEY (docs/monitoring.md)');

    const before = receiver.received.length;
    const queued = await server.post(`/v1/webhooks/${created.body.id}/test`, undefined);
    assert.equal(queued.status, 202);
    const got = await eventually('the test delivery', () => receiver.received.length > before && receiver.received[before]);
    assert.equal(got.headers['webhook-id'], queued.body.delivery.id);
    assert.ok(verifySignature(secret, got), 'the signature verifies with an independent HMAC');
    assert.equal(got.headers.apikey, undefined);
    assert.ok(!got.body.includes('cov_'), 'no API key in the body');
    assert.equal(JSON.parse(got.body).type, 'webhook.test');
    (await eventChecker(server.url))(got.body);
    const log = await eventually('the delivery log', async () => {
      const res = await server.get(`/v1/webhooks/${created.body.id}/deliveries`);
      return res.body.deliveries[0]?.state === 'delivered' ? res.body : undefined;
    });
    assert.equal(log.deliveries[0].last_status, 200);
    assert.equal(log.deliveries[0].attempts, 1);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /coverage_webhook_attempts_total\{result="delivered"\} [1-9]/);
    assert.match(metrics, /coverage_monitor_checks_total\{outcome="unchanged"\} [1-9]/);
    await server.delete(`/v1/webhooks/${created.body.id}`);
  });

  test('a batch that finishes sends one batch.completed event', async () => {
    const created = await server.post('/v1/webhooks', { url: receiver.url, events: ['batch.completed'] });
    const before = receiver.received.length;
    const batch = await server.post('/v1/batches', {
      checks: [
        { endpoint: 'estimate', request: avery_ },
        { endpoint: 'estimate', request: avery_ },
      ],
    });
    assert.equal(batch.status, 202);
    const got = await eventually('batch.completed', () => receiver.received.slice(before).find((r) => JSON.parse(r.body).type === 'batch.completed'));
    const body = JSON.parse(got.body);
    (await eventChecker(server.url))(got.body);
    assert.equal(body.data.batch_id, batch.body.id);
    assert.equal(body.data.total, 2);
    assert.equal(body.data.done, 2);
    assert.ok(verifySignature(created.body.secret, got));
    // Counted once every row is written and nothing is being queued or sent.
    await server.runtime.batchRunner.idle();
    await server.runtime.monitoring.idle();
    const queued = await server.runtime.db.kysely
      .selectFrom('webhook_deliveries')
      .select('state')
      .where('webhook_id', '=', created.body.id)
      .where('event_type', '=', 'batch.completed')
      .execute();
    assert.deepEqual(
      queued.map((d) => d.state),
      ['delivered'],
      'exactly one batch.completed queued, and delivered',
    );
    assert.equal(receiver.received.slice(before).filter((r) => JSON.parse(r.body).type === 'batch.completed').length, 1);
    await server.delete(`/v1/webhooks/${created.body.id}`);
  });
});

describe('SSRF: without COVERAGE_WEBHOOK_ALLOW_INSECURE', () => {
  let strict: TestServer;
  before(async () => {
    strict = await startTestServer();
  });
  after(() => strict.close());

  for (const url of [
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost/hook',
    'https://0.0.0.0/hook',
    'https://[fe80::1]/hook',
    'https://224.0.0.1/hook',
    'ftp://example.com/x',
  ]) {
    test(`${url} is refused`, async () => {
      const res = await strict.post('/v1/webhooks', { url, events: ['coverage.changed'] });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
      assert.equal(res.body.errors[0].field, 'url');
    });
  }

  test('with the flag, http and loopback are allowed but link-local (cloud metadata) stays refused', async () => {
    const ok = await server.post('/v1/webhooks', { url: 'http://localhost:9/hook', events: ['coverage.changed'] });
    assert.equal(ok.status, 201);
    await server.delete(`/v1/webhooks/${ok.body.id}`);
    const metadata = await server.post('/v1/webhooks', { url: 'http://169.254.169.254/latest', events: ['coverage.changed'] });
    assert.equal(metadata.status, 400);
  });
});

describe('the encounter of a monitor', () => {
  test('each check prices the next appointment, with the procedure and place asked for', async () => {
    // Today is 2026-06-15: the 2026-06-10 appointment has passed, 2026-06-20 is next, 2026-09-01 is past the window.
    const created = await server.post('/v1/monitors', {
      ...avery_,
      procedure_code: '90837',
      place_of_service: '10',
      schedule: { appointments: ['2026-09-01', '2026-06-10', '2026-06-20'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const now = await server.post(`/v1/monitors/${created.body.id}/check`, undefined);
    assert.equal(now.status, 200, JSON.stringify(now.body));
    assert.deepEqual(now.body.result.encounter, { date_of_service: '2026-06-20', procedure_code: '90837', place_of_service: '10' });
  });

  test('an appointment past the window, or none, prices today; a date of service given is kept', async () => {
    const later = await server.post('/v1/monitors', { ...avery_, schedule: { appointments: ['2026-09-01'] } });
    const every = await server.post('/v1/monitors', { ...avery_, date_of_service: '2026-06-01', schedule: { every_days: 7, appointments: ['2026-06-20'] } });
    const dates = [];
    for (const created of [later, every]) {
      assert.equal(created.status, 201, JSON.stringify(created.body));
      dates.push((await server.post(`/v1/monitors/${created.body.id}/check`, undefined)).body.result.encounter.date_of_service);
    }
    assert.deepEqual(dates, ['2026-06-15', '2026-06-01']);
  });

  test('a date of service outside the window or a bad code is refused when the monitor is created', async () => {
    const late = await server.post('/v1/monitors', { ...avery_, date_of_service: '2026-08-01', schedule: { every_days: 7 } });
    assert.equal(late.status, 400);
    assert.deepEqual(late.body.errors, [
      { field: 'date_of_service', message: 'must be from 2025-06-15 (12 months ago) through 2026-07-31 (the end of next month)' },
    ]);
    const bad = await server.post('/v1/monitors', { ...avery_, place_of_service: 'home', schedule: { every_days: 7 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'place_of_service');
  });
});

test('a local http receiver refused in a strict server names the setting that allows it for testing', async () => {
  const { checkTarget } = await import('../../src/operations/monitoring/webhook-target.ts');
  await assert.rejects(checkTarget('http://127.0.0.1:8080/hooks', false), /url must use https; .*COVERAGE_WEBHOOK_ALLOW_INSECURE=1/);
  await assert.rejects(checkTarget('https://127.0.0.1:8443/hooks', false), /loopback address; .*COVERAGE_WEBHOOK_ALLOW_INSECURE=1/);
  await assert.rejects(checkTarget('ftp://example.com/hooks', false), /^TargetRefused: url must use https$/);
});
