/**
 * Which person of a 271 is the patient, and the family figures stated in another person's loop
 * (docs/estimates.md 1.1, "The patient"; src/x12/patient.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Eligibility } from '../../src/x12/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { interchange } from './x12-fixtures.ts';

const DOS = '2025-03-03';
const C = 15000;
const SUBSCRIBER = { first: 'JOHN', dob: '19800101' };
const PATIENT = { first: 'JANE', dob: '20120501' };
const head = ['BHT*0022*11*TRACE1*20250101*1200', 'HL*1**20*1', 'NM1*PR*2*TEST PAYER*****PI*P123', 'HL*2*1*21*1', 'NM1*1P*2*CLINIC*****XX*1234567893'];

interface Person {
  first: string;
  dob: string;
  rows: string[];
}

/** A 271: the subscriber with its rows, then its dependents (2000D) with theirs. */
function answer(sub: Person, dependents: Person[]): string {
  const body = [
    ...head,
    `HL*3*2*22*${dependents.length > 0 ? 1 : 0}`,
    'TRN*2*TRACE1*9P123',
    `NM1*IL*1*DOE*${sub.first}****MI*M100`,
    `DMG*D8*${sub.dob}*M`,
    ...sub.rows,
  ];
  dependents.forEach((d, i) => body.push(`HL*${4 + i}*3*23*0`, `NM1*03*1*DOE*${d.first}`, `DMG*D8*${d.dob}*F`, 'INS*N*19', ...d.rows));
  return interchange('271', body);
}

const iso = (d8: string) => `${d8.slice(0, 4)}-${d8.slice(4, 6)}-${d8.slice(6)}`;

function read(text: string, asked: { first: string; dob: string }): Eligibility {
  const r = normalize271(text, {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
    memberId: 'M100',
    person: { member_id: 'M100', first_name: asked.first, last_name: 'DOE', dob: iso(asked.dob) },
  });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.value;
}

function owes(e: Eligibility) {
  assert.equal(e.kind, 'coverage');
  assert.ok(e.kind === 'coverage');
  return estimate(e.coverage, { session_cost: C, in_network: true, date_of_service: DOS });
}

const FAMILY = fc.record({
  deductible: fc.integer({ min: 0, max: 3000 }),
  deductibleLeft: fc.integer({ min: 0, max: 3000 }),
  oop: fc.integer({ min: 3000, max: 9000 }),
  oopLeft: fc.integer({ min: 0, max: 9000 }),
});

test("family figures in the subscriber's loop are the dependent patient's family's: the same answer as in her own loop", () => {
  fc.assert(
    fc.property(FAMILY, fc.integer({ min: 0, max: 1500 }), fc.boolean(), (f, individualLeft, oopToo) => {
      const family = [`EB*C*FAM*30***23*${f.deductible}*****Y`, `EB*C*FAM*30***29*${Math.min(f.deductibleLeft, f.deductible)}*****Y`];
      if (oopToo) family.push(`EB*G*FAM*30***23*${f.oop}*****Y`, `EB*G*FAM*30***29*${Math.min(f.oopLeft, f.oop)}*****Y`);
      const own = ['EB*1**30*PR', 'EB*A**MH*****.2****Y', 'EB*C*IND*30***23*1500*****Y', `EB*C*IND*30***29*${individualLeft}*****Y`];
      const inOwn = owes(read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, [{ ...PATIENT, rows: [...own, ...family] }]), PATIENT));
      const inSubscriber = owes(read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR', ...family] }, [{ ...PATIENT, rows: own }]), PATIENT));
      assert.deepEqual(inSubscriber, inOwn);
    }),
    { numRuns: 60, seed: 271_2000 },
  );
});

test("the patient's own family figures win over those of another person's loop", () => {
  const own = ['EB*1**30*PR', 'EB*A**MH*****.2****Y', 'EB*C*FAM*30***23*2000*****Y', 'EB*C*FAM*30***29*500*****Y'];
  const e = read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR', 'EB*C*FAM*30***29*100*****Y'] }, [{ ...PATIENT, rows: own }]), PATIENT);
  assert.ok(e.kind === 'coverage');
  assert.equal(e.coverage.in_network?.deductible?.family.remaining, 50000);
});

test('a dependent whose date of birth differs from the one asked is never the patient, whatever its name', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 4000 }), fc.boolean(), (days, sameName) => {
      const other = new Date(Date.UTC(2012, 4, 1) + days * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
      const text = answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, [
        { first: sameName ? PATIENT.first : 'JUNE', dob: other, rows: ['EB*1**30*PR', 'EB*B**MH***27*30*****Y'] },
      ]);
      const e = read(text, PATIENT);
      assert.equal(e.kind, 'rejected');
      assert.ok(e.kind === 'rejected');
      assert.equal(e.error_code, 'MEMBER_NOT_FOUND');
    }),
    { numRuns: 40, seed: 271_2001 },
  );
});

