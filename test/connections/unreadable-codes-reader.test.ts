/**
 * Unknown, never wrong (issue 38), for the v3 reader (Optum's and Change Healthcare's eligibility v3
 * JSON, eligibility-v3-segments.ts) and Stedi's (stedi-read.ts): a benefit element that prices, sent with a value that reads as
 * neither a code nor a name of its list, reaches the 271 as sent, so the 271 reader's closed world
 * (src/x12/benefits/closed-world.ts) makes the row unknown and the visit is not priced (206). Dropping
 * the value would price the answer without the element: each case below checks that answer prices (the
 * MH copay, $30), so a reader that drops the value fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import type { OperationDeps } from '../../src/operations/context.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { decodeAnswer } from '../../src/operations/payer-answer.ts';
import { v3ToX12 } from '../../src/payers/vendors/eligibility-v3.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';

interface Case {
  today: string;
  encounter: { date_of_service: string; procedure_code: string; place_of_service: string };
  member: { member_id: string; first_name: string; last_name: string; dob: string };
  inputs: { provider_session_cost: number };
  answer: { benefitsInformation: Record<string, unknown>[]; tradingPartnerServiceId?: string };
}
// An in-network MH copay ($30) beside an out-of-network coinsurance; the office visit prices the copay.
const V3 = JSON.parse(readFileSync(new URL('../fixtures/vendor-review-6/10-v3-copay-not-waived-for-telehealth-at-home.json', import.meta.url), 'utf8')) as Case;
const NO_DIRECTORY = { network: { payer: () => undefined } } as unknown as OperationDeps;
const COPAY = 3000;

function inquiryOf(c: Case): Inquiry {
  return {
    trace_number: '000000001',
    payer: { id: String(c.answer.tradingPartnerServiceId ?? 'X'), name: null },
    provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'HARBOR LIGHT COUNSELING' },
    subscriber: { member_id: c.member.member_id, first_name: c.member.first_name, last_name: c.member.last_name, dob: c.member.dob, zip: null },
    dependent: null,
    service_types: ['MH'],
    date: c.encounter.date_of_service,
    procedure_code: c.encounter.procedure_code,
    place_of_service: '11',
  };
}

type Reader = typeof v3ToX12;

/** The office visit priced from the answer after `change` edits the MH copay row: the 271 written, the status and the member's share. */
function price(change: (copay: Record<string, unknown>) => void, read: Reader = v3ToX12): { x12: string; status: number; member: unknown } {
  const c = structuredClone(V3);
  const copay = c.answer.benefitsInformation.find((b) => b.code === 'B' && (b.serviceTypeCodes as string[]).includes('MH'))!;
  delete copay.additionalInformation;
  change(copay);
  const inquiry = inquiryOf(c);
  const x12 = read(c.answer, inquiry);
  assert.ok(x12 !== null);
  const r = decodeAnswer(NO_DIRECTORY, inquiry, { answer: x12, read: null });
  if (r.value.kind !== 'coverage') throw new Error(`no coverage: ${r.value.kind}`);
  const request = {
    member_id: c.member.member_id,
    member_first_name: c.member.first_name,
    member_last_name: c.member.last_name,
    member_dob: c.member.dob,
    provider_session_cost: c.inputs.provider_session_cost,
    in_network: true,
    ...c.encounter,
    place_of_service: '11',
  } as EstimateRequest;
  const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, c.today, c.encounter.date_of_service);
  return { x12, status, member: body.member_obligation };
}

interface Unreadable {
  /** The element, for the message. */
  element: string;
  /** The answer without the element (or with a readable value): it prices the copay. */
  absent: (copay: Record<string, unknown>) => void;
  /** The same with the element sent unreadable. */
  unreadable: (copay: Record<string, unknown>) => void;
  /** What the 271 must carry: the value as sent. */
  written: RegExp;
}

const entity = (fields: Record<string, string>) => ({ entityName: 'NORTHSTAR BEHAVIORAL', ...fields });

