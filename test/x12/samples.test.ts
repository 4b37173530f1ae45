import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Coverage } from '../../src/domain/coverage.ts';
import { detectTransactionSet, normalize271, parse270 } from '../../src/x12/index.ts';
import { SAMPLE, sample } from './x12-fixtures.ts';

function coverageOf(name: string): Coverage {
  const r = normalize271(sample(name));
  assert.ok(r.ok, name);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.value.kind, 'coverage');
  assert.ok(r.value.kind === 'coverage');
  assert.equal(r.value.trace_number, '93175-012547');
  return r.value.coverage;
}

const KANSAS_CITY = { street_line_1: '15197 BROADWAY AVENUE', street_line_2: 'APT 215', city: 'KANSAS CITY', state: 'MO', zip: '64108' };
const JOHN = { first_name: 'JOHN', last_name: 'SMITH', member_id: '123456789', gender: 'M' as const, dob: '1963-05-19', address: KANSAS_CITY };
const copayOnly = (copayment: number) => ({
  copayment,
  coinsurance: null,
  deductible_applies: false,
  deductible: null,
  oop_max: null,
  visit_limit: null,
});

test('subscriber 271: GOLD 123 PLAN, MH copays $10 in / $30 out, PCP Marcus Jones, Kansas City', () => {
  const c = coverageOf(SAMPLE.subscriber271);
  assert.deepEqual(c, {
    payer_id: '841610001',
    payer_name: 'ABC COMPANY',
    plan_name: 'GOLD 123 PLAN',
    plan_type: 'HMO',
    insurance_type: 'commercial',
    group_name: null,
    group_id: null,
    plan_begin_date: '2006-01-01',
    plan_end_date: null,
    eligibility_end_date: null,
    coverage_status: 'active',
    mental_health_coverage: 'active',
    in_network: copayOnly(1000),
    out_of_network: copayOnly(3000),
    telehealth: null,
    pcp: { first_name: 'MARCUS', last_name: 'JONES', npi: null, organization_name: null },
    third_party_payer: null,
    utilization_manager: null,
    additional_policies: [],
    is_marketplace: false,
    is_bluecard: false,
    is_hdhp: false,
    member: JOHN,
    subscriber: JOHN,
    relationship_to_subscriber: 'self',
    payer_corrected_demographics: false,
    next_plan_year: null,
    messages: [],
  } satisfies Coverage);
});

test('dependent 271: member Mary Smith, child of subscriber John Smith, same plan', () => {
  const c = coverageOf(SAMPLE.dependent271);
  assert.deepEqual(c.member, { first_name: 'MARY', last_name: 'SMITH', member_id: null, gender: 'F', dob: '1998-10-14', address: KANSAS_CITY });
  assert.deepEqual(c.subscriber, JOHN);
  assert.equal(c.relationship_to_subscriber, 'child');
  assert.equal(c.plan_name, 'GOLD 123 PLAN');
  assert.equal(c.plan_begin_date, '2006-01-01');
  assert.equal(c.coverage_status, 'active');
  assert.equal(c.mental_health_coverage, 'active');
  assert.deepEqual(c.in_network, copayOnly(1000));
  assert.deepEqual(c.out_of_network, copayOnly(3000));
  assert.deepEqual(c.pcp, { first_name: 'MARCUS', last_name: 'JONES', npi: null, organization_name: null });
});

test('error 271: provider-level AAA*Y**50*N is PROVIDER_NOT_RECOGNIZED, SE mismatch a warning', () => {
  const r = normalize271(sample(SAMPLE.error271));
  assert.ok(r.ok);
  assert.deepEqual(r.value, {
    kind: 'rejected',
    error_code: 'PROVIDER_NOT_RECOGNIZED',
    level: 'provider',
    reason_code: '50',
    followup: 'N',
    reason: 'AAA 50: provider ineligible for inquiries (resubmission not allowed)',
  });
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0]!, /SE02 control number 4323 .* does not match ST02 4321/);
});

test('subscriber 270: Robert Smith, member 11122333301, service type 30', () => {
  const r = parse270(sample(SAMPLE.subscriber270));
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.value, {
    trace_number: '93175-012547',
    payer: { id: '842610001', name: 'ABC COMPANY' },
    provider: { npi: null, first_name: null, last_name: null, organization_name: 'BONE AND JOINT CLINIC' },
    subscriber: { member_id: '11122333301', first_name: 'ROBERT', last_name: 'SMITH', dob: '1943-05-19', zip: null },
    dependent: null,
    service_types: ['30'],
    date: '2006-05-01',
  });
});

test('dependent 270: subscriber 11122333301, dependent Mary Smith, provider Marcus Jones (SV id, no NPI)', () => {
  const r = parse270(sample(SAMPLE.dependent270));
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.value, {
    trace_number: '93175-012547',
    payer: { id: '842610001', name: 'ABC COMPANY' },
    provider: { npi: null, first_name: 'MARCUS', last_name: 'JONES', organization_name: null },
    subscriber: { member_id: '11122333301', first_name: null, last_name: null, dob: null, zip: null },
    dependent: { member_id: null, first_name: 'MARY', last_name: 'SMITH', dob: '1978-10-14', zip: null },
    service_types: ['30'],
    date: '2006-05-01',
  });
});

test('detectTransactionSet peeks at ST01 of every sample', () => {
  assert.equal(detectTransactionSet(sample(SAMPLE.subscriber270)), '270');
  assert.equal(detectTransactionSet(sample(SAMPLE.dependent271)), '271');
  assert.equal(detectTransactionSet(sample(SAMPLE.error271)), '271');
  assert.equal(detectTransactionSet('not x12'), null);
  assert.equal(detectTransactionSet(''), null);
  assert.equal(detectTransactionSet(sample(SAMPLE.subscriber271).replace('ST*271', 'ST*835')), null);
  // ST01 is the whole element: a longer code is another set, and the text may end right after it.
  assert.equal(detectTransactionSet(sample(SAMPLE.subscriber271).replace('ST*271*', 'ST*2710*')), null);
  const isa = sample(SAMPLE.subscriber271).slice(0, 106);
  assert.equal(detectTransactionSet(`${isa}GS*HB~ST*271`), '271');
  assert.equal(detectTransactionSet(`${isa}GS*HB~ST*27`), null);
});

test('a 270 is not a 271 and vice versa', () => {
  const a = normalize271(sample(SAMPLE.subscriber270));
  assert.equal(a.ok, false);
  assert.ok(!a.ok && /expected a 271 transaction set, found 270/.test(a.error.message) && a.error.segment_index === 3);
  const b = parse270(sample(SAMPLE.subscriber271));
  assert.equal(b.ok, false);
  assert.ok(!b.ok && /expected a 270/.test(b.error.message));
});
