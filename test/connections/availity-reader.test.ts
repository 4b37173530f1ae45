/**
 * Availity's answers read by its published schema (src/payers/vendors/availity-schema.ts): every
 * fixture here is first checked against that schema, so the reader is tested on Availity's shapes,
 * not on ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { defaultEncounter } from '../../src/domain/encounter.ts';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { availityCoverage } from '../../src/payers/simulator/vendors/availity-json.ts';
import { availityToX12 } from '../../src/payers/vendors/availity-271.ts';
import { AvailityCoverage } from '../../src/payers/vendors/availity-schema.ts';
import { ENTITY_IDENTIFIERS } from '../../src/payers/vendors/eligibility-v3-codes.ts';
import { RequestRefused, RouteRefused } from '../../src/payers/production/errors.ts';
import { refusedFields, refusedInAnswer } from '../../src/payers/vendors/availity.ts';
import { codeTable } from '../../src/x12/code-tables/index.ts';
import { build271, normalize271 } from '../../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from '../x12/coverage-arbitrary.ts';

const inquiry: Inquiry = {
  trace_number: 'T1',
  payer: { id: 'AETNA', name: null },
  provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'CLINIC' },
  subscriber: { member_id: 'W123', first_name: 'AVERY', last_name: 'WALSH', dob: '1988-03-14', zip: null },
  dependent: null,
  service_types: ['MH'],
  date: '2026-11-20',
};

function schemaTrue(body: unknown): void {
  const errors = [...Value.Errors(AvailityCoverage, body)].map((e) => `${e.instancePath} ${e.message}`);
  assert.deepEqual(errors, [], 'the fixture is of Availity’s schema');
}

function read(body: unknown, asked: Inquiry = inquiry) {
  schemaTrue(body);
  const x12 = availityToX12(body, asked);
  assert.ok(x12);
  const r = normalize271(x12);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.value;
}

const at = (d: string) => `${d}T00:00:00.000+0000`;

/** The answer of issue 22: an active plan, a $30 in-network MH copay, dates in date-time form. */
const activeMh = {
  id: 'C1',
  status: 'Complete',
  statusCode: '4',
  payer: { payerId: 'AETNA', name: 'AETNA' },
  subscriber: { memberId: 'W123', firstName: 'AVERY', lastName: 'WALSH', birthDate: at('1988-03-14'), genderCode: 'F' },
  patient: { firstName: 'AVERY', lastName: 'WALSH', birthDate: at('1988-03-14'), subscriberRelationshipCode: '18' },
  plans: [
    {
      status: 'Active Coverage',
      statusCode: '1',
      groupNumber: 'G100',
      groupName: 'ACME',
      coverageStartDate: at('2026-01-01'),
      coverageEndDate: at('2026-12-31'),
      benefits: [
        {
          name: 'Mental Health',
          type: 'MH',
          status: 'Active Coverage',
          statusCode: '1',
          amounts: {
            coPayment: { inNetwork: [{ amount: '30.00', amountTimePeriodCode: '27', level: 'Individual', levelCode: 'IND' }] },
            coInsurance: { outOfNetwork: [{ amount: '40', units: 'Percent', levelCode: 'IND' }] },
            deductibles: {
              inNetwork: [{ total: '1500.00', totalTimePeriodCode: '23', remaining: '900.00', remainingTimePeriodCode: '29', levelCode: 'IND' }],
            },
            outOfPocket: { inNetwork: [{ total: '5000', totalTimePeriodCode: '23', remaining: '4100', levelCode: 'IND' }] },
          },
        },
      ],
    },
  ],
};

test('issue 22: an active plan with a $30 MH copay reads active with the copay, the DOB and the plan dates', () => {
  const e = read(activeMh);
  assert.equal(e.kind, 'coverage');
  if (e.kind !== 'coverage') return;
  const c = e.coverage;
  assert.equal(c.coverage_status, 'active');
  assert.equal(c.mental_health_coverage, 'active');
  assert.equal(c.in_network?.copayment, 3000);
  assert.equal(c.out_of_network?.coinsurance, 40);
  assert.equal(c.in_network?.deductible?.individual.total, 150_000);
  assert.equal(c.in_network?.deductible?.individual.remaining, 90_000);
  assert.equal(c.in_network?.oop_max?.individual.remaining, 410_000);
  assert.equal(c.member.dob, '1988-03-14');
  assert.equal(c.plan_begin_date, '2026-01-01');
  assert.equal(c.group_id, 'G100');
});

