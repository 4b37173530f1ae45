/** CoverageClient against a running sandbox: one method per endpoint, typed results, 206 as results, errors as CoverageApiError. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { EstimateResponse as PackageEstimate } from 'coverage-service';
import { CoverageApiError, CoverageClient, type EstimateResponse } from '../../src/index.ts';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let client: CoverageClient;
before(async () => {
  server = await startTestServer();
  // Every answer the client receives is also checked against the served document.
  client = new CoverageClient({ baseUrl: `${server.url}/`, apiKey: TEST_KEY, fetch: checkingFetch(await checkerForServer(server.url), server.url) });
});
after(() => server.close());

const avery = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

async function rejection(promise: Promise<unknown>): Promise<CoverageApiError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof CoverageApiError, String(err));
    return err;
  }
  assert.fail('expected a CoverageApiError');
}

test('estimate returns the typed estimate', async () => {
  const result: EstimateResponse = await client.estimate({ member_id: '10010MHNA', ...avery, provider_npi: '1234567893', provider_session_cost: 15000 });
  const samePackageType: PackageEstimate = result;
  assert.equal(samePackageType.plan_status, 'ACTIVE');
  assert.equal(result.member_obligation, 3000);
  assert.equal(result.payer_obligation, 12000);
  assert.equal(result.error_code, undefined);
});

test('estimate takes the encounter and its answer says which it priced', async () => {
  const result = await client.estimate({
    member_id: '10010MHNA',
    ...avery,
    date_of_service: '2026-06-22',
    procedure_code: '90834',
    place_of_service: '02',
  });
  const priced: { date_of_service: string; procedure_code: string | null; place_of_service: string } = result.encounter;
  assert.deepEqual(priced, { date_of_service: '2026-06-22', procedure_code: '90834', place_of_service: '02' });
  const err = await rejection(client.estimate({ member_id: '10010MHNA', ...avery, date_of_service: '2024-01-01' }));
  assert.equal(err.status, 400);
  assert.deepEqual(
    err.errors.map((e) => e.field),
    ['date_of_service'],
  );
});

test('a 206 partial is a result with error_code set, not an error', async () => {
  const result = await client.estimate({
    member_id: '10090MHUC',
    member_first_name: 'Adrian',
    member_last_name: 'Cole',
    member_dob: '1986-11-19',
    provider_session_cost: '15000',
  });
  assert.equal(result.error_code, 'UNKNOWN_COSTSHARE');
  assert.equal(result.member_obligation, null);
});

test('discover, scan and medicaid return their results', async () => {
  const discovered = await client.discover({ ...avery, zip: '', payer_id: 'SBX-EVERGREEN' });
  assert.equal(discovered.payer_id, 'SBX-EVERGREEN');
  const scanned = await client.scan({ member_first_name: 'Keisha', member_last_name: 'Daniels', member_dob: '1997-04-14', zip: '10001' });
  assert.equal(scanned.payer_id, 'SBX-COMMUNITY');
  assert.ok(scanned.payers_checked > 1);
  const medicaid = await client.medicaid({
    member_id: '10070MHOMCD',
    member_first_name: 'Luis',
    member_last_name: 'Herrera',
    member_dob: '1999-11-11',
    patient_state: 'NY',
  });
  assert.equal(medicaid.insurance_type, 'medicaid');
  assert.equal(medicaid.patient_state, 'NY');
});

test('payers lists the sandbox network', async () => {
  const { mode, payers } = await client.payers();
  assert.equal(mode, 'sandbox');
  assert.ok(payers.some((p) => p.payer_id === 'SBX-EVERGREEN' && p.supports_search));
});

test('sandboxMembers returns the catalog', async () => {
  const { members } = await client.sandboxMembers();
  const walsh = members.find((m) => m.member_id === '10010MHNA');
  assert.equal(walsh?.payer_id, 'SBX-EVERGREEN');
  assert.deepEqual(walsh?.expectations.estimate, { status: 200, error_code: null });
});

test('an error answer throws CoverageApiError with status, code, message and request id', async () => {
  const err = await rejection(client.estimate({ member_id: '10100MHMNF', member_first_name: 'Nora', member_last_name: 'Quinn', member_dob: '1983-03-23' }));
  assert.equal(err.status, 404);
  assert.equal(err.error_code, 'MEMBER_NOT_FOUND');
  assert.match(err.message, /no member/i);
  assert.match(err.request_id ?? '', /^[0-9a-f-]{36}$/);
  assert.deepEqual(err.errors, []);
});

test('INVALID_REQUEST carries one error per field', async () => {
  const err = await rejection(client.scan({ member_first_name: 'Avery', member_last_name: '', member_dob: '1988-02-30', zip: '1' }));
  assert.equal(err.status, 400);
  assert.equal(err.error_code, 'INVALID_REQUEST');
  assert.deepEqual(err.errors.map((e) => e.field).sort(), ['member_dob', 'member_last_name', 'zip']);
});

test('a wrong key is a 401 error', async () => {
  const stranger = new CoverageClient({ baseUrl: server.url, apiKey: 'cov_test_not_a_key' });
  const err = await rejection(stranger.sandboxMembers());
  assert.equal(err.status, 401);
  assert.equal(err.error_code, 'UNAUTHORIZED');
});

test('an answer that is not the service error shape keeps its status', async () => {
  const proxy: typeof fetch = async () => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
  const err = await rejection(
    new CoverageClient({ baseUrl: 'http://proxy.invalid', apiKey: 'k', fetch: proxy }).scan({
      member_first_name: 'A',
      member_last_name: 'B',
      member_dob: '2000-01-01',
      zip: '',
    }),
  );
  assert.equal(err.status, 502);
  assert.equal(err.error_code, 'UNEXPECTED_RESPONSE');
  assert.equal(err.request_id, null);
});
