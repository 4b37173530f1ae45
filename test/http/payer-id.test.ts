/**
 * Payer IDs as people type them (issue 40, item 2): any case and surrounding spaces name the payer;
 * an ID that names no payer keeps PAYER_NOT_SUPPORTED but says so, with the nearest payer, and its
 * verdict says to fix the ID, not to call the payer. docs/interface.md, "Payer IDs".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../src/formats/csv.ts';
import { verdict } from '../../src/http/console/verdict.js';
import { waitForBatch } from '../batch/helpers.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_session_cost: 15000 };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('sbx-evergreen, Sbx-Evergreen and " SBX-EVERGREEN " name SBX-EVERGREEN, in every endpoint and GET /v1/payers/{id}', async () => {
  for (const payer_id of ['sbx-evergreen', 'Sbx-Evergreen', ' SBX-EVERGREEN ']) {
    const est = await server.post('/v1/estimate', { ...avery, payer_id });
    assert.equal(est.status, 200, `${payer_id}: ${JSON.stringify(est.body)}`);
    assert.equal(est.body.payer_id, 'SBX-EVERGREEN');
    assert.equal(est.body.member_obligation, 3000);
    const disc = await server.post('/v1/discover', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '', payer_id });
    assert.equal(disc.status, 200, payer_id);
  }
  const one = await server.get('/v1/payers/sbx-evergreen');
  assert.equal(one.status, 200);
  assert.equal(one.body.payer_id, 'SBX-EVERGREEN');
});

test('an ID that names no payer: PAYER_NOT_SUPPORTED, "No payer X; did you mean Y?", payer_id named, and a verdict to fix it', async () => {
  const res = await server.post('/v1/estimate', { ...avery, payer_id: 'SBX-EVERGREN' });
  assert.equal(res.status, 400);
  assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
  assert.equal(res.body.message, 'No payer SBX-EVERGREN; did you mean SBX-EVERGREEN? GET /v1/payers?query=SBX-EVERGREN lists payers by ID or name');
  assert.deepEqual(res.body.errors, [{ field: 'payer_id', message: 'names no payer: did you mean SBX-EVERGREEN?' }]);
  const v = verdict('estimate', res.status, res.body, null);
  assert.equal(v.text, 'Unknown payer ID: fix the payer ID');
  assert.equal(v.next, 'Fix the payer ID: did you mean SBX-EVERGREEN? Then check again.');

  const nothing = await server.post('/v1/estimate', { ...avery, payer_id: 'QQQQQQ' });
  assert.equal(nothing.body.message, 'No payer QQQQQQ. GET /v1/payers?query=QQQQQQ lists payers by ID or name');
  assert.match(verdict('estimate', 400, nothing.body, null).next, /^Fix the payer ID \(search the payer list by name\)/);
});

test('a payer that refuses us (AAA 79) still says to call the payer', async () => {
  const res = await server.post('/v1/estimate', { ...avery, member_id: '21102MHRR', payer_id: 'SBX-EVERGREEN' });
  assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
  assert.equal(verdict('estimate', res.status, res.body, null).text, 'Payer not supported: call the payer');
});

test("in a batch: a lower-case ID is checked, a typo's verdict and next step say to fix the ID", async () => {
  const csv = [
    'endpoint,member_id,member_first_name,member_last_name,member_dob,payer_id,session_cost',
    'estimate,10010MHNA,Avery,Walsh,1988-03-14,sbx-evergreen,150',
    'estimate,10010MHNA,Avery,Walsh,1988-03-14,SBX-EVERGREN,150',
  ].join('\r\n');
  const res = await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: TEST_KEY, 'content-type': 'text/csv' }, body: csv });
  assert.equal(res.status, 202, await res.clone().text());
  const { id } = (await res.json()) as { id: string };
  await waitForBatch(server.url, TEST_KEY, id);
  const text = await (await fetch(`${server.url}/v1/batches/${id}/results`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } })).text();
  const [header, first, second] = parseCsv(text.replace(/^\uFEFF/, '')).map((r) => r.cells);
  const col = (row: string[] | undefined, name: string) => row![header!.indexOf(name)];
  assert.equal(col(first, 'verdict'), 'Patient pays $30.00');
  assert.equal(col(second, 'verdict'), 'Unknown payer ID: fix the payer ID');
  assert.equal(col(second, 'next_step'), 'Fix the payer ID: did you mean SBX-EVERGREEN? Then check again.');
});