test("a dependent (the spouse) reads as the subscriber's spouse, and no payer correction of the demographics is invented: Availity's answer has no field for one", () => {
  const spouse = {
    ...activeMh,
    patient: { firstName: 'JORDAN', lastName: 'WALSH', birthDate: at('1987-07-01'), subscriberRelationship: 'Spouse', subscriberRelationshipCode: '01' },
  };
  const e = read(spouse);
  assert.equal(e.kind, 'coverage');
  if (e.kind !== 'coverage') return;
  assert.equal(e.coverage.relationship_to_subscriber, 'spouse');
  assert.equal(e.coverage.member.first_name, 'JORDAN');
  assert.equal(e.coverage.payer_corrected_demographics, false);
});

test("each of several plans keeps its own benefits: last year's inactive plan never prices this year's visit, and a plan's insurance type is its benefits' EB04", () => {
  const current = activeMh.plans[0]!;
  const lastYear = {
    ...current,
    status: 'Inactive',
    statusCode: '6',
    insuranceTypeCode: 'PS',
    coverageStartDate: at('2025-01-01'),
    coverageEndDate: at('2025-12-31'),
    benefits: [{ ...current.benefits[0]!, amounts: { coPayment: { inNetwork: [{ amount: '50.00', amountTimePeriodCode: '27', levelCode: 'IND' }] } } }],
  };
  for (const plans of [
    [lastYear, { ...current, insuranceTypeCode: 'PR' }],
    [{ ...current, insuranceTypeCode: 'PR' }, lastYear],
  ]) {
    const x12 = availityToX12({ ...activeMh, plans }, inquiry)!;
    assert.match(x12, /EB\*B\*IND\*MH\*PS\*\*27\*50(?:\.00)?\*+Y~\n?DTP\*348\*RD8\*20250101-20251231~/);
    const e = read({ ...activeMh, plans });
    assert.equal(e.kind, 'coverage');
    if (e.kind !== 'coverage') return;
    assert.equal(e.coverage.in_network?.copayment, 3000);
    assert.equal(e.coverage.plan_begin_date, '2026-01-01');
  }
});

test('the plan status alone decides: an inactive plan reads inactive, whatever the words', () => {
  const inactive = { ...activeMh, plans: [{ ...activeMh.plans[0]!, status: 'Inactive', statusCode: '6', benefits: [] }] };
  const e = read(inactive);
  assert.ok(e.kind === 'coverage' && e.coverage.coverage_status === 'inactive');
  // A status given only in words is read by the words.
  const worded = { ...activeMh, plans: [{ status: 'Active Coverage', benefits: [] }] };
  const w = read(worded);
  assert.ok(w.kind === 'coverage' && w.coverage.coverage_status === 'active');
});

test('a coinsurance reads the same as a percent, with a % sign, or as a fraction', () => {
  for (const item of [{ amount: '20', units: 'Percent' }, { amount: '20%' }, { amount: '0.2' }, { amount: '20' }]) {
    const body = {
      ...activeMh,
      plans: [{ status: 'Active Coverage', statusCode: '1', benefits: [{ type: 'MH', statusCode: '1', amounts: { coInsurance: { inNetwork: [item] } } }] }],
    };
    const e = read(body);
    assert.ok(e.kind === 'coverage');
    assert.equal(e.coverage.in_network?.coinsurance, 20, JSON.stringify(item));
  }
});

test('other payers, the PCP and a carve-out contact are kept', () => {
  const body = {
    ...activeMh,
    plans: [
      {
        ...activeMh.plans[0]!,
        additionalPayers: [{ name: 'MEDICARE', payerId: 'CMS', secondary: true, typeCode: 'MB', policyNumber: 'P9' }],
        primaryCareProvider: { lastName: 'JONES', firstName: 'ANN', npi: '1234567893' },
        benefits: [
          {
            ...activeMh.plans[0]!.benefits[0]!,
            contacts: [{ typeCode: 'PR', name: 'BEHAVIORAL PARTNERS', payerId: 'BHP1', contactInformation: [{ phone: '8005550100' }] }],
          },
        ],
      },
    ],
  };
  const e = read(body);
  assert.ok(e.kind === 'coverage');
  const c = e.coverage;
  assert.equal(c.additional_policies.length, 1);
  assert.equal(c.additional_policies[0]!.payer_name, 'MEDICARE');
  assert.equal(c.additional_policies[0]!.coordination, 'secondary');
  assert.equal(c.pcp?.npi, '1234567893');
  assert.equal(c.third_party_payer?.name, 'BEHAVIORAL PARTNERS');
  assert.equal(c.mental_health_coverage, 'carved_out');
});