test('another family member’s loop beside the patient, in either order, never changes the answer', () => {
  const patientRows = ['EB*1**30*PR', 'EB*B**MH***27*30*****Y'];
  const sibling = { first: 'JACK', dob: '20090909', rows: ['EB*1**30*PR', 'EB*B**MH***27*45*****Y'] };
  const alone = owes(read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, [{ ...PATIENT, rows: patientRows }]), PATIENT));
  for (const order of [
    [{ ...PATIENT, rows: patientRows }, sibling],
    [sibling, { ...PATIENT, rows: patientRows }],
  ])
    assert.deepEqual(owes(read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, order), PATIENT)), alone);
  // Asked about the subscriber, the subscriber's own rows price the session, not a dependent's.
  const subscriber = read(answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR', 'EB*B**MH***27*20*****Y'] }, [sibling]), SUBSCRIBER);
  assert.equal(owes(subscriber).fields.member_obligation, 2000);
});

test('the member ID asked alone names the dependent whose own ID it is, wherever it stands among them, beside their rows', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 4 }),
      fc.nat(),
      fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 4, maxLength: 4 }),
      fc.boolean(),
      (count, pick, left, askedAlone) => {
        const k = pick % count;
        const body = [...head, 'HL*3*2*22*1', 'TRN*2*TRACE1*9P123', 'NM1*IL*1*DOE*JOHN****MI*M100', 'DMG*D8*19800101*M', 'EB*1**30', 'EB*A*IND*MH***27**.2'];
        for (let i = 0; i < count; i++)
          body.push(
            `HL*${4 + i}*3*23*0`,
            `NM1*03*1*DOE*KID${i}****MI*M1000${i}`,
            `DMG*D8*2010010${i + 1}*F`,
            'INS*N*19',
            'EB*1**30',
            'EB*A*IND*MH***27**.2',
            'EB*C*IND*30***23*1500',
            `EB*C*IND*30***29*${left[i]}`,
          );
        const encounter = { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' };
        const asked = `M1000${k}`;
        const r = normalize271(
          interchange('271', body),
          askedAlone
            ? { encounter, memberId: asked }
            : { encounter, memberId: asked, person: { member_id: asked, first_name: null, last_name: null, dob: null } },
        );
        assert.ok(r.ok && r.value.kind === 'coverage');
        assert.equal(r.value.coverage.member.first_name, `KID${k}`);
        assert.equal(owes(r.value).fields.remaining_deductible, left[k]! * 100);
      },
    ),
    { numRuns: 100, seed: 3826 },
  );
});

test('a name asked with diacritics agrees with the loop a payer writes without them (vendor-review-7 11)', () => {
  const twins = (first: string) =>
    answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, [
      { first: 'RENEE', dob: PATIENT.dob, rows: ['EB*1**30*PR', 'EB*B**MH***27*30*****Y'] },
      { first, dob: PATIENT.dob, rows: ['EB*1**30*PR', 'EB*B**MH***27*45*****Y'] },
    ]);
  // Twins with one date of birth: the name tells them apart, "Zoë" as the payer's ZOE, never RENEE.
  assert.equal(owes(read(twins('ZOE'), { first: 'Zoë', dob: PATIENT.dob })).fields.member_obligation, 4500);
  assert.equal(owes(read(twins('ZOE'), { first: 'zoe', dob: PATIENT.dob })).fields.member_obligation, 4500);
});

test("a dependent's loop without a status row is covered as the subscriber's plan-level row says, never an individual's (271-review-11 01)", () => {
  const status = (subscriberStatus: string[], ownStatus: string[] = []) =>
    owes(
      read(
        answer({ ...SUBSCRIBER, rows: [...subscriberStatus, 'EB*B**MH***27*50*****Y'] }, [
          { ...PATIENT, rows: [...ownStatus, 'EB*B**MH***27*30*****Y', 'EB*C*IND*30***29*0*****Y'] },
        ]),
        PATIENT,
      ),
    );
  assert.equal(status(['EB*1**30*PR']).fields.member_obligation, 3000);
  assert.equal(status(['EB*6**30*PR']).fields.member_obligation, C);
  // The subscriber's own class (IND, EMP) is not the dependent's: the status is unknown.
  for (const level of ['IND', 'EMP']) {
    const e = status([`EB*1*${level}*30*PR`]);
    assert.equal(e.fields.member_obligation, null, level);
    assert.equal(e.partial, 'UNKNOWN_COSTSHARE', level);
  }
  // The dependent's own status row decides.
  assert.equal(status(['EB*6**30*PR'], ['EB*1**30*PR']).fields.member_obligation, 3000);
  assert.equal(status(['EB*1**30*PR'], ['EB*6**30*PR']).fields.member_obligation, C);
});

test('one child sent twice (names differing only in case, the same rows) is the patient; two different loops are not (271-review-11 39)', () => {
  const rows = ['EB*1**30*PR', 'EB*B**MH***27*30*****Y'];
  for (const [second, secondRows, want] of [
    ['Jane', rows, 3000],
    ['JANE', rows, 3000],
    ['JANE', ['EB*1**30*PR', 'EB*B**MH***27*45*****Y'], null],
  ] as const) {
    const e = read(
      answer({ ...SUBSCRIBER, rows: ['EB*1**30*PR'] }, [
        { ...PATIENT, rows },
        { first: second, dob: PATIENT.dob, rows: [...secondRows] },
      ]),
      PATIENT,
    );
    if (want === null) {
      assert.equal(e.kind, 'rejected');
      assert.ok(e.kind === 'rejected');
      assert.equal(e.error_code, 'MEMBER_NOT_FOUND');
    } else assert.equal(owes(e).fields.member_obligation, want);
  }
});
