/**
 * A benefit restricted to a procedure keeps its restriction through the JSON connections
 * (docs/going-live.md, "A benefit restricted to a procedure"): Stedi's and the v3 model's
 * `compositeMedicalProcedureIdentifier` is written as EB13 (C003: -01 qualifier, -02 procedure or a
 * range's beginning, -03..-06 modifiers, -08 the range's end), so the 271 reader sees the row as
 * that procedure's and not as the general benefit of its service type.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Value } from 'typebox/value';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { x12ToV3 } from '../../src/payers/simulator/vendors/eligibility-v3-json.ts';
import { optumAnswer } from '../../src/payers/simulator/vendors/optum-json.ts';
import { x12ToStedi } from '../../src/payers/simulator/vendors/stedi-json.ts';
import { v3ToX12 } from '../../src/payers/vendors/eligibility-v3.ts';
import { OptumEligibilityResponse, schemaProblems } from '../../src/payers/vendors/optum-schema.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';
import { StediEligibilityAnswer } from '../../src/payers/vendors/stedi-schema.ts';
import { el, normalize271, tokenize } from '../../src/x12/index.ts';
import { corpus, encounterOf } from '../x12/corpus.ts';

type Json = Record<string, unknown>;

const inquiry: Inquiry = {
  trace_number: 'OURTRACE1',
  payer: { id: 'X', name: null },
  provider: { npi: null, first_name: null, last_name: null, organization_name: null },
  subscriber: { member_id: 'M1', first_name: 'ADA', last_name: 'LOVELACE', dob: '1980-01-02', zip: null },
  dependent: null,
  service_types: ['MH'],
  date: '2026-06-15',
};

/** Each JSON connection with the spelling its published schema gives the qualifier code. */
const READERS = [
  { vendor: 'Stedi', read: stediToX12, qualifierKey: 'productOrServiceIDQualifierCode' },
  { vendor: 'Optum / Change Healthcare v3', read: v3ToX12, qualifierKey: 'productOrServiceIdQualifierCode' },
] as const;

function answer(benefits: Json[]): Json {
  return {
    payer: { name: 'PAYER', payorIdentification: '12345' },
    provider: { providerName: 'CLINIC', npi: '1234567893' },
    subscriber: { memberId: 'M1', firstName: 'ADA', lastName: 'LOVELACE', dateOfBirth: '19800102' },
    benefitsInformation: [{ code: '1', serviceTypeCodes: ['30'] }, ...benefits],
  };
}

/** EB13 of each EB the 271 holds, in order ('' where it has none). */
function eb13s(x12: string): string[] {
  const tokens = tokenize(x12);
  assert.ok(tokens.ok, 'readable X12');
  return tokens.value.segments.filter((s) => s.id === 'EB').map((s) => el(s, 13));
}

const written = (read: (typeof READERS)[number]['read'], benefit: Json) => eb13s(read(answer([benefit]), inquiry)!)[1];

describe('compositeMedicalProcedureIdentifier is written as EB13', () => {
  const cases: [string, Json, string][] = [
    ['a procedure', { procedureCode: '90837' }, 'HC:90837'],
    ['a procedure with a modifier', { procedureCode: '90837', procedureModifiers: ['95'] }, 'HC:90837:95'],
    ['four modifiers (C003-03..-06)', { procedureCode: '90837', procedureModifiers: ['95', 'HO', 'GT', '59'] }, 'HC:90837:95:HO:GT:59'],
    ['a range (C003-08 its end)', { procedureCode: '90832', productOrServiceID: '90838' }, 'HC:90832::::::90838'],
    ['a range with modifiers', { procedureCode: '90832', procedureModifiers: ['95', 'HO'], productOrServiceID: '90838' }, 'HC:90832:95:HO::::90838'],
    [
      'a range with four modifiers',
      { procedureCode: '90832', procedureModifiers: ['95', 'HO', 'GT', '59'], productOrServiceID: '90838' },
      'HC:90832:95:HO:GT:59::90838',
    ],
  ];
  for (const { vendor, read, qualifierKey } of READERS) {
    for (const [what, proc, eb13] of cases)
      test(`${vendor}: ${what} is ${eb13}`, () => {
        const benefit = { code: 'B', serviceTypeCodes: ['MH'], benefitAmount: '0', compositeMedicalProcedureIdentifier: { [qualifierKey]: 'HC', ...proc } };
        assert.equal(written(read, benefit), eb13);
      });

    test(`${vendor}: no procedure, no EB13 (a range's end or a qualifier alone is no composite)`, () => {
      assert.equal(written(read, { code: 'B', serviceTypeCodes: ['MH'], benefitAmount: '30' }), '');
      const endOnly = { code: 'B', serviceTypeCodes: ['MH'], compositeMedicalProcedureIdentifier: { [qualifierKey]: 'HC', productOrServiceID: '90838' } };
      assert.equal(written(read, endOnly), '');
    });

    test(`${vendor}: delimiters in the values never split the composite; a qualifier that is no code is written as sent (the row unknown)`, () => {
      const proc = { productOrServiceIdQualifier: 'HCPCS', [qualifierKey]: 'HC PCS', procedureCode: '908:37', procedureModifiers: ['9*5', ''] };
      // The name sent beside it (`HCPCS`) is no name of the list either: both are written as sent (codeOfEither).
      assert.match(written(read, { code: 'B', serviceTypeCodes: ['MH'], compositeMedicalProcedureIdentifier: proc }) ?? '', /^HC PCS\/HCPCS:908 37:9 5$/i);
    });
  }

  test("the one writer reads either spelling of the qualifier's field", () => {
    for (const { read } of READERS)
      for (const key of ['productOrServiceIDQualifierCode', 'productOrServiceIdQualifierCode'])
        assert.equal(
          written(read, { code: 'B', serviceTypeCodes: ['MH'], compositeMedicalProcedureIdentifier: { [key]: 'AD', procedureCode: 'D0150' } }),
          'AD:D0150',
        );
  });
});

