/** The FHIR door shares what is behind /v1: the audit trail (endpoint, payer, member hash) and the per-key rate limit, a Bundle counting each request. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CoverageEligibilityRequest, OperationOutcome } from '@medplum/fhirtypes';
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

// Issue 39, item 1: a Bundle had one audit row, naming only its first entry (none at all when that
// entry was refused: a constant hash of the FHIR body and no payer) while its other entries read members.
test('each request of a Bundle has its own audit record, a refused one recorded as refused', async () => {
  const { secret, key } = await server.runtime.keys.create({ name: 'fhir bundle audit', env: 'sandbox' });
  const members = [
    AVERY,
    { member_id: '10011MHDM', first: 'Marcus', last: 'Bell', dob: '1979-11-02', payer_id: 'SBX-EVERGREEN' },
    { member_id: '10012MHDM', first: 'Priya', last: 'Raman', dob: '1992-07-21', payer_id: 'SBX-EVERGREEN' },
  ];
  const noPurpose = { ...eligibilityRequest(AVERY), purpose: [] as CoverageEligibilityRequest['purpose'] };
  const res = await server.post(PATH, bundleOf(noPurpose, ...members.map((m) => eligibilityRequest(m, { price: 150 }))), { apikey: secret });
  assert.equal(res.status, 200);
  assert.deepEqual(
    (res.body.entry as { response: { status: string } }[]).map((e) => e.response.status),
    ['400', '200', '200', '200'],
  );
  const id = res.headers.get('x-request-id')!;
  const rows = (await records()).filter((r) => r.key_id === key.id).sort((a, b) => (a.request_id < b.request_id ? -1 : 1));
  const hash = memberHasher(AUDIT_KEY);
  assert.deepEqual(
    rows.map((r) => [r.request_id, r.endpoint, r.payer_id, r.status, r.error_code, r.member_hash]),
    [
      [`${id}.1`, 'estimate', 'SBX-EVERGREEN', 400, 'INVALID_REQUEST', null],
      ...members.map((m, i) => [
        `${id}.${i + 2}`,
        'estimate',
        'SBX-EVERGREEN',
        200,
        null,
        hash({ member_id: m.member_id, first_name: m.first, last_name: m.last, dob: m.dob }),
      ]),
    ],
  );
  assert.equal(new Set(rows.map((r) => r.member_hash).filter(Boolean)).size, 3);
  assert.ok(
    rows.slice(1).every((r) => r.control_number !== null && r.trace_number !== null),
    'each answered entry names its exchange',
  );
});

test('when the records of a Bundle cannot be written, the Bundle is withheld (503) and each record kept for retry says so', async () => {
  const { secret, key } = await server.runtime.keys.create({ name: 'fhir bundle withheld', env: 'sandbox' });
  const sqlite = server.runtime.db.sqlite!;
  sqlite.exec(`create trigger refuse_audit before insert on audit_events begin select raise(abort, 'disk full'); end`);
  let res;
  try {
    // Injected, as test/privacy/audit-trail.test.ts's 503: the document states 503 for every endpoint in its description, not per operation.
    res = await server.runtime.app.inject({
      method: 'POST',
      url: PATH,
      headers: { apikey: secret },
      payload: bundleOf(eligibilityRequest(AVERY), eligibilityRequest(AVERY, { price: 150 })),
    });
  } finally {
    sqlite.exec('drop trigger refuse_audit');
  }
  assert.equal(res.statusCode, 503);
  const body = res.json<OperationOutcome>();
  assertConformant(body);
  assert.equal(body.issue[0]!.details!.coding![0]!.code, 'SERVICE_UNAVAILABLE');
  assert.ok(!res.body.includes('Walsh') && !res.body.includes('10010MHNA'), 'nothing of the member is disclosed');
  const id = String(res.headers['x-request-id']);
  const rows = (await records()).filter((r) => r.key_id === key.id);
  assert.deepEqual(rows.map((r) => [r.request_id, r.status, r.error_code]).sort(), [
    [`${id}.1`, 503, 'SERVICE_UNAVAILABLE'],
    [`${id}.2`, 503, 'SERVICE_UNAVAILABLE'],
  ]);
});
