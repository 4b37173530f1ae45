/**
 * A cost share for an age (docs/estimates.md 1.1, "A cost share for an age"; src/x12/benefits/age-words.json;
 * 271-review-9 54): rows whose MSGs state only the ages they are for price a patient of those ages (their DMG date of
 * birth on the date of service), in any order; another age's row is skipped; an MSG saying more than an age, or a
 * patient without a date of birth, never picks one row: unknown, or the row as the closed world for MSG reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { ageOnly } from '../../src/x12/benefits/age-condition.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const DOS = '2026-06-15';

function owes(member: string[], rows: string[]): number | null {
  const r = normalize271(
    interchange('271', body271([...member, 'DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30', ...rows, 'EB*C*IND*30***29*0*****Y'])),
    {
      encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
    },
  );
  assert.ok(r.ok && r.value.kind === 'coverage');
  return estimate(r.value.coverage, { session_cost: 15000, in_network: true, date_of_service: DOS }).fields.member_obligation;
}

test('ageOnly: an age and whom it is for, nothing else', () => {
  assert.deepEqual(ageOnly('MEMBERS UNDER AGE 19'), { min: null, max: 19 });
  assert.deepEqual(ageOnly('COPAY APPLIES TO MEMBERS AGE 19 AND OLDER'), { min: 19, max: null });
  assert.equal(ageOnly('COPAY WAIVED FOR MEMBERS UNDER AGE 19'), null);
  assert.equal(ageOnly('NO COPAY FOR MEMBERS UNDER AGE 19'), null);
  assert.equal(ageOnly('OFFICE VISIT'), null);
});

test('two copays told apart by age price the patient of each age, the rows in any order', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1950, max: 2025 }), fc.nat(), (year, seed) => {
      const rows = shuffled(
        [
          ['EB*B*IND*MH***27*15*****Y', 'MSG*MEMBERS UNDER AGE 19'],
          ['EB*B*IND*MH***27*30*****Y', 'MSG*MEMBERS AGE 19 AND OLDER'],
        ],
        seed,
      ).flat();
      const age = 2026 - year - 1; // born 1 July: not yet their birthday on 15 June
      assert.equal(owes([`DMG*D8*${year}0701*F`], rows), age < 19 ? 1500 : 3000, String(age));
    }),
    { numRuns: 60, seed: 271_954 },
  );
});

test('without a date of birth, or with words beyond the age, no age picks a row', () => {
  const rows = ['EB*B*IND*MH***27*15*****Y', 'MSG*MEMBERS UNDER AGE 19', 'EB*B*IND*MH***27*30*****Y', 'MSG*MEMBERS AGE 19 AND OLDER'];
  assert.equal(owes([], rows), null);
  // "WAIVED" says more than whom the row is for: the adult's row is never skipped for the age, so $30 never becomes another price.
  const waived = owes(['DMG*D8*19800101*F'], ['EB*B*IND*MH***27*30*****Y', 'MSG*COPAY WAIVED FOR MEMBERS UNDER AGE 19', 'EB*B*IND*30***27*45*****Y']);
  assert.ok(waived === 3000 || waived === null, String(waived));
});
