/** POST /v1/batches and its progress and results, against the sandbox: the same answers as the real-time endpoints. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCsv } from '../../src/formats/csv.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { waitForBatch } from './helpers.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_BATCH_CREATE_PER_MINUTE: '1000' } });
});
after(() => server.close());

const NPI = '1234567893';
const estimate = (member_id: string, extra: Record<string, unknown> = {}) => ({
  endpoint: 'estimate',
  request: {
    member_id,
    member_first_name: '',
    member_last_name: '',
    member_dob: '1980-01-01',
    provider_npi: NPI,
    provider_session_cost: '15000',
    in_network: true,
    ...extra,
  },
});
const CHECKS = [
  estimate('10010MHNA', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' }),
  estimate('10090MHUC'),
  estimate('10100MHMNF'),
  estimate('11101MHRR'),
  estimate('21102MHRR'),
  estimate('10040MHCA', { member_first_name: 'Maya', member_last_name: 'Goldberg', member_dob: '1993-03-19' }),
  estimate('10018MHDM', { in_network: false }),
  { endpoint: 'discover', request: { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '', payer_id: 'SBX-EVERGREEN' } },
  { endpoint: 'scan', request: { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' } },
  {
    endpoint: 'medicaid',
    request: { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' },
  },
  { endpoint: 'medicaid', request: { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11' } },
];

const withoutRequestId = (body: any) => {
  const { request_id: _ignored, ...rest } = body;
  return rest;
};

test('a JSON batch answers 202, completes, and each row holds what its endpoint answers in real time', async () => {
  const created = await server.post('/v1/batches', { checks: CHECKS });
  assert.equal(created.status, 202);
  assert.match(created.body.id, /^bat_[0-9a-f]{24}$/);
  assert.equal(created.body.total, CHECKS.length);
  assert.equal(created.headers.get('location'), `/v1/batches/${created.body.id}`);

  const progress = await waitForBatch(server.url, TEST_KEY, created.body.id);
  assert.equal(progress.status, 'completed');
  assert.equal(progress.done, CHECKS.length);
  assert.equal(progress.pending + progress.running, 0);
  assert.ok(progress.completed_at >= progress.created_at);
  const counted = Object.fromEntries(progress.outcomes.map((o: any) => [o.outcome, o.count]));
  assert.deepEqual(counted, { OK: 6, UNKNOWN_COSTSHARE: 1, MEMBER_NOT_FOUND: 1, PAYER_FAILURE: 1, PAYER_NOT_SUPPORTED: 1, INVALID_REQUEST: 1 });

  const results = await server.get(`/v1/batches/${created.body.id}/results`);
  assert.equal(results.status, 200);
  assert.equal(results.body.status, 'completed');
  assert.deepEqual(
    results.body.results.map((r: any) => r.row),
    CHECKS.map((_, i) => i + 1),
    'one result per row, in row order',
  );
  for (const [i, check] of CHECKS.entries()) {
    const row = results.body.results[i];
    const live = await server.post(`/v1/${check.endpoint}`, check.request);
    assert.equal(row.status, live.status, `row ${i + 1}`);
    assert.equal(row.error_code, live.body.error_code ?? null, `row ${i + 1}`);
    assert.deepEqual(withoutRequestId(row.body), withoutRequestId(live.body), `row ${i + 1} body`);
    assert.deepEqual(row.request, check.request);
    if (row.status >= 300) assert.equal(row.body.request_id, `${created.body.id}.${i + 1}`);
  }
  // medicaid without payer_id or patient_state passes the schema and is refused by the operation, as in real time.
  assert.equal(results.body.results[10].status, 400);
});

test('an estimate row asking for a course of care holds the course its endpoint answers (docs/course-of-care.md)', async () => {
  const check = estimate('10125MHDM', { member_first_name: 'Nadia', member_last_name: 'Osei', member_dob: '1991-05-20', course: { sessions: 12 } });
  const created = await server.post('/v1/batches', { checks: [check] });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  const results = await server.get(`/v1/batches/${created.body.id}/results`);
  const live = await server.post('/v1/estimate', check.request);
  assert.equal(results.body.results[0].body.course.lines.length, 12);
  assert.deepEqual(withoutRequestId(results.body.results[0].body), withoutRequestId(live.body));
});

test('each row is audited once, as a check of the key that queued it', async () => {
  const created = await server.post('/v1/batches', { checks: CHECKS.slice(0, 3) });
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  await server.runtime.audit.flush();
  const rows = await server.runtime.db.kysely
    .selectFrom('audit_events')
    .selectAll()
    .where('request_id', 'like', `${created.body.id}.%`)
    .orderBy('request_id')
    .execute();
  assert.deepEqual(
    rows.map((r) => r.request_id),
    [1, 2, 3].map((n) => `${created.body.id}.${n}`),
  );
  const key = await server.runtime.db.kysely.selectFrom('api_keys').select('id').where('name', 'like', 'dev%').executeTakeFirstOrThrow();
  assert.ok(rows.every((r) => r.key_id === key.id && r.endpoint === 'estimate' && r.member_hash));
  assert.deepEqual(
    rows.map((r) => r.status),
    [200, 206, 404],
  );
});

test('CSV in, CSV out: the documented header, blank cells, quoting; results as text/csv in row order', async () => {
  const csv = [
    '\ufeffendpoint,member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,provider_session_cost,in_network,zip,patient_state',
    'estimate,10010MHNA,Avery,Walsh,1988-03-14,SBX-EVERGREEN,1234567893,15000,true,,',
    ',10100MHMNF,"Nora Jane",,1983-03-23,,,,,,',
    'discover,,Avery,Walsh,1988-03-14,SBX-EVERGREEN,,,,10001,',
    'medicaid,10070MHOMCD,Luis,Herrera,1999-11-11,,,,,,NY',
    '',
  ].join('\r\n');
  const created = await server.post('/v1/batches', csv, { 'content-type': 'text/csv; charset=utf-8' });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.equal(created.body.total, 4);
  const progress = await waitForBatch(server.url, TEST_KEY, created.body.id);
  assert.equal(progress.source, 'csv');

  const res = await fetch(`${server.url}/v1/batches/${created.body.id}/results`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="batch-\d{4}-\d{2}-\d{2}-results\.csv"/);
  const [header, ...rows] = parseCsv(await res.text()).map((r) => r.cells);
  const col = (name: string) => header!.indexOf(name);
  // A sandbox batch's file says so on every line; rows are numbered as the spreadsheet shows them (header row 1).
  assert.equal(header![0], 'sandbox');
  assert.deepEqual(new Set(rows.map((r) => r[0])), new Set(['SANDBOX — not real coverage data']));
  assert.deepEqual(
    rows.map((r) => r[col('row')]),
    ['2', '3', '4', '5'],
  );
  assert.deepEqual(
    rows.map((r) => r[col('verdict')]),
    ['Patient pays $30.00', 'Not found: check the member ID', 'Coverage active', 'Coverage active'],
  );
  assert.deepEqual(
    rows.map((r) => r[col('outcome')]),
    ['OK', 'MEMBER_NOT_FOUND', 'OK', 'OK'],
  );
  assert.deepEqual(
    rows.map((r) => r[col('endpoint')]),
    ['estimate', 'estimate', 'discover', 'medicaid'],
  );
  assert.equal(rows[0]![col('patient_pays_dollars')], '30.00');
  assert.equal(rows[0]![col('plan_status')], 'ACTIVE');
  assert.equal(rows[1]![col('member_first_name')], 'Nora Jane', 'a quoted cell');
  assert.match(rows[1]![col('message')]!, /no member/);
  assert.equal(rows[1]![col('status')], '404');

  const json = await server.get(`/v1/batches/${created.body.id}/results`);
  assert.deepEqual(
    json.body.results[1].request,
    { member_id: '10100MHMNF', member_first_name: 'Nora Jane', member_last_name: '', member_dob: '1983-03-23' },
    'blank optional cells are left out',
  );
  assert.equal(json.body.results[0].request.in_network, true);
});

test('results filter by outcome and page with offset and limit', async () => {
  const checks = Array.from({ length: 30 }, (_, i) => estimate(`${i + 1}MH${i % 3 === 0 ? 'MNF' : 'NA'}`));
  const created = await server.post('/v1/batches', { checks });
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  const notFound = await server.get(`/v1/batches/${created.body.id}/results?outcome=member_not_found`);
  assert.deepEqual(
    notFound.body.results.map((r: any) => r.row),
    [1, 4, 7, 10, 13, 16, 19, 22, 25, 28],
  );
  const page = await server.get(`/v1/batches/${created.body.id}/results?outcome=OK&offset=5&limit=3`);
  assert.deepEqual(
    page.body.results.map((r: any) => r.row),
    [9, 11, 12],
  );
  assert.equal(page.body.offset, 5);
  const pending = await server.get(`/v1/batches/${created.body.id}/results?outcome=PENDING`);
  assert.deepEqual(pending.body.results, []);
});

test('invalid rows refuse the whole batch, each error naming its row and field; nothing is queued', async () => {
  const before = await server.runtime.db.kysely
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const checks = [
    CHECKS[0],
    { endpoint: 'estimate', request: { member_id: '10010MHNA', member_first_name: '', member_last_name: '', member_dob: '1988-02-30' } },
    { endpoint: 'lookup', request: {} },
    { endpoint: 'discover', request: { member_first_name: 'Avery', member_dob: '1988-03-14', zip: '1', payer_id: '' } },
    { endpoint: 'scan', request: 'Avery Walsh' },
  ];
  const res = await server.post('/v1/batches', { checks });
  assert.equal(res.status, 400);
  assert.equal(res.body.error_code, 'INVALID_REQUEST');
  assert.match(res.body.message, /4 rows are invalid \(rows 2, 3, 4, 5\); nothing was queued/);
  assert.deepEqual(res.body.errors, [
    { row: 2, field: 'member_dob', message: 'must be a real calendar date in YYYY-MM-DD, such as 1988-03-14 (JSON takes no MM/DD/YYYY; a CSV upload does)' },
    { row: 3, field: 'endpoint', message: 'must be one of estimate, discover, scan, medicaid' },
    { row: 4, field: 'member_last_name', message: 'is required' },
    { row: 4, field: 'zip', message: 'must be a 5-digit ZIP or ZIP+4, or blank' },
    { row: 5, field: 'request', message: 'must be a JSON object: the body of the endpoint' },
  ]);
  const csv = await server.post('/v1/batches', 'member_id,member_dob,favorite_color\n1MHNA,1980-01-01,blue\n', { 'content-type': 'text/csv' });
  assert.equal(csv.status, 400);
  assert.equal(csv.body.errors[0].field, 'header');
  assert.match(csv.body.errors[0].message, /column 3 "favorite_color" is not one of endpoint, member_id/);
  const unclosed = await server.post('/v1/batches', 'member_id,member_dob\n"1MHNA,1980-01-01\n', { 'content-type': 'text/csv' });
  assert.equal(unclosed.status, 400);
  assert.match(unclosed.body.errors[0].message, /line 2: a quoted value is not closed/);
  for (const body of [{}, { checks: [] }, { checks: CHECKS, extra: 1 }, []]) {
    assert.equal((await server.post('/v1/batches', body)).status, 400, JSON.stringify(body).slice(0, 40));
  }
  const after = await server.runtime.db.kysely
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
});

test('at most 10,000 checks a batch', async () => {
  const check = estimate('1MHNA');
  const res = await server.post('/v1/batches', { checks: Array.from({ length: 10_001 }, () => check) });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body.errors, [{ field: 'checks', message: 'must hold at most 10000 checks, got 10001' }]);
  const csv = await server.post('/v1/batches', `member_id,member_dob\n${'1MHNA,1980-01-01\n'.repeat(10_001)}`, { 'content-type': 'text/csv' });
  assert.equal(csv.status, 400);
  const xml = await server.post('/v1/batches', '<checks/>', { 'content-type': 'application/xml' });
  assert.equal(xml.status, 415);
});

test('a batch belongs to its key: another key gets 404, as for an unknown id', async () => {
  const created = await server.post('/v1/batches', { checks: [CHECKS[0]] });
  const other = (await server.runtime.keys.create({ name: 'other practice', env: 'sandbox' })).secret;
  for (const path of [`/v1/batches/${created.body.id}`, `/v1/batches/${created.body.id}/results`]) {
    const res = await server.get(path, { apikey: other });
    assert.equal(res.status, 404, path);
    assert.equal(res.body.error_code, 'NOT_FOUND');
  }
  assert.equal((await server.get('/v1/batches/bat_000000000000000000000000')).status, 404);
  assert.equal((await server.get(`/v1/batches/${created.body.id}`, { apikey: 'nope' })).status, 401);
  assert.equal((await server.post('/v1/batches', { checks: [CHECKS[0]] }, { apikey: '' })).status, 401);
});

test("a batch has its own budget: its rows do not use the key's checks per minute", async () => {
  const { secret } = await server.runtime.keys.create({ name: 'small practice', env: 'sandbox', rate_limit_per_minute: 3 });
  const created = await server.post('/v1/batches', { checks: Array.from({ length: 40 }, (_, i) => estimate(`${i}MHNA`)) }, { apikey: secret });
  assert.equal(created.status, 202);
  const progress = await waitForBatch(server.url, secret, created.body.id);
  assert.deepEqual(
    progress.outcomes.map((o: any) => [o.outcome, o.count]),
    [['OK', 40]],
  );
  const live = await server.post('/v1/estimate', CHECKS[0]!.request, { apikey: secret });
  assert.equal(live.status, 200, 'a real-time check still goes through after 40 batch rows');
  assert.equal(live.headers.get('ratelimit-remaining'), '2');
});
