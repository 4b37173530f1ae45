/**
 * Every dependent of a v3 or Stedi answer (`dependents[]`) is written as a 2000D loop of its own, so the 271
 * reader chooses the patient by member ID, name and date of birth (src/x12/patient.ts, docs/estimates.md
 * 1.1 "The patient"), never the first dependent by position (vendor review set 5, case 12: the patient
 * was the second of two children and the reader priced her sister).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { v3ToX12 } from '../../src/payers/vendors/eligibility-v3.ts';
import { OptumEligibilityResponse, schemaProblems } from '../../src/payers/vendors/optum-schema.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';
import { StediEligibilityAnswer } from '../../src/payers/vendors/stedi-schema.ts';
import { Value } from 'typebox/value';
import { normalize271 } from '../../src/x12/index.ts';

type Json = Record<string, unknown>;

const SISTER = { firstName: 'MAREN', lastName: 'OKONKWO-LIND', dateOfBirth: '20120905', gender: 'F' };
const PATIENT = { firstName: 'TOBIAS', lastName: 'OKONKWO-LIND', dateOfBirth: '20150217', gender: 'M' };

const child = (who: Json): Json => ({
  entityIdentifier: 'Dependent',
  entityType: 'Person',
  relationToSubscriber: 'Child',
  relationToSubscriberCode: '19',
  ...who,
});

/** A family answer: the subscriber, `dependents` in the order given, MH copay $20 in network. */
function answer(dependents: Json[]): Json {
  return {
    payer: { name: 'PAYER', payorIdentification: '12345' },
    provider: { providerName: 'CLINIC', npi: '1234567893' },
    subscriber: { memberId: 'FAM100200', firstName: 'NIAMH', lastName: 'OKONKWO-LIND', dateOfBirth: '19840611', gender: 'F' },
    dependents: dependents.map(child),
    planDateInformation: { planBegin: '20260101', planEnd: '20261231' },
    benefitsInformation: [
      { code: '1', name: 'Active Coverage', serviceTypeCodes: ['30', 'MH'] },
      { code: 'B', serviceTypeCodes: ['MH'], timeQualifierCode: '27', benefitAmount: '20', inPlanNetworkIndicatorCode: 'Y' },
    ],
  };
}

const inquiry = (who: typeof PATIENT): Inquiry => ({
  trace_number: 'OURTRACE7',
  payer: { id: 'X', name: null },
  provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'CLINIC' },
  subscriber: { member_id: 'FAM100200', first_name: 'NIAMH', last_name: 'OKONKWO-LIND', dob: '1984-06-11', zip: null },
  dependent: { member_id: null, first_name: who.firstName, last_name: who.lastName, dob: iso(who.dateOfBirth), zip: null },
  service_types: ['MH'],
  date: '2026-06-15',
});

const iso = (d8: string) => `${d8.slice(0, 4)}-${d8.slice(4, 6)}-${d8.slice(6)}`;

/** Each JSON connection whose answer lists dependents, with its reader and our copy of its schema. */
const READERS = [
  { vendor: 'v3', read: v3ToX12, problems: (body: Json) => schemaProblems(OptumEligibilityResponse, body) },
  { vendor: 'Stedi', read: stediToX12, problems: (body: Json) => [...Value.Errors(StediEligibilityAnswer, body)].map((e) => `${e.instancePath} ${e.message}`) },
] as const;

/** The answer read for the person asked about, as the estimate reads it. */
function readWith(reader: (typeof READERS)[number], body: Json, who: typeof PATIENT) {
  assert.deepEqual(reader.problems(body), [], `the answer fits our copy of the ${reader.vendor} schema`);
  const x12 = reader.read(body, inquiry(who));
  assert.ok(x12, 'a 271');
  const person = { member_id: 'FAM100200', first_name: who.firstName, last_name: who.lastName, dob: iso(who.dateOfBirth) };
  return normalize271(x12, { memberId: 'FAM100200', person });
}

for (const reader of READERS) {
  const read = (body: Json, who: typeof PATIENT) => readWith(reader, body, who);
  describe(`${reader.vendor} dependents: each its own 2000D`, () => {
    for (const [label, order] of [
      ['the patient second', [SISTER, PATIENT]],
      ['the patient first', [PATIENT, SISTER]],
    ] as const) {
      test(`${label}: the patient is the child asked about, never the sibling`, () => {
        const r = read(answer([...order]), PATIENT);
        assert.ok(r.ok, 'read');
        assert.equal(r.value.kind, 'coverage', JSON.stringify(r.value).slice(0, 300));
        if (r.value.kind !== 'coverage') return;
        const c = r.value.coverage;
        assert.equal(c.member.first_name, 'TOBIAS');
        assert.equal(c.member.dob, '2015-02-17');
        assert.equal(c.relationship_to_subscriber, 'child');
        assert.equal(c.in_network?.copayment, 2000);
      });
    }

    test('the sibling asked about is read as herself', () => {
      const r = read(answer([SISTER, PATIENT]), SISTER);
      assert.ok(r.ok && r.value.kind === 'coverage');
      assert.equal(r.value.coverage.member.first_name, 'MAREN');
      assert.equal(r.value.coverage.member.dob, '2012-09-05');
    });

    test('a child whose date of birth no dependent has is not in the answer (no namesake, no sibling priced)', () => {
      const r = read(answer([SISTER, PATIENT]), { ...PATIENT, dateOfBirth: '20170101' });
      assert.ok(r.ok);
      assert.equal(r.value.kind, 'rejected');
    });
  });
}
