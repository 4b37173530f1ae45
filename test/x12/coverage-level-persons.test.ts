/**
 * A copay or coinsurance stated for a class of persons (EB02 CHD children only, SPO spouse only, DEP dependents
 * only, EMP the employee only) is not the patient's when the patient is surely not one of them (docs/estimates.md
 * 1.1, "The benefit matrix"; TR3 005010X279A1 EB02): the subscriber's session is priced by the individual row beside
 * a children's row, in any order; a row for the patient's own class (an age its MSG states met) states the benefit
 * for them over the individual row alike; anything else undecided still competes (unknown).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Coverage } from '../../src/domain/coverage.ts';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { ageCondition, ageOn } from '../../src/x12/benefits/age-condition.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';

function read(subscriber: string[], dependent?: string[]): Coverage {
  const r = normalize271(interchange('271', body271(subscriber, dependent)), {
    encounter: { date_of_service: DOS, procedure_code: '90834', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const member = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS }).fields.member_obligation;

test("the subscriber's session: a copay for children, the spouse or dependents only is another person's, in any order", () => {
  fc.assert(
    fc.property(
      fc.record({
        level: fc.constantFrom('CHD', 'SPO', 'DEP'),
        other: fc.integer({ min: 0, max: 60 }),
        copay: fc.integer({ min: 0, max: 60 }),
        beside: fc.subarray(['EB*C*IND*30***29*0*****Y', 'EB*B*IND*98***27*45*****Y', 'EB*B*IND*MH***27*99*****N']),
        seed: fc.nat(),
      }),
      ({ level, other, copay, beside, seed }) => {
        const rows = [`EB*B*${level}*MH***27*${other}*****Y`, `EB*B*IND*MH***27*${copay}*****Y`, ...beside];
        assert.equal(member(read(['DMG*D8*19800101*F', 'EB*1**30', ...shuffled(rows, seed)])), copay * 100);
      },
    ),
    { numRuns: 120, seed: 2110 },
  );
});

test("a dependent's session: a copay for the employee only, or the spouse only for a child, is another person's", () => {
  for (const [level, relation] of [
    ['EMP', '19'],
    ['SPO', '19'],
    ['CHD', '01'],
    ['EMP', '01'],
  ] as const) {
    const dependent = ['DMG*D8*20150101*M', `INS*N*${relation}`, 'EB*1**30', `EB*B*${level}*MH***27*0*****Y`, 'EB*B*IND*MH***27*30*****Y'];
    assert.equal(member(read(['EB*1**30'], dependent)), 3000, `${level} for INS02 ${relation}`);
  }
});

test("a row for the patient's own class states the benefit for them: the individual row alike is everyone else's, in either order", () => {
  for (const [level, relation] of [
    ['CHD', '19'],
    ['SPO', '01'],
    ['DEP', '19'],
  ] as const)
    for (const order of [0, 1]) {
      const rows = [`EB*B*${level}*MH***27*0*****Y`, 'EB*B*IND*MH***27*30*****Y'];
      const dependent = ['DMG*D8*20150101*M', `INS*N*${relation}`, 'EB*1**30', ...(order === 0 ? rows : rows.reverse())];
      assert.equal(member(read(['EB*1**30'], dependent)), 0, `${level} for INS02 ${relation}`);
    }
  // The subscriber's own class (EMP) beside the individual row.
  assert.equal(member(read(['DMG*D8*19800101*F', 'EB*1**30', 'EB*B*IND*MH***27*30*****Y', 'EB*B*EMP*MH***27*10*****Y'])), 1000);
  // Only a row alike but for its level is replaced: the individual row for another network still prices that network.
  const c = read(['EB*1**30'], ['DMG*D8*20150101*M', 'INS*N*19', 'EB*1**30', 'EB*B*CHD*MH***27*0*****Y', 'EB*B*IND*MH***27*30*****N']);
  assert.equal(estimate(c, { session_cost: C, in_network: false, date_of_service: DOS }).fields.member_obligation, 3000);
});

test("an age the own class's row is limited to in words (MSG), checked against the patient's date of birth", () => {
  const child = (dob: string, msg: string) =>
    member(read(['EB*1**30'], [`DMG*D8*${dob}*M`, 'INS*N*19', 'EB*1**30', 'EB*B*IND*MH***27*30*****Y', 'EB*B*CHD*MH***27*0*****Y', `MSG*${msg}`]));
  assert.equal(child('20150101', 'MEMBERS UNDER AGE 19'), 0, "10 years old: the children's row");
  assert.equal(child('20060304', 'MEMBERS UNDER AGE 19'), 0, 'a day before the 19th birthday');
  // Too old for the children's row, whose words state only its age: another age's share, so the plan's own row prices
  // (docs/estimates.md 1.1, "A cost share for an age"). Words no rule reads: the two rows still compete (unknown).
  assert.equal(child('20060303', 'MEMBERS UNDER AGE 19'), 3000, '19 on the date of service');
  assert.equal(child('20150101', 'NOT FOR MEMBERS UNDER AGE 19'), null, 'negated');
  assert.equal(child('20150101', 'SEE PLAN DOCUMENTS'), null, 'words no rule reads');
  assert.equal(
    member(read(['EB*1**30'], ['INS*N*19', 'EB*1**30', 'EB*B*IND*MH***27*30*****Y', 'EB*B*CHD*MH***27*0*****Y', 'MSG*MEMBERS UNDER AGE 19'])),
    null,
    'no date of birth',
  );
});

test('age conditions in words', () => {
  assert.deepEqual(ageCondition('MEMBERS UNDER AGE 19'), { min: null, max: 19 });
  assert.deepEqual(ageCondition('COPAY APPLIES TO RECIPIENTS AGE 21 AND OLDER'), { min: 21, max: null });
  assert.deepEqual(ageCondition('AGES 18 AND UNDER'), { min: null, max: 19 });
  assert.deepEqual(ageCondition('OVER AGE 64'), { min: 65, max: null });
  assert.equal(ageCondition('NOT FOR MEMBERS UNDER AGE 19'), null);
  assert.equal(ageCondition('UNDER AGE 19 OR AGE 65 AND OLDER'), null);
  assert.equal(ageCondition('OFFICE VISIT'), null);
  assert.equal(ageOn('2010-04-02', '2026-11-03'), 16);
  assert.equal(ageOn('2010-11-03', '2026-11-03'), 16);
  assert.equal(ageOn('2010-11-04', '2026-11-03'), 15);
});

test("a relationship no table reads, or another person's age class, still competes: different amounts are unknown", () => {
  for (const [level, relation] of [
    ['CHD', '53'],
    ['SPO', '53'],
  ] as const) {
    const dependent = ['DMG*D8*20150101*M', `INS*N*${relation}`, 'EB*1**30', `EB*B*${level}*MH***27*0*****Y`, 'EB*B*IND*MH***27*30*****Y'];
    assert.equal(member(read(['EB*1**30'], dependent)), null, `${level} for INS02 ${relation}`);
  }
});
