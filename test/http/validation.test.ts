/** Every validation rule of the request fields (docs/interface.md section 1) and the error shape (section 4). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const estimate = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const discover = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001', payer_id: '' };
const scan = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' };
const medicaid = { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' };

async function invalid(path: string, body: unknown, fields: string[]) {
  const res = await server.post(path, body);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'INVALID_REQUEST');
  assert.match(res.body.request_id, /^[0-9a-f-]{36}$/);
  const named = res.body.errors.map((e: { field: string }) => e.field).sort();
  assert.deepEqual(named, [...fields].sort(), JSON.stringify(res.body.errors));
  for (const e of res.body.errors) assert.ok(e.message.length > 0);
  return res.body;
}

describe('field formats', () => {
  for (const dob of ['1988-02-30', '2023-02-29', '1988-13-01', '88-03-14', '1988-3-14', '', '1899-12-31', 19880314]) {
    test(`member_dob ${JSON.stringify(dob)} is rejected`, () => invalid('/v1/estimate', { ...estimate, member_dob: dob }, ['member_dob']));
  }
  test('a leap day is a real date', async () => {
    const res = await server.post('/v1/estimate', { ...estimate, member_id: '1MHNA', member_dob: '2000-02-29' });
    assert.equal(res.status, 200);
  });
  for (const npi of ['1234567890', '123456789', '12345678931', 'abcdefghij', 1234567893]) {
    test(`provider_npi ${JSON.stringify(npi)} is rejected`, () => invalid('/v1/estimate', { ...estimate, provider_npi: npi }, ['provider_npi']));
  }
  test('a valid NPI check digit passes', async () => {
    assert.equal((await server.post('/v1/estimate', { ...estimate, provider_npi: VALID_NPI })).status, 200);
  });
  for (const cost of [-1, 1.5, '12.50', '-100', 'abc', '', true, null, '1e5']) {
    test(`provider_session_cost ${JSON.stringify(cost)} is rejected`, () =>
      invalid('/v1/estimate', { ...estimate, provider_session_cost: cost }, ['provider_session_cost']));
  }
  test('provider_session_cost as digits or as an integer gives the same estimate', async () => {
    const a = await server.post('/v1/estimate', { ...estimate, provider_session_cost: '15000' });
    const b = await server.post('/v1/estimate', { ...estimate, provider_session_cost: 15000 });
    assert.equal(a.body.member_obligation, b.body.member_obligation);
    assert.equal(a.body.provider_session_cost, 15000);
  });
  for (const v of ['true', 1, 'yes', null]) {
    test(`in_network ${JSON.stringify(v)} is rejected`, () => invalid('/v1/estimate', { ...estimate, in_network: v }, ['in_network']));
  }
  for (const zip of ['1000', '100011', '10001-12', 'ABCDE', 10001]) {
    test(`zip ${JSON.stringify(zip)} is rejected`, () => invalid('/v1/scan', { ...scan, zip }, ['zip']));
  }
  test('ZIP+4 and blank ZIP are accepted', async () => {
    assert.equal((await server.post('/v1/scan', { ...scan, zip: '10001-1234' })).status, 200);
    assert.equal((await server.post('/v1/scan', { ...scan, zip: '' })).status, 200);
  });
  for (const st of ['XX', 'ny', 'New York', '']) {
    test(`patient_state ${JSON.stringify(st)} is rejected`, () => invalid('/v1/medicaid', { ...medicaid, patient_state: st }, ['patient_state']));
  }
  test('names may not carry X12 delimiters or digits', () =>
    invalid('/v1/scan', { ...scan, member_first_name: 'AVERY*~', member_last_name: 'W4LSH' }, ['member_first_name', 'member_last_name']));
  test('member_id may not carry X12 delimiters', () => invalid('/v1/estimate', { ...estimate, member_id: '10010MH~NA' }, ['member_id']));
  test('names with accents and apostrophes are accepted', async () => {
    const res = await server.post('/v1/scan', { ...scan, member_first_name: 'José', member_last_name: "O'Brien-Núñez" });
    assert.equal(res.status, 404);
  });
});

describe('required and unknown fields', () => {
  test('estimate requires member_id, names and DOB', () => invalid('/v1/estimate', {}, ['member_id', 'member_first_name', 'member_last_name', 'member_dob']));
  test('discover requires names, DOB, ZIP and payer_id', () =>
    invalid('/v1/discover', {}, ['member_first_name', 'member_last_name', 'member_dob', 'zip', 'payer_id']));
  test('scan requires names, DOB and ZIP', () => invalid('/v1/scan', {}, ['member_first_name', 'member_last_name', 'member_dob', 'zip']));
  test('medicaid requires member_id, names and DOB', () => invalid('/v1/medicaid', {}, ['member_id', 'member_first_name', 'member_last_name', 'member_dob']));
  test('medicaid requires payer_id or patient_state', async () => {
    const { patient_state: _s, ...rest } = medicaid;
    await invalid('/v1/medicaid', rest, ['payer_id', 'patient_state']);
    await invalid('/v1/medicaid', { ...rest, payer_id: '' }, ['payer_id', 'patient_state']);
  });
  test('discover and scan do not take member_id', async () => {
    await invalid('/v1/discover', { ...discover, member_id: '10010MHNA' }, ['member_id']);
    await invalid('/v1/scan', { ...scan, member_id: '10010MHNA' }, ['member_id']);
  });
  test('scan does not take payer_id', () => invalid('/v1/scan', { ...scan, payer_id: 'SBX-HARBOR' }, ['payer_id']));
  test('discover and scan need non-blank names', () =>
    invalid('/v1/discover', { ...discover, member_first_name: '', member_last_name: ' ' }, ['member_first_name', 'member_last_name']));
  test('unknown fields are named', () => invalid('/v1/estimate', { ...estimate, favourite_color: 'blue', ssn: '123' }, ['favourite_color', 'ssn']));
  test('wrong types on several fields name each', () =>
    invalid('/v1/estimate', { ...estimate, member_id: 5, member_first_name: ['A'], in_network: 'no' }, ['member_id', 'member_first_name', 'in_network']));
  for (const body of ['[]', '"text"', '42', 'null']) {
    test(`a JSON ${body} body is rejected as not an object`, async () => {
      const res = await server.post('/v1/estimate', body);
      assert.equal(res.status, 400);
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
    });
  }
});

describe('transport errors', () => {
  test('malformed JSON gives 400', async () => {
    const res = await server.post('/v1/estimate', '{"member_id": "1MHNA",');
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'INVALID_REQUEST');
  });
  test('a non-JSON body gives 415', async () => {
    const res = await server.post('/v1/estimate', 'member_id=1MHNA', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(res.status, 415);
    assert.equal(res.body.error_code, 'UNSUPPORTED_MEDIA_TYPE');
    const plain = await server.post('/v1/estimate', 'hello', { 'content-type': 'text/plain' });
    assert.equal(plain.status, 415);
  });
  test('an oversized body gives 413', async () => {
    const res = await server.post('/v1/estimate', { ...estimate, member_first_name: 'A'.repeat(200_000) });
    assert.equal(res.status, 413);
    assert.equal(res.body.error_code, 'PAYLOAD_TOO_LARGE');
  });
  test('an unknown path gives 404 NOT_FOUND', async () => {
    const res = await server.post('/v1/nothing', estimate);
    assert.equal(res.status, 404);
    assert.equal(res.body.error_code, 'NOT_FOUND');
  });
  test('a trailing slash is accepted on estimate', async () => {
    const res = await server.post('/v1/estimate/', estimate);
    assert.equal(res.status, 200);
  });
  test('the API answers with fixed security headers and a request id', async () => {
    const res = await server.post('/v1/estimate', estimate);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  });
});