test('validationMessages {field, errorMessage, code, index}: a reject reason is an AAA on its loop; prose and non-X12 codes are dropped', () => {
  const body = {
    id: 'C2',
    status: 'Complete',
    statusCode: '4',
    payer: { payerId: 'AETNA', name: 'AETNA' },
    plans: [],
    validationMessages: [
      { field: 'memberId', errorMessage: 'No member AVERY WALSH 1988-03-14', code: '75', index: 0 },
      { field: 'patientLastName', errorMessage: 'something', code: 'REQUIRED', index: 1 },
    ],
  };
  schemaTrue(body);
  const x12 = availityToX12(body, inquiry)!;
  assert.doesNotMatch(x12, /WALSH 1988|something|REQUIRED/);
  const r = normalize271(x12);
  assert.ok(r.ok && r.value.kind === 'rejected');
  assert.equal(r.value.error_code, 'MEMBER_NOT_FOUND');
  const routed = availityToX12({ ...body, validationMessages: [{ field: 'payerId', code: '79' }] }, inquiry)!;
  assert.match(routed, /NM1\*PR[^~]*~\s*AAA\*N\*\*79/);
});

test('an answer still in progress, or not about coverage, is not read', () => {
  assert.equal(availityToX12({ id: 'C3', status: 'In Progress', statusCode: '0' }, inquiry), null);
  assert.equal(availityToX12('not json', inquiry), null);
});

test('a 400 names our fields: Availity field names become ours, payerId alone is the route’s', () => {
  assert.deepEqual(
    refusedFields({
      errors: [
        { field: 'patientFirstName', errorMessage: 'is required', code: 'REQUIRED', index: 0 },
        { field: 'patientLastName', code: 'REQUIRED' },
        { field: 'providerTaxId', code: 'REQUIRED' },
      ],
    }),
    { fields: ['member_first_name', 'member_last_name'], named: ['patientFirstName', 'patientLastName', 'providerTaxId'] },
  );
  assert.equal(refusedFields({ errors: [{ field: 'payerId', code: 'INVALID' }] }), null);
  assert.deepEqual(refusedFields({ userMessage: 'Bad Request' }), { fields: [], named: [] });
  // A field that is no field name (it could be anything) is not repeated.
  assert.deepEqual(refusedFields({ errors: [{ field: 'AVERY WALSH' }] })?.named, []);
});

/**
 * What Availity's schema carries of a 271, compared between the 271 read directly and through
 * Availity's JSON. Two things it has no place for: EB*MC (a managed-care coordinator: managed
 * Medicaid reads as Medicaid), and a gender sent without a date of birth (our member writer puts
 * DMG only with a date).
 */
const carried = (e: ReturnType<typeof normalize271>) => {
  if (!e.ok) return { error: e.error.message };
  if (e.value.kind !== 'coverage') return { kind: e.value.kind, code: e.value.kind === 'rejected' ? e.value.error_code : null };
  const c = e.value.coverage;
  const person = (p: typeof c.member) => ({ ...p, gender: p.dob ? p.gender : null });
  return {
    ...c,
    insurance_type: c.insurance_type === 'managed_medicaid' ? 'medicaid' : c.insurance_type,
    member: person(c.member),
    subscriber: person(c.subscriber),
    payer_corrected_demographics: null,
    payer_id: null,
    payer_name: null,
  };
};

test('any coverage as Availity JSON (schema-true) reads as its 271 does', () => {
  fc.assert(
    fc.property(coverageArbitrary, inquiryArbitrary, (coverage, asked) => {
      const x12 = build271(asked, { kind: 'coverage', coverage });
      const body = availityCoverage('C', x12, {});
      schemaTrue(body);
      // One encounter for both readings: their BHT dates differ (Availity's answer is dated as asked, build271's today).
      const visit = { encounter: defaultEncounter(asked.date) };
      assert.deepEqual(carried(normalize271(availityToX12(body, asked)!, visit)), carried(normalize271(x12, visit)));
    }),
    { numRuns: 150 },
  );
});

