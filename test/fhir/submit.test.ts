/** POST /fhir/r4/CoverageEligibilityRequest/$submit over HTTP: each purpose, Bundles, and every error as an OperationOutcome. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CoverageEligibilityRequest, CoverageEligibilityResponse, Extension, OperationOutcome } from '@medplum/fhirtypes';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { assertConformant } from './conformance.ts';
import { AVERY, bundleOf, eligibilityRequest } from './fixtures.ts';

const PATH = '/fhir/r4/CoverageEligibilityRequest/$submit';
const FHIR = { 'content-type': 'application/fhir+json' };
const SHARE = 'https://coverage-service.org/fhir/StructureDefinition/session-cost-share';
const ALERT = 'https://coverage-service.org/fhir/StructureDefinition/alert';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** Sends a conformant request and checks the answer is conformant FHIR too. */
async function submit(body: unknown, headers: Record<string, string> = FHIR) {
  assertConformant(body, 'the request');
  const res = await server.post(PATH, body, headers);
  assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+json/);
  assertConformant(res.body, `the ${res.status} answer`);
  return res;
}

const part = (ext: Extension | undefined, url: string) => ext?.extension?.find((e) => e.url === url);
const cents = (ext: Extension | undefined) => Math.round((ext?.valueMoney?.value ?? NaN) * 100);
const issueCodes = (o: OperationOutcome) => o.issue.map((i) => i.details?.coding?.[0]?.code);