const CASES: Unreadable[] = [
  {
    element: 'EB01 (code)',
    absent: () => {},
    unreadable: (b) => ((b.code = 'Copay Tier 2'), delete b.name),
    written: /^EB\*Copay Tier 2\*IND\*MH\*/im,
  },
  {
    element: 'EB01 (name)',
    absent: () => {},
    unreadable: (b) => (delete b.code, (b.name = 'Co-Payment Tier Two')),
    written: /^EB\*Co-Payment Tier Two\*IND\*MH\*/im,
  },
  {
    element: 'EB02',
    absent: (b) => (delete b.coverageLevelCode, delete b.coverageLevel),
    unreadable: (b) => (delete b.coverageLevelCode, (b.coverageLevel = 'Member and Partner')),
    written: /^EB\*B\*Member and Partner\*MH\*/im,
  },
  {
    element: 'EB03 (one of the types)',
    absent: () => {},
    unreadable: (b) => (b.serviceTypeCodes = ['MH', 'Behavioral Telehealth']),
    written: /^EB\*B\*IND\*MH\^Behavioral Telehealth\*/im,
  },
  {
    element: 'EB04',
    absent: () => {},
    unreadable: (b) => (b.insuranceTypeCode = 'Exclusive PPO'),
    written: /^EB\*B\*IND\*MH\*Exclusive PPO\*/im,
  },
  {
    element: 'EB06',
    absent: (b) => (delete b.timeQualifierCode, delete b.timeQualifier),
    unreadable: (b) => (delete b.timeQualifierCode, (b.timeQualifier = 'Per Episode of Care')),
    written: /^EB\*B\*IND\*MH\*\*\*Per Episode of Care\*30\*/im,
  },
  {
    element: 'EB09',
    absent: () => {},
    unreadable: (b) => ((b.quantityQualifierCode = 'Sessions Left'), (b.benefitQuantity = '12')),
    written: /^EB\*B\*IND\*MH\*\*\*27\*30\*\*Sessions Left\*12\*/im,
  },
  {
    element: 'EB11',
    absent: () => {},
    unreadable: (b) => (b.authOrCertIndicator = 'Only After Twelve Visits'),
    written: /^EB\*B\*IND\*MH\*\*\*27\*30\*\*\*\*Only After Twelve Visits\*Y/im,
  },
  {
    element: 'HSD01',
    absent: (b) => (b.benefitsServiceDelivery = [{ quantity: '20' }]),
    unreadable: (b) => (b.benefitsServiceDelivery = [{ quantityQualifier: 'Sessions per Year', quantity: '20' }]),
    written: /^HSD\*Sessions per Year\*20/im,
  },
  {
    element: 'HSD03',
    absent: (b) => (b.benefitsServiceDelivery = [{ sampleSelectionModulus: '1' }]),
    unreadable: (b) => (b.benefitsServiceDelivery = [{ unitForMeasurementQualifier: 'Fortnight', sampleSelectionModulus: '1' }]),
    written: /^HSD\*\*\*Fortnight\*1/im,
  },
  {
    element: 'HSD05',
    absent: (b) => (b.benefitsServiceDelivery = [{ numOfPeriods: '1' }]),
    unreadable: (b) => (b.benefitsServiceDelivery = [{ timePeriodQualifier: 'School Term', numOfPeriods: '1' }]),
    written: /^HSD\*\*\*\*\*School Term\*1/im,
  },
  {
    element: 'EB13-01',
    absent: (b) => (b.compositeMedicalProcedureIdentifier = { procedureCode: '90834' }),
    unreadable: (b) => (b.compositeMedicalProcedureIdentifier = { productOrServiceIdQualifierCode: 'CPT-4', procedureCode: '90834' }),
    written: /^EB\*B\*IND\*MH\*\*\*27\*30\*\*\*\*\*Y\*CPT-4:90834~?$/im,
  },
  {
    element: '2115 III01',
    absent: () => {},
    unreadable: (b) => (b.eligibilityAdditionalInformation = { codeListQualifierCode: 'Place Of Service', industryCode: '02' }),
    written: /^III\*Place Of Service\*02/im,
  },
  {
    element: '2120 NM101',
    absent: () => {},
    unreadable: (b) => (b.benefitsRelatedEntity = entity({ entityIdentifier: 'Behavioral Health Vendor' })),
    written: /^NM1\*Behavioral Health Vendor\*1\*NORTHSTAR BEHAVIORAL/im,
  },
  {
    element: '2120 NM108',
    absent: (b) => (b.benefitsRelatedEntity = entity({ entityIdentifier: 'Third-Party Administrator' })),
    unreadable: (b) =>
      (b.benefitsRelatedEntity = entity({
        entityIdentifier: 'Third-Party Administrator',
        entityIdentification: 'Vendor Code',
        entityIdentificationValue: 'NB7',
      })),
    written: /^NM1\*2B\*1\*NORTHSTAR BEHAVIORAL\*{5}Vendor Code\*NB7/im,
  },
];

