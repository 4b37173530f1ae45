/** The FHIR mapping without a server: money, the encounter, the request's elements, and every answer's conformance. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CoverageEligibilityRequest } from '@medplum/fhirtypes';
import { encounterFields } from '../../src/fhir/encounter-in.ts';
import { centsToMoney, MAX_CENTS, moneyToCents } from '../../src/fhir/money.ts';
import { resolverFor } from '../../src/fhir/references.ts';
import { translateRequest, type Translation } from '../../src/fhir/request-in.ts';
import { eligibilityResponse } from '../../src/fhir/response-out.ts';
import { operationOutcome } from '../../src/fhir/outcome.ts';
import { ErrorCodes, type ErrorCode } from '../../src/domain/errors.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { coverageArbitrary } from '../x12/coverage-arbitrary.ts';
import { assertConformant, isRefused } from './conformance.ts';
import { AVERY, eligibilityRequest } from './fixtures.ts';

const translate = (request: CoverageEligibilityRequest): Translation => translateRequest(request, resolverFor(request));
const ok = (t: Translation) => {
  assert.ok(t.ok, JSON.stringify(!t.ok && t.errors));
  return t.check;
};
const errorsOf = (t: Translation) => (t.ok ? [] : t.errors.map((e) => e.field));

describe('money', () => {
  test('cents -> Money -> cents is exact for every amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_CENTS }), (c) => assert.deepEqual(moneyToCents(centsToMoney(c)), { ok: true, cents: c })));
  });
  test('a fraction of a cent is refused, never rounded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 }), (dollars, c, extra) => {
        const value = Number(`${dollars}.${String(c).padStart(2, '0')}${extra}`);
        assert.equal(moneyToCents({ value, currency: 'USD' }).ok, false, String(value));
      }),
    );
  });
  test('negative, non-USD, missing and too large amounts are refused', () => {
    for (const money of [{ value: -1 }, { value: 10, currency: 'EUR' as const }, {}, { value: 1e7 }, { value: 1e-7 }])
      assert.equal(moneyToCents(money).ok, false, JSON.stringify(money));
    assert.deepEqual(moneyToCents({ value: 150.1 }), { ok: true, cents: 15010 });
  });
});

describe('the encounter, in the estimate request’s names', () => {
  test('servicedDate, the CPT code and the facility’s place of service', () => {
    const request = eligibilityRequest(AVERY, { servicedDate: '2026-07-01', cpt: '90834' });
    request.contained!.push({
      resourceType: 'Location',
      id: 'office',
      type: [{ coding: [{ system: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set', code: '10' }] }],
    });
    request.facility = { reference: '#office' };
    assertConformant(request);
    const errors: { field: string; message: string }[] = [];
    assert.deepEqual(encounterFields(request, resolverFor(request), errors), {
      date_of_service: '2026-07-01',
      procedure_code: '90834',
      place_of_service: '10',
    });
    assert.deepEqual(errors, []);
  });
  test('a code outside CPT and a period are refused; no encounter is no fields', () => {
    const request = eligibilityRequest(AVERY, { cpt: '90834' });
    request.item![0]!.productOrService = { coding: [{ system: 'http://snomed.info/sct', code: '12345' }] };
    request.servicedPeriod = { start: '2026-07-01', end: '2026-07-02' };
    const errors: { field: string; message: string }[] = [];
    encounterFields(request, resolverFor(request), errors);
    assert.deepEqual(
      errors.map((e) => e.field),
      ['CoverageEligibilityRequest.servicedPeriod', 'CoverageEligibilityRequest.item[0].productOrService'],
    );
    assert.deepEqual(encounterFields(eligibilityRequest(AVERY), resolverFor(eligibilityRequest(AVERY)), []), {});
  });
});

describe('the request’s elements', () => {
  test('benefits: member, payer, NPI, names and the price in our names', () => {
    const check = ok(translate(eligibilityRequest(AVERY, { price: 150.5 })));
    assert.equal(check.operation, 'estimate');
    const body = check.body;
    assert.deepEqual(body, {
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      payer_id: 'SBX-EVERGREEN',
      provider_npi: '1234567893',
      provider_first_name: 'Dana',
      provider_last_name: 'Reyes',
      provider_session_cost: 15050,
    });
  });
  test('the member ID from an identifier of type MB; the payer from Coverage.payor when no insurer identifier', () => {
    const request = eligibilityRequest(AVERY);
    const coverage = request.contained!.find((r) => r.resourceType === 'Coverage')!;
    delete coverage.subscriberId;
    coverage.identifier = [
      { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'SN' }] }, value: 'NOT-THIS' },
      { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MB' }] }, value: 'M-123' },
    ];
    request.insurer = { display: 'Evergreen' };
    const body = ok(translate(request)).body as EstimateRequest;
    assert.equal(body.member_id, 'M-123');
    assert.equal(body.payer_id, 'SBX-EVERGREEN');
  });
  test('our payer-id system wins over other identifiers of the insurer', () => {
    const request = eligibilityRequest(AVERY);
    const insurer = request.contained!.find((r) => r.resourceType === 'Organization')!;
    insurer.identifier = [
      { system: 'urn:ehr:payers', value: 'EHR-7' },
      { system: 'https://coverage-service.org/fhir/payer-id', value: 'SBX-HARBOR' },
    ];
    assert.equal((ok(translate(request)).body as EstimateRequest).payer_id, 'SBX-HARBOR');
  });
  test('purpose: auth-requirements prices; discovery is discover or scan; validation sends no price', () => {
    assert.equal(ok(translate(eligibilityRequest(AVERY, { purpose: ['auth-requirements'] }))).purpose, 'benefits');
    assert.equal(ok(translate(eligibilityRequest(AVERY, { purpose: ['validation', 'discovery'] }))).operation, 'discover');
    const { payer_id: _, ...anywhere } = AVERY;
    assert.equal(ok(translate(eligibilityRequest(anywhere, { purpose: ['discovery'] }))).operation, 'scan');
    const validation = ok(translate(eligibilityRequest(AVERY, { purpose: ['validation'], price: 150 })));
    assert.equal((validation.body as EstimateRequest).provider_session_cost, undefined);
  });
  test('the in-network extension', () => {
    const request = eligibilityRequest(AVERY);
    request.extension = [{ url: 'https://coverage-service.org/fhir/StructureDefinition/in-network', valueBoolean: false }];
    assertConformant(request);
    assert.equal((ok(translate(request)).body as EstimateRequest).in_network, false);
  });
  test('refusals name the FHIR element', () => {
    const twoItems = eligibilityRequest(AVERY, { price: 100 });
    twoItems.item!.push({ unitPrice: { value: 200, currency: 'USD' } });
    assert.deepEqual(errorsOf(translate(twoItems)), ['CoverageEligibilityRequest.item']);
    const outside = eligibilityRequest(AVERY);
    outside.patient = { reference: 'Patient/123' };
    assert.deepEqual(errorsOf(translate(outside)), ['CoverageEligibilityRequest.patient']);
  });
});

describe('every answer is valid FHIR R4 (@medplum/core)', () => {
  test('the validator does refuse a broken resource', () => {
    assert.equal(isRefused({ resourceType: 'CoverageEligibilityResponse', status: 'active' }), true);
    assert.equal(isRefused({ resourceType: 'OperationOutcome', issue: [{ severity: 'error' }] }), true);
    assert.equal(isRefused({ resourceType: 'CoverageEligibilityResponse', extension: [{ url: 'x', valueMoney: { value: '1' } }] }), true);
  });
  test('CoverageEligibilityResponse for any coverage, price and network', () => {
    const context = translate(eligibilityRequest(AVERY)) as Extract<Translation, { ok: true }>;
    fc.assert(
      fc.property(coverageArbitrary, fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }), fc.boolean(), (coverage, cost, inNetwork) => {
        const req = { in_network: inNetwork, ...(cost === undefined ? {} : { provider_session_cost: cost }) } as EstimateRequest;
        const { body } = estimateBody(coverage, req, '2026-06-15');
        const response = eligibilityResponse({
          purpose: 'benefits',
          body,
          coverage,
          context: context.context,
          request: { display: 'r' },
          created: '2026-06-15',
        });
        assertConformant(response);
      }),
      { numRuns: 60 },
    );
  });
  test('OperationOutcome for every error code, with field and payer errors', () => {
    for (const code of Object.keys(ErrorCodes) as ErrorCode[]) {
      const outcome = operationOutcome({
        error_code: code,
        message: 'm',
        request_id: 'r',
        errors: [{ field: 'member_dob', message: 'is required' }],
        payer_errors: [{ code: '75', description: 'Subscriber not found', followup: null, loop: '2100C', category: 'member' }],
      });
      assertConformant(outcome, code);
      assert.deepEqual(outcome.issue[1]!.expression, ['Patient.birthDate']);
    }
  });
});
