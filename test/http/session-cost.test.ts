/**
 * A session cost in dollars sent where cents are wanted (issue 40, item 1): the API keeps cents but
 * warns below the floor (SESSION_COST_LOW), a refused cost says what cents are, and the batch's results
 * carry the same alert. docs/estimates.md, "Session cost".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../src/formats/csv.ts';
import { waitForBatch } from '../batch/helpers.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', payer_id: 'SBX-EVERGREEN' };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('150 as a number (150.00 in JSON) is priced as $1.50 and answered with SESSION_COST_LOW first, naming the cents meant', async () => {
  const res = await server.post('/v1/estimate', JSON.parse(`${JSON.stringify(avery).slice(0, -1)}, "provider_session_cost": 150.00}`));
  assert.equal(res.status, 200);
  assert.equal(res.body.provider_session_cost, 150, 'the API keeps cents: the figure is not changed');
  assert.deepEqual(res.body.alerts[0], { code: 'SESSION_COST_LOW', message: '1.50 USD: provider_session_cost is in cents, 15000 is $150.00' });
});

test('a cost at or above the floor, a free session and no cost carry no SESSION_COST_LOW', async () => {
  for (const cost of ['15000', 1000, 0, undefined]) {
    const res = await server.post('/v1/estimate', { ...avery, ...(cost === undefined ? {} : { provider_session_cost: cost }) });
    assert.equal(res.status, 200);
    assert.ok(!res.body.alerts.some((a: { code: string }) => a.code === 'SESSION_COST_LOW'), `${cost}: ${JSON.stringify(res.body.alerts)}`);
  }
  const justBelow = await server.post('/v1/estimate', { ...avery, provider_session_cost: 999 });
  assert.equal(justBelow.body.alerts[0].code, 'SESSION_COST_LOW');
});

test('the floor is COVERAGE_SESSION_COST_FLOOR_CENTS; 0 turns the alert off', async () => {
  const off = await startTestServer({ env: { COVERAGE_SESSION_COST_FLOOR_CENTS: '0' } });
  const higher = await startTestServer({ env: { COVERAGE_SESSION_COST_FLOOR_CENTS: '5000' } });
  try {
    const none = await off.post('/v1/estimate', { ...avery, provider_session_cost: 150 });
    assert.ok(!none.body.alerts.some((a: { code: string }) => a.code === 'SESSION_COST_LOW'));
    const warned = await higher.post('/v1/estimate', { ...avery, provider_session_cost: 4000 });
    assert.equal(warned.body.alerts[0].message, '40.00 USD: provider_session_cost is in cents, 400000 is $4,000.00');
  } finally {
    await off.close();
    await higher.close();
  }
});

test('a refused cost ("150.00", "$150") says the field is in cents and what $150.00 is', async () => {
  for (const cost of ['150.00', '$150', -5]) {
    const res = await server.post('/v1/estimate', { ...avery, provider_session_cost: cost });
    assert.equal(res.status, 400);
    const field = res.body.errors.find((e: { field: string }) => e.field === 'provider_session_cost');
    assert.match(field.message, /provider_session_cost is in cents, 15000 is \$150\.00/);
  }
});

test("a batch's CSV provider_session_cost of 150 gets the alert in its results, JSON and CSV", async () => {
  const csv = [
    'endpoint,member_id,member_first_name,member_last_name,member_dob,payer_id,provider_session_cost',
    'estimate,10010MHNA,Avery,Walsh,1988-03-14,SBX-EVERGREEN,150',
  ].join('\r\n');
  const res = await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: TEST_KEY, 'content-type': 'text/csv' }, body: csv });
  assert.equal(res.status, 202, await res.clone().text());
  const { id } = (await res.json()) as { id: string };
  await waitForBatch(server.url, TEST_KEY, id);
  const json = await server.get(`/v1/batches/${id}/results`);
  assert.equal(json.body.results[0].body.alerts[0].code, 'SESSION_COST_LOW');
  const text = await (await fetch(`${server.url}/v1/batches/${id}/results`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } })).text();
  const [header, first] = parseCsv(text.replace(/^\uFEFF/, '')).map((r) => r.cells);
  const alerts = first![header!.indexOf('alerts')]!;
  assert.match(alerts, /^SESSION_COST_LOW: 1\.50 USD: provider_session_cost is in cents, 15000 is \$150\.00/);
});