for (const c of CASES) {
  test(`v3: ${c.element} sent unreadable reaches the 271 as sent and the visit is unknown (206), never priced without it`, () => {
    const absent = price(c.absent);
    assert.equal(absent.status, 200, `${c.element} absent: ${absent.status}`);
    assert.equal(absent.member, COPAY, `${c.element} absent`);
    const r = price(c.unreadable);
    assert.match(r.x12.replace(/~/g, '\n'), c.written, `${c.element}: ${r.x12}`);
    assert.equal(r.status, 206, `${c.element}: ${r.status} ${String(r.member)}`);
    assert.equal(r.member, null, c.element);
  });
}

test('v3: a readable name still reads as its code (EB01, EB02, EB06 and HSD by name price as the codes do)', () => {
  const r = price((b) => {
    delete b.code;
    delete b.coverageLevelCode;
    delete b.timeQualifierCode;
    b.benefitsServiceDelivery = [{ quantityQualifier: 'Visits', quantity: '20', timePeriodQualifier: 'Calendar Year', numOfPeriods: '1' }];
  });
  assert.match(r.x12.replace(/~/g, '\n'), /^EB\*B\*IND\*MH\*\*\*27\*30\*/m);
  assert.match(r.x12.replace(/~/g, '\n'), /^HSD\*VS\*20\*\*\*23\*1/m);
});

/**
 * Stedi's reader writes its coded benefit elements as sent: never cut to a code's length, which could
 * make a value no code is into one (a coverage level "Employee and Spouse" into EMP, the subscriber's own).
 * The benefit also sends each element's name, which the code sent beside it does not read as: the two
 * are written together as sent (codeOfEither), the row unknown either way.
 */
const STEDI_CASES: Unreadable[] = [
  {
    element: 'EB02 (never cut to EMP)',
    absent: (b) => delete b.coverageLevelCode,
    unreadable: (b) => (b.coverageLevelCode = 'EMPLOYEE AND SPOUSE'),
    written: /^EB\*B\*EMPLOYEE AND SPOUSE\/Individual\*MH\*/m,
  },
  {
    element: 'EB06 (never cut to 27)',
    absent: (b) => delete b.timeQualifierCode,
    unreadable: (b) => (b.timeQualifierCode = '27 or 36'),
    written: /^EB\*B\*IND\*MH\*\*\*27 or 36\/Visit\*30\*/m,
  },
  {
    element: 'EB13-01',
    absent: (b) => (b.compositeMedicalProcedureIdentifier = { procedureCode: '90834' }),
    unreadable: (b) => (b.compositeMedicalProcedureIdentifier = { productOrServiceIDQualifierCode: 'CPT-4', procedureCode: '90834' }),
    written: /\*CPT-4:90834~?$/m,
  },
  {
    element: '2120 NM101 (never left out)',
    absent: () => {},
    unreadable: (b) => (b.benefitsRelatedEntities = [entity({ entityIdentifier: 'Behavioral Health Vendor' })]),
    written: /^NM1\*Behavioral Health Vendor\*/m,
  },
];

for (const c of STEDI_CASES) {
  test(`Stedi: ${c.element} sent unreadable reaches the 271 as sent and the visit is unknown (206), never priced without it`, () => {
    const absent = price(c.absent, stediToX12);
    assert.equal(absent.status, 200, `${c.element} absent: ${absent.status}`);
    assert.equal(absent.member, COPAY, `${c.element} absent`);
    const r = price(c.unreadable, stediToX12);
    assert.match(r.x12.replace(/~/g, '\n'), c.written, `${c.element}: ${r.x12}`);
    assert.equal(r.status, 206, `${c.element}: ${r.status} ${String(r.member)}`);
    assert.equal(r.member, null, c.element);
  });
}