describe('benefits: the estimate', () => {
  test('a $150 session: inforce, the benefit period, items per benefit and the member share', async () => {
    const res = await submit(eligibilityRequest(AVERY, { price: 150, cpt: '90837', servicedDate: '2026-06-20', id: 'req-1' }));
    assert.equal(res.status, 200);
    const r = res.body as CoverageEligibilityResponse;
    assert.equal(r.resourceType, 'CoverageEligibilityResponse');
    assert.equal(r.outcome, 'complete');
    assert.deepEqual(r.request, { reference: 'CoverageEligibilityRequest/req-1' });
    assert.equal(r.servicedDate, '2026-06-20');
    assert.equal(r.insurer.identifier?.value, 'SBX-EVERGREEN');
    const ins = r.insurance![0]!;
    assert.equal(ins.inforce, true);
    assert.deepEqual(ins.benefitPeriod, { start: '2026-01-01', end: '2026-12-31' });
    assert.deepEqual(ins.coverage, { reference: '#coverage' });
    assert.ok(
      r.contained?.some((c) => c.resourceType === 'Coverage' && c.id === 'coverage'),
      'the Coverage is contained',
    );
    const types = ins.extension?.map((e) => [e.url.split('/').pop(), e.valueCoding?.code]);
    assert.deepEqual(types, [
      ['plan-type', 'PPO'],
      ['insurance-type', 'commercial'],
    ]);
    const inNet = ins.item!.find((i) => i.network?.coding?.[0]?.code === 'in' && i.unit?.coding?.[0]?.code === 'individual')!;
    assert.equal(inNet.category?.coding?.[0]?.system, 'http://terminology.hl7.org/CodeSystem/ex-benefitcategory');
    assert.equal(inNet.category?.coding?.[0]?.code, 'MH');
    assert.equal(inNet.term?.coding?.[0]?.code, 'annual');
    const copay = inNet.benefit!.find((b) => b.type.coding?.[0]?.code === 'copay')!;
    assert.deepEqual(copay.allowedMoney, { value: 30, currency: 'USD' });
    const oop = inNet.benefit!.find((b) => b.type.coding?.[0]?.code === 'out-of-pocket-maximum')!;
    assert.ok(oop.allowedMoney && oop.usedMoney, 'total and used');
    // The same figure the /v1 estimate gives: remaining = allowed - used.
    const v1 = await server.post('/v1/estimate', {
      member_id: AVERY.member_id,
      member_first_name: AVERY.first,
      member_last_name: AVERY.last,
      member_dob: AVERY.dob,
      payer_id: AVERY.payer_id,
      provider_session_cost: 15000,
    });
    assert.equal(Math.round((oop.allowedMoney.value! - oop.usedMoney.value!) * 100), v1.body.remaining_oop_max);
    assert.ok(
      ins.item!.some((i) => i.network?.coding?.[0]?.code === 'out'),
      'out-of-network benefits too',
    );
    const share = r.extension?.find((e) => e.url === SHARE);
    assert.equal(cents(part(share, 'session-cost')), 15000);
    assert.equal(cents(part(share, 'member-obligation')), v1.body.member_obligation);
    assert.equal(cents(part(share, 'payer-obligation')), v1.body.payer_obligation);
    assert.equal(cents(part(share, 'pre-deductible-member-obligation')), v1.body.pre_deductible_member_obligation);
    assert.equal(part(share, 'benefit-structure')?.valueString, v1.body.benefit_structure);
  });

  test('application/json is accepted as well, and an unpriced request has no session share', async () => {
    const res = await submit(eligibilityRequest(AVERY), { 'content-type': 'application/json' });
    assert.equal(res.status, 200);
    const share = (res.body as CoverageEligibilityResponse).extension?.find((e) => e.url === SHARE);
    assert.equal(part(share, 'member-obligation'), undefined, 'no price, no obligation (unknown, not 0)');
  });

  test('alerts are extensions with our code and message', async () => {
    const res = await submit(eligibilityRequest({ member_id: '10030MHDM', first: 'Katherine', last: 'Miller', dob: '1984-04-04' }, { price: 150 }));
    assert.equal(res.status, 200);
    const alerts = (res.body as CoverageEligibilityResponse).extension!.filter((e) => e.url === ALERT);
    const mismatch = alerts.find((a) => part(a, 'code')?.valueCoding?.code === 'DEMOGRAPHIC_MISMATCH')!;
    assert.ok(part(mismatch, 'message')?.valueString);
    const first = mismatch.extension!.filter((e) => e.url === 'payer-value').find((p) => part(p, 'field')?.valueCode === 'first_name');
    assert.equal(part(first, 'value')?.valueString, 'KATHRYN');
  });

  test('a partial answer (the payer gave no cost share) is outcome partial with the code in error', async () => {
    const res = await submit(eligibilityRequest({ member_id: '55MHUC', first: 'Pat', last: 'Doe', dob: '1990-01-01' }, { price: 150 }));
    assert.equal(res.status, 200);
    const r = res.body as CoverageEligibilityResponse;
    assert.equal(r.outcome, 'partial');
    assert.equal(r.error?.[0]?.code.coding?.[0]?.code, 'UNKNOWN_COSTSHARE');
  });

  test('fractional cents are refused, not rounded', async () => {
    const body = eligibilityRequest(AVERY, { price: 150.005 });
    const res = await submit(body);
    assert.equal(res.status, 400);
    const o = res.body as OperationOutcome;
    assert.ok(
      o.issue.some((i) => i.expression?.[0] === 'CoverageEligibilityRequest.item[0].unitPrice' && /whole cents/.test(i.details?.text ?? '')),
      JSON.stringify(o.issue),
    );
  });
});

describe('validation: plan status only', () => {
  test('an inactive plan is inforce false, with no benefit items', async () => {
    const res = await submit(eligibilityRequest({ member_id: '7MHEXP', first: 'Pat', last: 'Doe', dob: '1990-01-01' }, { purpose: ['validation'] }));
    assert.equal(res.status, 200);
    const ins = (res.body as CoverageEligibilityResponse).insurance![0]!;
    assert.equal(ins.inforce, false);
    assert.equal(ins.item, undefined);
    assert.equal(
      (res.body as CoverageEligibilityResponse).extension?.find((e) => e.url === SHARE),
      undefined,
    );
  });
});