test('a completed answer with no plan and only validation messages is our refused request, never a member without coverage', () => {
  const body = {
    id: 'C4',
    status: 'Complete',
    statusCode: '4',
    plans: [],
    validationMessages: [{ field: 'patientBirthDate', errorMessage: 'Invalid date 1988-03-14', code: 'INVALID', index: 0 }],
  };
  schemaTrue(body);
  assert.throws(
    () => refusedInAnswer('availity', body),
    (e: unknown) => e instanceof RequestRefused && e.fields.join() === 'member_dob' && !e.reason.includes('1988'),
  );
  assert.throws(
    () => refusedInAnswer('availity', { ...body, validationMessages: [{ field: 'payerId', code: 'INVALID' }] }),
    (e: unknown) => e instanceof RouteRefused,
  );
  // A payer's reject reason, or a plan, is an answer to read.
  assert.doesNotThrow(() => refusedInAnswer('availity', { ...body, validationMessages: [{ field: 'memberId', code: '75' }] }));
  assert.doesNotThrow(() => refusedInAnswer('availity', activeMh));
});

test("a plan's own detail lists are its health plan's (service type 30): a visit limit there is read", () => {
  const body = {
    ...activeMh,
    plans: [{ ...activeMh.plans[0]!, limitations: { inNetwork: [{ quantity: '20', quantityQualifierCode: 'VS', amountTimePeriodCode: '23' }] } }],
  };
  schemaTrue(body);
  assert.match(availityToX12(body, inquiry)!, /EB\*F\*\*30\*\*\*23\*\*\*VS\*20\*\*Y~/);
});

/** activeMh with the MH benefit's in-network items of `kind` (a detail list such as limitations, or an amounts kind) replaced. */
function withMhItems(kind: 'limitations' | 'coPayment', items: Record<string, unknown>[]) {
  const plan = activeMh.plans[0]!;
  const mh = plan.benefits[0]!;
  const benefit = kind === 'coPayment' ? { ...mh, amounts: { ...mh.amounts, coPayment: { inNetwork: items } } } : { ...mh, limitations: { inNetwork: items } };
  return { ...activeMh, plans: [{ ...plan, benefits: [benefit] }] };
}

test('a limitation whose quantities are only in deliveryInformation is read as its HSD: the limit, used up or not', () => {
  for (const [left, remaining] of [
    ['0', 0],
    ['9', 9],
  ] as const) {
    const e = read(
      withMhItems('limitations', [
        {
          levelCode: 'IND',
          deliveryInformation: [
            { quantity: '26', quantityQualifierCode: 'VS', timePeriodCode: '23', timePeriods: '1' },
            { quantity: left, quantityQualifier: 'Visits', timePeriod: 'Remaining' },
          ],
        },
      ]),
    );
    assert.equal(e.kind, 'coverage');
    if (e.kind !== 'coverage') return;
    assert.deepEqual(e.coverage.in_network?.visit_limit, { total: 26, remaining });
  }
});

test('a limitation with a deliveryInformation field the reader cannot place (amount) is no limit read as absent: the visits are unknown', () => {
  const e = read(
    withMhItems('limitations', [
      { levelCode: 'IND', deliveryInformation: [{ amount: '4', quantity: '0', quantityQualifierCode: 'VS', timePeriodCode: '29' }] },
    ]),
  );
  assert.equal(e.kind, 'coverage');
  if (e.kind !== 'coverage') return;
  assert.deepEqual(e.coverage.in_network?.visit_limit, { total: null, remaining: null }, 'a limit of unknown size, never no limit');
  assert.equal(e.coverage.in_network?.copayment, null, 'the copay beside an unknown limit does not price');
});

test('closed world: a copay item with a field that could change the price and that the reader cannot write prices nothing', () => {
  const copay = { amount: '30.00', amountTimePeriodCode: '27', levelCode: 'IND' };
  assert.equal(e3(read(withMhItems('coPayment', [copay]))), 3000, 'the plain copay prices');
  for (const extra of [
    { amountTimePeriod: 'Day', amountTimePeriodCode: undefined },
    { coverageEndDate: at('2026-06-30') },
    { placeOfService: 'Office' },
    { levelCode: 'XYZ' },
    { planNetworkName: 'TIER 2 NETWORK' },
  ]) {
    const item = Object.fromEntries(Object.entries({ ...copay, ...extra }).filter(([, v]) => v !== undefined));
    assert.equal(e3(read(withMhItems('coPayment', [item]))), null, JSON.stringify(extra));
  }
});

