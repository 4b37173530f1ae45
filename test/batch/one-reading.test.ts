/**
 * One input, one reading (issue 40, item 6): surrounding spaces are trimmed in JSON as in a CSV cell,
 * a JSON date not in YYYY-MM-DD is refused naming the format, and a batch's rows carry the same number
 * in its JSON and CSV results and in its upload errors (docs/batch.md, "Row numbers").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../src/formats/csv.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { waitForBatch } from './helpers.ts';

const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_session_cost: '15000' };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('the API trims surrounding spaces: " 10010MHNA " and " Avery " are the member the CSV would check', async () => {
  const spaced = {
    ...avery,
    member_id: ' 10010MHNA ',
    member_first_name: ' Avery',
    member_last_name: 'Walsh\t',
    member_dob: ' 1988-03-14 ',
    payer_id: ' SBX-EVERGREEN',
  };
  const res = await server.post('/v1/estimate', spaced);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.member_obligation, 3000);
  assert.deepEqual(
    res.body.alerts.filter((a: { code: string }) => a.code === 'DEMOGRAPHIC_MISMATCH'),
    [],
  );
  const disc = await server.post('/v1/discover', {
    member_first_name: 'Avery ',
    member_last_name: ' Walsh',
    member_dob: '1988-03-14',
    zip: ' 10001 ',
    payer_id: 'SBX-EVERGREEN',
  });
  assert.equal(disc.status, 200, JSON.stringify(disc.body));
});

test('a JSON date in MM/DD/YYYY is refused, the message naming YYYY-MM-DD with an example', async () => {
  const res = await server.post('/v1/estimate', { ...avery, member_dob: '03/14/1988' });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body.errors, [
    { field: 'member_dob', message: 'must be a real calendar date in YYYY-MM-DD, such as 1988-03-14 (JSON takes no MM/DD/YYYY; a CSV upload does)' },
  ]);
});

async function batch(body: string, contentType: string) {
  const res = await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { apikey: TEST_KEY, 'content-type': contentType }, body });
  return { status: res.status, body: await res.json() };
}

async function rowNumbers(id: string) {
  await waitForBatch(server.url, TEST_KEY, id);
  const json = await server.get(`/v1/batches/${id}/results`);
  const text = await (await fetch(`${server.url}/v1/batches/${id}/results`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } })).text();
  const [header, ...lines] = parseCsv(text.replace(/^\uFEFF/, '')).map((r) => r.cells);
  return { json: json.body.results.map((r: { row: number }) => r.row), csv: lines.map((l) => Number(l[header!.indexOf('row')])) };
}

test("a CSV batch's rows are the spreadsheet's rows in the JSON results as in the CSV results", async () => {
  const csv = [
    'member_id,member_first_name,member_last_name,member_dob,provider_session_cost',
    ...[1, 2].map(() => ' 10010MHNA ,Avery,Walsh,1988-03-14,15000'),
  ].join('\r\n');
  const created = await batch(csv, 'text/csv');
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.deepEqual(await rowNumbers(created.body.id), { json: [2, 3], csv: [2, 3] });
});

test("a JSON batch's rows are its checks' 1-based positions in both results; its requests are trimmed as the API's", async () => {
  const checks = [avery, { ...avery, member_id: ' 10010MHNA ' }].map((request) => ({ endpoint: 'estimate', request }));
  const created = await batch(JSON.stringify({ checks }), 'application/json');
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.deepEqual(await rowNumbers(created.body.id), { json: [1, 2], csv: [1, 2] });
  const refused = await batch(JSON.stringify({ checks: [{ endpoint: 'estimate', request: { ...avery, member_dob: '03/14/1988' } }] }), 'application/json');
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].row, 1);
  assert.match(refused.body.errors[0].message, /YYYY-MM-DD, such as 1988-03-14/);
});
