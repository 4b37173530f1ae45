/**
 * Places 02 and 10 are two places (CMS Place of Service code set, 2022: 02 "Telehealth Provided Other than
 * in Patient's Home", 10 "Telehealth Provided in Patient's Home"; docs/estimates.md 1.1, "Place of service"):
 * of the rows naming a telehealth place, one naming the visit's own place is more specific than one naming
 * only the other (TR3 005010X279A1 1.4.7, the most specific benefit governs). Properties over generated 271s,
 * the loops in any order, beside a row for another place and one for another plan year.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';

function coverageAt(loops: string[][], place: string): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...loops.flat()])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: place },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const BESIDE: readonly string[][] = [
  ['EB*B*IND*MH***27*75*****Y', 'III*ZZ*21'],
  ['EB*B*IND*MH***27*90*****Y', 'DTP*348*D8*20260101'],
  ['EB*B*IND*MH***27*30*****Y'],
];

const arb = fc.record({
  visitAt: fc.constantFrom('02', '10'),
  /** The visit's own place: a copay (cents / 100) or not covered (null). */
  own: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
  other: fc.integer({ min: 0, max: 60 }),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test("a row naming the visit's own telehealth place beats one naming the other telehealth place, in any order", () => {
  fc.assert(
    fc.property(arb, ({ visitAt, own, other, beside, seed }) => {
      const otherPlace = visitAt === '02' ? '10' : '02';
      const ownRow = own === null ? ['EB*I*IND*MH*********Y', `III*ZZ*${visitAt}`] : [`EB*B*IND*MH***27*${own}*****Y`, `III*ZZ*${visitAt}`];
      const loops = [ownRow, [`EB*B*IND*MH***27*${other}*****Y`, `III*ZZ*${otherPlace}`], ...beside];
      const e = estimate(coverageAt(shuffled(loops, seed), visitAt), { session_cost: C, in_network: true, date_of_service: DOS });
      assert.equal(e.partial, null);
      assert.equal(e.fields.member_obligation, own === null ? C : own * 100);
    }),
    { numRuns: 150 },
  );
});

test('a row naming only 02 (all telehealth before 2022) still prices a telehealth visit at 10 no row names the place of', () => {
  fc.assert(
    fc.property(arb, ({ other, beside, seed }) => {
      const loops = [[`EB*B*IND*MH***27*${other}*****Y`, 'III*ZZ*02'], ...beside];
      const e = estimate(coverageAt(shuffled(loops, seed), '10'), { session_cost: C, in_network: true, date_of_service: DOS });
      assert.equal(e.partial, null);
      assert.equal(e.fields.member_obligation, other * 100);
    }),
    { numRuns: 80 },
  );
});

const homeArb = fc.record({
  /** The row naming only 10 (the home): a copay (cents / 100) or not covered (null). */
  home: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
  office: fc.boolean(),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('a row naming only 10 (the home) never speaks for a telehealth visit at 02: without a row for 02 or for no place, unknown', () => {
  fc.assert(
    fc.property(homeArb, ({ home, office, beside, seed }) => {
      const homeRow = home === null ? ['EB*I**MH*********Y', 'III*ZZ*10'] : [`EB*B*IND*MH***27*${home}*****Y`, 'III*ZZ*10'];
      const loops = [homeRow, ...(office ? [['EB*B*IND*MH***27*45*****Y', 'III*ZZ*11']] : []), ...beside];
      const e = estimate(coverageAt(shuffled(loops, seed), '02'), { session_cost: C, in_network: true, date_of_service: DOS });
      // The MH row naming no place (BESIDE[2], $30) applies wherever the service is given; the home's row never does here.
      const anywhere = beside.includes(BESIDE[2]!);
      assert.equal(e.partial, anywhere ? null : 'UNKNOWN_COSTSHARE');
      assert.equal(e.fields.member_obligation, anywhere ? 3000 : null);
    }),
    { numRuns: 150 },
  );
});

const fallbackArb = fc.record({
  visitAt: fc.constantFrom('11', '02', '10'),
  mh: fc.integer({ min: 0, max: 60 }),
  office: fc.integer({ min: 5, max: 80 }),
  /** The fallback row: the office visit 98 or the plan 30. */
  fallback: fc.constantFrom('98', '30'),
  beside: fc.subarray([...BESIDE.slice(0, 2)]),
  seed: fc.nat(),
});

test('a behavioral-health cost share stated only for the other way of seeing the member: the 98/30 fallback never prices the visit', () => {
  fc.assert(
    fc.property(fallbackArb, ({ visitAt, mh, office, fallback, beside, seed }) => {
      const telehealthVisit = visitAt !== '11';
      // The MH copay names the office for a telehealth visit, and telehealth (02 and 10) for an office visit.
      const mhRow = telehealthVisit ? [`EB*B*IND*MH***27*${mh}*****Y`, 'III*ZZ*11'] : [`EB*B*IND*MH***27*${mh}*****Y`, 'III*ZZ*02', 'III*ZZ*10'];
      const loops = [mhRow, [`EB*B*IND*${fallback}***27*${office}*****Y`], ...beside];
      const e = estimate(coverageAt(shuffled(loops, seed), visitAt), { session_cost: C, in_network: true, date_of_service: DOS });
      assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
      assert.equal(e.fields.member_obligation, null);
    }),
    { numRuns: 120 },
  );
});