describe('a row for one procedure does not price the general benefit', () => {
  // $40 for MH in network; $0 for 90837 billed with telemedicine modifier 95 (the encounter names no modifier).
  const benefits = (qualifierKey: string): Json[] => [
    { code: 'B', coverageLevelCode: 'IND', serviceTypeCodes: ['MH'], timeQualifierCode: '27', benefitAmount: '40', inPlanNetworkIndicatorCode: 'Y' },
    {
      code: 'B',
      coverageLevelCode: 'IND',
      serviceTypeCodes: ['MH'],
      timeQualifierCode: '27',
      benefitAmount: '0',
      inPlanNetworkIndicatorCode: 'Y',
      compositeMedicalProcedureIdentifier: { [qualifierKey]: 'HC', procedureCode: '90837', procedureModifiers: ['95'] },
    },
  ];
  for (const { vendor, read, qualifierKey } of READERS)
    for (const order of ['as sent', 'reversed'])
      test(`${vendor}, rows ${order}: a 90837 session is priced at the general $40`, () => {
        const rows = benefits(qualifierKey);
        const x12 = read(answer(order === 'as sent' ? rows : rows.reverse()), inquiry)!;
        for (const procedure_code of ['90837', null]) {
          const r = normalize271(x12, { encounter: { date_of_service: inquiry.date, procedure_code, place_of_service: '11' } });
          assert.ok(r.ok && r.value.kind === 'coverage');
          assert.equal(r.value.coverage.in_network?.copayment, 4000);
        }
      });
});

describe('the corpus rows restricted by EB13 survive each JSON connection', () => {
  const restricted = corpus().filter((c) => eb13s(c.text).some((v) => v !== ''));
  const noTrace = (x12: string, c: (typeof restricted)[number]) => {
    const r = normalize271(x12, { encounter: encounterOf(c) });
    assert.ok(r.ok);
    return JSON.parse(JSON.stringify(r.value, (k, v: unknown) => (k === 'trace_number' ? undefined : v))) as unknown;
  };

  test('there are such fixtures', () => assert.ok(restricted.length >= 5, restricted.map((c) => c.name).join(', ')));

  test("Stedi's JSON (as our simulator writes it, schema-true): the same EB13s and the same reading", () => {
    for (const c of restricted) {
      const body = x12ToStedi(c.text)!;
      assert.ok(Value.Check(StediEligibilityAnswer, body), `${c.name}: fits Stedi's schema`);
      const x12 = stediToX12(body, { ...inquiry, date: c.expect.today })!;
      assert.deepEqual(eb13s(x12), eb13s(c.text), c.name);
      assert.deepEqual(noTrace(x12, c), noTrace(c.text, c), c.name);
    }
  });

  test("the v3 model (Optum's answer as our simulator writes it, schema-true): the same EB13s and the same reading", () => {
    for (const c of restricted) {
      const v3 = x12ToV3(c.text, false);
      assert.deepEqual(schemaProblems(OptumEligibilityResponse, optumAnswer(v3, '123456789', 'X')), [], c.name);
      const x12 = v3ToX12(v3, { ...inquiry, date: c.expect.today })!;
      assert.deepEqual(eb13s(x12), eb13s(c.text), c.name);
      assert.deepEqual(noTrace(x12, c), noTrace(c.text, c), c.name);
    }
  });
});