describe('discovery', () => {
  test('with an insurer it is a discover at that payer; without one, a scan of every payer', async () => {
    const { member_id: _, ...byName } = AVERY;
    const discover = await submit(eligibilityRequest(byName, { purpose: ['discovery'] }));
    assert.equal(discover.status, 200);
    assert.equal((discover.body as CoverageEligibilityResponse).insurer.identifier?.value, 'SBX-EVERGREEN');
    assert.equal((discover.body as CoverageEligibilityResponse).insurance![0]!.inforce, true);
    const { payer_id: __, ...anywhere } = byName;
    const scan = await submit(eligibilityRequest(anywhere, { purpose: ['discovery'] }));
    assert.equal(scan.status, 200);
    assert.equal((scan.body as CoverageEligibilityResponse).insurer.identifier?.value, 'SBX-EVERGREEN');
  });
});

describe('Bundles', () => {
  test('a Bundle of requests is answered with a batch-response Bundle, in order, an error entry as OperationOutcome', async () => {
    const bundle = bundleOf(
      eligibilityRequest(AVERY, { price: 150 }),
      eligibilityRequest({ member_id: '5MHMNF', first: 'Pat', last: 'Doe', dob: '1990-01-01' }),
      eligibilityRequest({ member_id: '7MHEXP', first: 'Pat', last: 'Doe', dob: '1990-01-01' }, { purpose: ['validation'] }),
    );
    const res = await submit(bundle);
    assert.equal(res.status, 200);
    assert.equal(res.body.resourceType, 'Bundle');
    assert.equal(res.body.type, 'batch-response');
    const entries = res.body.entry as { resource?: CoverageEligibilityResponse; response: { status: string; outcome?: OperationOutcome } }[];
    assert.deepEqual(
      entries.map((e) => e.response.status),
      ['200', '404', '200'],
    );
    assert.deepEqual(entries[0]!.resource!.request, { reference: 'urn:uuid:00000000-0000-4000-8000-000000000000' });
    assert.deepEqual(issueCodes(entries[1]!.response.outcome!), ['MEMBER_NOT_FOUND', '75'], 'our code, then the payer’s AAA reject reason');
    assert.equal(entries[2]!.resource!.insurance![0]!.inforce, false);
  });

  test('bundled resources are found by fullUrl', async () => {
    const request = eligibilityRequest(AVERY, { price: 150 });
    const contained = request.contained!;
    const { contained: _, ...bare } = request;
    const url = (id: string) =>
      `urn:uuid:10000000-0000-4000-8000-0000000000${id === 'patient' ? '01' : id === 'insurer' ? '02' : id === 'coverage' ? '03' : '04'}`;
    const relinked = JSON.parse(JSON.stringify(bare).replace(/"#(\w+)"/g, (_m, id: string) => `"${url(id)}"`)) as CoverageEligibilityRequest;
    const others = contained.map((r) => ({
      fullUrl: url(r.id!),
      resource: JSON.parse(JSON.stringify(r).replace(/"#(\w+)"/g, (_m, id: string) => `"${url(id)}"`)),
    }));
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ fullUrl: 'urn:uuid:20000000-0000-4000-8000-000000000000', resource: relinked }, ...others],
    };
    const res = await submit(bundle);
    assert.equal(res.status, 200);
    assert.equal(res.body.entry[0].response.status, '200');
    assert.equal(res.body.entry[0].resource.insurance[0].inforce, true);
  });
});

