/** The FHIR door shares what is behind /v1: the audit trail (endpoint, payer, member hash) and the per-key rate limit, a Bundle counting each request. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { memberHasher } from '../../src/store/member-hash.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { assertConformant } from './conformance.ts';
import { AVERY, bundleOf, eligibilityRequest } from './fixtures.ts';

const PATH = '/fhir/r4/CoverageEligibilityRequest/$submit';
const AUDIT_KEY = 'fhir-suite-audit-key';
let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_AUDIT_KEY: AUDIT_KEY } });
});
after(() => server.close());

async function records() {
  await server.runtime.audit.flush();
  return server.runtime.db.kysely.selectFrom('audit_events').selectAll().orderBy('at').execute();
}

test('each FHIR check is audited like its /v1 twin: the operation that ran, the payer, the member hash', async () => {
  const estimate = await server.post(PATH, eligibilityRequest(AVERY, { price: 150 }));
  const { member_id: _, ...byName } = AVERY;
  const discover = await server.post(PATH, eligibilityRequest(byName, { purpose: ['discovery'] }));
  const refused = await server.post(PATH, { resourceType: 'Patient' });
  assert.deepEqual([estimate.status, discover.status, refused.status], [200, 200, 400]);
  const byRequest = new Map((await records()).map((r) => [r.request_id, r]));
  const hash = memberHasher(AUDIT_KEY);
  const e = byRequest.get(estimate.headers.get('x-request-id')!);
  assert.deepEqual([e?.endpoint, e?.payer_id, e?.status, e?.error_code], ['estimate', 'SBX-EVERGREEN', 200, null]);
  assert.equal(e?.member_hash, hash({ member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' }));
  const d = byRequest.get(discover.headers.get('x-request-id')!);
  assert.deepEqual([d?.endpoint, d?.payer_id], ['discover', 'SBX-EVERGREEN']);
  assert.equal(d?.member_hash, hash({ member_id: null, first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14' }));
  const r = byRequest.get(refused.headers.get('x-request-id')!);
  assert.deepEqual([r?.status, r?.error_code, r?.member_hash], [400, 'INVALID_REQUEST', null], 'the audit keeps our error_code');
});

test('a Bundle counts one check per request against the key’s limit', async () => {
  const { secret } = await server.runtime.keys.create({ name: 'fhir bundle limit', env: 'sandbox', rate_limit_per_minute: 3 });
  const two = await server.post(PATH, bundleOf(eligibilityRequest(AVERY), eligibilityRequest(AVERY)), { apikey: secret });
  assert.equal(two.status, 200);
  const more = await server.post(PATH, bundleOf(eligibilityRequest(AVERY), eligibilityRequest(AVERY)), { apikey: secret });
  assert.equal(more.status, 429);
  assertConformant(more.body);
  assert.equal((more.body as OperationOutcome).issue[0]!.details!.coding![0]!.code, 'TOO_MANY_REQUESTS');
  assert.match(more.headers.get('retry-after') ?? '', /^\d+$/);
});
