/**
 * EB01 H (Unlimited) ranks like a visit limit (src/x12/code-tables/eb01.json `limit`; docs/estimates.md 1.1,
 * "Visit limits"; TR3 005010X279A1 1.4.7, the most specific benefit governs): more specific than every limit,
 * the service has none; of a limit's own rank, the two contradict each other (unknown); less specific, it
 * changes nothing. Properties over generated 271s, the loops in any order, beside rows for another date,
 * procedure or place.
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
/** Service types from most to least specific (docs/estimates.md 1.1, "Specificity order"). */
const RANKED = ['MH', 'CF', '98', '30'] as const;

function coverageOf(loops: string[][]): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...loops.flat()])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const priced = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS });

const BESIDE: readonly string[][] = [
  ['EB*F*IND*MH***29***VS*30**Y', 'DTP*348*D8*20260101'],
  ['EB*F*IND*MH***29***VS*0**Y*HC:90791'],
  ['EB*F*IND*MH***29***VS*0**Y', 'III*ZZ*21'],
  ['EB*C*IND*30***29*0*****Y'],
];

const arb = fc.record({
  unlimitedAt: fc.integer({ min: 0, max: 3 }),
  limitAt: fc.integer({ min: 0, max: 3 }),
  left: fc.constantFrom(0, 4),
  total: fc.constantFrom(true, false),
  copay: fc.integer({ min: 5, max: 60 }),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('EB01 H ranks with the visit limits: more specific, no limit; the same rank, unknown; less specific, the limit', () => {
  fc.assert(
    fc.property(arb, ({ unlimitedAt, limitAt, left, total, copay, beside, seed }) => {
      const type = RANKED[limitAt]!;
      const loops = [
        ...(total ? [[`EB*F*IND*${type}***23***VS*20**Y`]] : []),
        [`EB*F*IND*${type}***29***VS*${left}**Y`],
        [`EB*H*IND*${RANKED[unlimitedAt]}*********Y`, 'MSG*UNLIMITED'],
        [`EB*B*IND*MH***27*${copay}*****Y`],
        ...beside,
      ];
      const e = priced(coverageOf(shuffled(loops, seed)));
      if (unlimitedAt < limitAt) {
        assert.equal(e.partial, null);
        assert.equal(e.fields.member_obligation, copay * 100);
        assert.equal(e.fields.visits_remaining, null);
      } else if (unlimitedAt === limitAt) {
        assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
        assert.equal(e.fields.member_obligation, null);
      } else {
        assert.equal(e.fields.visits_remaining, left);
        assert.equal(e.fields.member_obligation, left === 0 ? C : copay * 100);
      }
    }),
    { numRuns: 200, seed: 3829 },
  );
});