/** The in-network copay read, null when none prices. */
function e3(e: ReturnType<typeof read>): number | null {
  assert.equal(e.kind, 'coverage');
  return e.kind === 'coverage' ? (e.coverage.in_network?.copayment ?? null) : null;
}

/** The MH benefit of `activeMh` with one contact (benefit `contacts[]`, HealthCareContact). */
function withContact(contact: Record<string, unknown>) {
  return {
    ...activeMh,
    plans: [{ ...activeMh.plans[0]!, benefits: [{ ...activeMh.plans[0]!.benefits[0]!, contacts: [{ name: 'SUNCOAST CARE REVIEW', ...contact }] }] }],
  };
}

test('a contact with roleCode X3 (utilization management organization) keeps its role: no payer, no carve-out, the copay prices', () => {
  for (const contact of [
    { roleCode: 'X3' },
    { role: 'Utilization Management Organization' },
    { roleCode: 'X3', role: 'Utilization Management Organization' },
  ]) {
    const e = read(withContact(contact));
    assert.ok(e.kind === 'coverage');
    const c = e.coverage;
    assert.equal(c.utilization_manager?.name, 'SUNCOAST CARE REVIEW', JSON.stringify(contact));
    assert.equal(c.third_party_payer, null, JSON.stringify(contact));
    assert.notEqual(c.mental_health_coverage, 'carved_out', JSON.stringify(contact));
    assert.equal(withoutMedicalPrice(c).in_network?.copayment, 3000, JSON.stringify(contact));
  }
});

test('every 2120C entity code a contact role can carry is written as its NM101, which the 271 reader’s table decides', () => {
  const decided = Object.keys(codeTable('nm101-2120').codes).sort();
  assert.deepEqual(Object.values(ENTITY_IDENTIFIERS).sort(), decided, 'the role names map onto the decided codes');
  for (const [name, code] of Object.entries(ENTITY_IDENTIFIERS))
    for (const contact of [{ roleCode: code }, { role: name }, { roleCode: code.toLowerCase(), role: name }]) {
      const x12 = availityToX12(withContact(contact), inquiry)!;
      const nm1 = x12
        .split('~')
        .map((s) => s.trim())
        .find((s) => s.startsWith('NM1*') && s.includes('SUNCOAST'))!;
      assert.equal(nm1.split('*')[1], code, JSON.stringify(contact));
    }
});

test('a role no code reads, or a roleCode and role that disagree, is never a payer read as absent: the price is unknown', () => {
  for (const contact of [{ roleCode: 'QQ' }, { role: 'Care Review Partner' }, { roleCode: 'X3', role: 'Payer' }]) {
    const e = read(withContact(contact));
    assert.ok(e.kind === 'coverage');
    const priced = estimate(withoutMedicalPrice(e.coverage), { session_cost: 15000, in_network: true, date_of_service: '2026-11-20' });
    assert.equal(priced.fields.member_obligation, null, JSON.stringify(contact));
    assert.equal(e.coverage.utilization_manager, null, JSON.stringify(contact));
  }
});

test('issue 38: a code field sent as no code is written whole, never cut to a code or left out: the copay prices nothing', () => {
  const copay = { amount: '30.00', amountTimePeriodCode: '27', levelCode: 'IND' };
  const mh = activeMh.plans[0]!.benefits[0]!;
  const withBenefit = (fields: Record<string, unknown>) => ({ ...activeMh, plans: [{ ...activeMh.plans[0]!, benefits: [{ ...mh, ...fields }] }] });
  // Each answer alike but readable prices the copay; a reader that cuts or drops the value prices these too.
  assert.equal(e3(read(withMhItems('coPayment', [{ ...copay, insuranceTypeCode: 'PR' }]))), 3000);
  assert.equal(e3(read(withBenefit({ type: 'MH' }))), 3000);
  const cases: [string, unknown][] = [
    ['amountTimePeriodCode "27 per visit" (EB06, never 27)', withMhItems('coPayment', [{ ...copay, amountTimePeriodCode: '27 per visit' }])],
    ['insuranceTypeCode "PR PLUS" (EB04, never PR)', withMhItems('coPayment', [{ ...copay, insuranceTypeCode: 'PR PLUS' }])],
    ['a benefit type that is no service type (EB03, never none)', withBenefit({ type: 'MH2' })],
  ];
  for (const [what, body] of cases) assert.equal(e3(read(body)), null, what);
});