describe('errors are OperationOutcome with our error_code in issue.details', () => {
  const outcome = async (body: unknown, status: number, code: string, headers?: Record<string, string>) => {
    const res = await server.post(PATH, body, headers ?? FHIR);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+json/);
    assert.equal(res.body.resourceType, 'OperationOutcome');
    assertConformant(res.body, `the ${status} OperationOutcome`);
    assert.equal(issueCodes(res.body as OperationOutcome)[0], code);
    assert.match(res.body.issue[0].diagnostics, new RegExp(`request_id ${res.headers.get('x-request-id')}`));
    return res.body as OperationOutcome;
  };

  test('400 INVALID_REQUEST: each refused element named by its FHIR path', async () => {
    const noMember = eligibilityRequest({ first: 'Pat', last: 'Doe', dob: '1990-01-01', payer_id: 'SBX-EVERGREEN' });
    const o = await outcome(noMember, 400, 'INVALID_REQUEST');
    assert.ok(
      o.issue.some((i) => i.expression?.[0] === 'Coverage.subscriberId' && i.code === 'required'),
      JSON.stringify(o.issue),
    );
    const future = await outcome(eligibilityRequest({ ...AVERY, dob: '2030-01-01' }), 400, 'INVALID_REQUEST');
    assert.ok(
      future.issue.some((i) => i.expression?.[0] === 'Patient.birthDate'),
      JSON.stringify(future.issue),
    );
    const longAgo = await outcome(eligibilityRequest(AVERY, { servicedDate: '2020-01-02' }), 400, 'INVALID_REQUEST');
    assert.ok(
      longAgo.issue.some((i) => i.expression?.[0] === 'CoverageEligibilityRequest.servicedDate'),
      `the date of service reaches the estimate's window check: ${JSON.stringify(longAgo.issue)}`,
    );
    await outcome({ resourceType: 'Patient' }, 400, 'INVALID_REQUEST');
    await outcome({ resourceType: 'CoverageEligibilityRequest', contained: 5, purpose: ['benefits'] }, 400, 'INVALID_REQUEST');
    await outcome('{"resourceType":', 400, 'INVALID_REQUEST');
  });

  // Issue 39, item 5: a Coverage of Patient B was answered 200 under Patient A, with B's plan.
  test('400 INVALID_REQUEST when the Coverage is another patient’s: both references named', async () => {
    const other = { resourceType: 'Patient' as const, id: 'other', name: [{ given: ['Marcus'], family: 'Bell' }], birthDate: '1979-11-02' };
    const request = eligibilityRequest(AVERY, { price: 150 });
    const contained = request.contained!.map((r) => (r.resourceType === 'Coverage' ? { ...r, beneficiary: { reference: '#other' } } : r));
    const o = await outcome({ ...request, contained: [...contained, other] }, 400, 'INVALID_REQUEST');
    const issue = o.issue.find((i) => i.expression?.[0] === 'Coverage.beneficiary');
    assert.ok(issue, JSON.stringify(o.issue));
    assert.match(issue.details?.text ?? '', /#other.*#patient/);

    // In a Bundle, by Type/id: the request names Patient/a, its Coverage covers Patient/b.
    const url = (n: number) => `urn:uuid:30000000-0000-4000-8000-00000000000${n}`;
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: url(0),
          resource: {
            resourceType: 'CoverageEligibilityRequest',
            status: 'active',
            purpose: ['benefits'],
            created: '2026-06-15',
            patient: { reference: 'Patient/a' },
            insurer: { reference: 'Organization/ins' },
            insurance: [{ focal: true, coverage: { reference: 'Coverage/c' } }],
          },
        },
        { fullUrl: url(1), resource: { resourceType: 'Patient', id: 'a', name: [{ given: ['Avery'], family: 'Walsh' }], birthDate: '1988-03-14' } },
        { fullUrl: url(2), resource: { ...other, id: 'b' } },
        { fullUrl: url(3), resource: { resourceType: 'Organization', id: 'ins', identifier: [{ value: 'SBX-EVERGREEN' }] } },
        {
          fullUrl: url(4),
          resource: {
            resourceType: 'Coverage',
            id: 'c',
            status: 'active',
            subscriberId: '10011MHDM',
            beneficiary: { reference: 'Patient/b' },
            payor: [{ reference: 'Organization/ins' }],
          },
        },
      ],
    };
    const res = await submit(bundle);
    assert.equal(res.status, 200);
    const entry = res.body.entry[0] as { response: { status: string; outcome: OperationOutcome } };
    assert.equal(entry.response.status, '400');
    assert.ok(
      entry.response.outcome.issue.some((i) => i.expression?.[0] === 'Coverage.beneficiary' && /Patient\/b.*Patient\/a/.test(i.details?.text ?? '')),
      JSON.stringify(entry.response.outcome.issue),
    );
    // The same Patient by fullUrl and by Type/id is the same patient.
    const same = structuredClone(bundle);
    (same.entry[4]!.resource as { beneficiary: { reference: string } }).beneficiary = { reference: url(1) };
    const ok = await submit(same);
    assert.equal(ok.body.entry[0].response.status, '200');
  });

  test('400 PAYER_NOT_SUPPORTED, 404 MEMBER_NOT_FOUND, 400 PROVIDER_NOT_RECOGNIZED, 502 PAYER_FAILURE with the payer error', async () => {
    await outcome(eligibilityRequest({ ...AVERY, payer_id: 'NOPE-PAYER' }), 400, 'PAYER_NOT_SUPPORTED');
    await outcome(eligibilityRequest({ member_id: '5MHMNF', first: 'Pat', last: 'Doe', dob: '1990-01-01' }), 404, 'MEMBER_NOT_FOUND');
    await outcome(eligibilityRequest({ member_id: 'PNR40001', first: 'Caleb', last: 'Foster', dob: '1988-08-18' }), 400, 'PROVIDER_NOT_RECOGNIZED');
    const failed = await outcome(eligibilityRequest({ member_id: '1MHRR', first: 'Pat', last: 'Doe', dob: '1990-01-01' }), 502, 'PAYER_FAILURE');
    const payer = failed.issue.find((i) => i.details?.coding?.[0]?.system === 'https://coverage-service.org/fhir/CodeSystem/payer-error');
    assert.equal(payer?.details?.coding?.[0]?.code, '42', 'the AAA reject reason the payer sent');
  });

  test('404 for a URL under /fhir that names no route, as an OperationOutcome', async () => {
    const res = await server.post('/fhir/r4/Patient/1', { resourceType: 'Patient' }, FHIR);
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+json/);
    assertConformant(res.body, 'the 404 OperationOutcome');
    const o = res.body as OperationOutcome;
    assert.equal(issueCodes(o)[0], 'NOT_FOUND');
    assert.match(o.issue[0]!.details!.text!, /No route POST \/fhir\/r4\/Patient\/1/);
    const v1 = await server.post('/v1/no-such-route', {});
    assert.equal(v1.status, 404);
    assert.equal(v1.body.error_code, 'NOT_FOUND', 'outside /fhir, our JSON error as before');
  });

  test('401 without a key, 415 for a body that is not JSON', async () => {
    const res = await fetch(server.url + PATH, { method: 'POST', headers: FHIR, body: JSON.stringify(eligibilityRequest(AVERY)) });
    assert.equal(res.status, 401);
    const body = (await res.json()) as OperationOutcome;
    assertConformant(body);
    assert.deepEqual(issueCodes(body), ['UNAUTHORIZED']);
    assert.equal(body.issue[0]!.code, 'login');
    await outcome('plain text', 415, 'UNSUPPORTED_MEDIA_TYPE', { 'content-type': 'text/plain' });
  });

  test('413 for a body over the limit', async () => {
    const big = {
      ...eligibilityRequest(AVERY),
      text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${'x'.repeat(70 * 1024)}</div>` },
    };
    await outcome(big, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('the key is the one /v1 checks: a wrong key gets 401', async () => {
    const res = await fetch(server.url + PATH, {
      method: 'POST',
      headers: { ...FHIR, apikey: `${TEST_KEY}x` },
      body: JSON.stringify(eligibilityRequest(AVERY)),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as OperationOutcome).resourceType, 'OperationOutcome');
  });
});

test('GET /fhir/r4/metadata: a CapabilityStatement naming $submit and the apikey header, without a key', async () => {
  const res = await fetch(`${server.url}/fhir/r4/metadata`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+json/);
  const cs = (await res.json()) as {
    resourceType: string;
    rest: { security: { description: string }; resource: { type: string; operation?: { name: string; definition: string }[] }[] }[];
  };
  assertConformant(cs);
  const op = cs.rest[0]!.resource.find((r) => r.type === 'CoverageEligibilityRequest')!.operation![0]!;
  assert.equal(op.name, 'submit');
  assert.equal(op.definition, 'http://hl7.org/fhir/OperationDefinition/CoverageEligibilityRequest-submit');
  assert.match(cs.rest[0]!.security.description, /apikey/);
});
