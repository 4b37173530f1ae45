/**
 * Failover over loopback: every payer routes through two Stedi simulators (primary, backup), and one
 * payer through Stedi then a CORE SOAP simulator. A route that fails as a route hands over to the
 * next; an answer about the member does not.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

let primary: StediSimulator;
let backup: StediSimulator;
let core: PayerSimulator;
let server: TestServer;

before(async () => {
  primary = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
  backup = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
  core = await PayerSimulator.start({ clock: onDay(TEST_TODAY) });
  process.env.FAILOVER_CORE_USER = 'sim';
  process.env.FAILOVER_CORE_PASS = 'sim';
  const directory = vendorDirectory([
    { name: 'primary', sim: primary },
    { name: 'backup', sim: backup },
  ]);
  for (const c of directory.connections!) {
    c.retry = { max_attempts: 0 };
    c.timeout_ms = 400;
    c.circuit_breaker = { consecutive_failures: 1000, half_open_after_ms: 100 };
  }
  directory.connections!.push({
    name: 'core',
    kind: 'core-soap',
    endpoint: core.endpoint('SBX-EVERGREEN', 'soap'),
    username_env: 'FAILOVER_CORE_USER',
    password_env: 'FAILOVER_CORE_PASS',
  });
  directory.payers.push({
    payer_id: 'EVERGREEN-DIRECT',
    name: 'Evergreen (Stedi, then direct)',
    supports_search: false,
    routes: [
      { connection: 'primary', payer_id: 'NOT-AT-STEDI' },
      { connection: 'core', payer_id: 'SBX-EVERGREEN' },
    ],
  });
  directory.payers.push({
    payer_id: 'NOWHERE',
    name: 'Known to no route',
    supports_search: false,
    routes: [
      { connection: 'primary', payer_id: 'NOWHERE-1' },
      { connection: 'backup', payer_id: 'NOWHERE-2' },
    ],
  });
  server = await serveDirectory(directory, { COVERAGE_PAYER_TIMEOUT_MS: '5000' });
});
after(async () => {
  await server?.close();
  await Promise.all([primary?.close(), backup?.close(), core?.close()]);
});
beforeEach(() => {
  primary.faults.set({});
  backup.faults.set({});
});

const evergreen = () => server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));

describe('failover between routes', () => {
  test('a healthy first route answers and says so; the audit record keeps the route and control numbers', async () => {
    const before = backup.stats.requests;
    const res = await evergreen();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'primary');
    assert.equal(backup.stats.requests, before);
    await server.runtime.audit.flush();
    const row = await server.runtime.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('request_id', '=', res.headers.get('x-request-id')!)
      .executeTakeFirstOrThrow();
    assert.equal(row.route, 'primary');
    assert.equal(row.control_number, primary.received.at(-1)!.control_number);
    assert.match(row.trace_number ?? '', /.+/);
  });

  test('HTTP 500 on the first route: the backup answers', async () => {
    primary.faults.set({ payers: { 'SBX-EVERGREEN': { fault: 'http_500' } } });
    const before = backup.stats.requests;
    const res = await evergreen();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'backup');
    assert.equal(backup.stats.requests, before + 1);
  });

  test('a timeout on the first route (its own timeout_ms): the backup answers within the deadline', async () => {
    primary.faults.set({ payers: { 'SBX-EVERGREEN': { fault: 'timeout' } } });
    const res = await evergreen();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'backup');
  });

  test('AAA 42 from the first route: the backup answers', async () => {
    primary.faults.set({ members: { '10010MHNA': { fault: 'aaa_42' } } });
    const res = await evergreen();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'backup');
  });

  test('AAA 79 on both routes: no route could ask, the caller hears it once', async () => {
    const before = [primary.stats.requests, backup.stats.requests];
    const res = await server.post('/v1/estimate', estimateFor('UHC', 'UHCAAA79', 'John', 'Doe', '1970-01-01'));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
    assert.deepEqual(
      res.body.payer_errors.map((e: any) => [e.code, e.category, e.loop]),
      [['79', 'route', '2100A']],
    );
    assert.deepEqual([primary.stats.requests, backup.stats.requests], [before[0]! + 1, before[1]! + 1]);
  });

  test('AAA 75 (the payer answered about the member): no failover', async () => {
    const before = backup.stats.requests;
    const res = await server.post('/v1/estimate', estimateFor('UHC', 'UHCAAA75', 'Jane', 'Doe', '1990-01-01'));
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'MEMBER_NOT_FOUND');
    assert.equal(backup.stats.requests, before, 'the backup was not asked');
  });

  test('a clearinghouse that does not know the payer hands over to a CORE connection', async () => {
    const before = core.hits('SBX-EVERGREEN');
    const res = await server.post('/v1/estimate', estimateFor('EVERGREEN-DIRECT', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'core');
    assert.equal(res.body.payer_id, 'EVERGREEN-DIRECT');
    assert.equal(core.hits('SBX-EVERGREEN'), before + 1);
    assert.equal(primary.received.at(-1)!.payer_id, 'NOT-AT-STEDI');
  });

  test('when the last route is a clearinghouse that does not know the payer, its JSON errors reach the caller', async () => {
    backup.faults.set({});
    const res = await server.post('/v1/estimate', estimateFor('NOWHERE', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'PAYER_FAILURE');
    assert.deepEqual(res.body.payer_errors, [
      { code: '79', description: 'Invalid participant identification', followup: 'Please correct and resubmit', loop: '2100A', category: 'route' },
    ]);
  });
});
