/**
 * A used count (EB06 24, year to date) measures the plan year: remaining = total - used only for a total of the
 * plan year. A lifetime (EB06 32) or episode (26) limit minus this year's use is not what is left of it: the
 * limit may be used up, so the visits remaining and the session's price are unknown (206), never the copay
 * (docs/estimates.md 1.1, "Limits and caps"; TR3 005010X279A1 EB06, code list 615). Properties over generated
 * 271s, the loops in any order, beside rows for another place and another plan year.
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

function coverageOf(loops: string[][]): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...loops.flat()])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const BESIDE: readonly string[][] = [
  ['EB*F*IND*MH***29***VS*0**Y', 'III*ZZ*21'],
  ['EB*F*IND*MH***29***VS*0**Y', 'DTP*348*D8*20260101'],
  ['EB*C*IND*30***29*0*****Y'],
];

const arb = fc.record({
  totalPeriod: fc.constantFrom('23', '22', '32', '26'),
  total: fc.integer({ min: 1, max: 60 }),
  used: fc.integer({ min: 0, max: 60 }),
  /** The used count as EB06 24 on its own row, or as an HSD with HSD05 24 under the total's row. */
  hsd: fc.boolean(),
  copay: fc.integer({ min: 5, max: 60 }),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('a used count is subtracted from a plan-year total only; a lifetime or episode total beside it leaves the price unknown', () => {
  fc.assert(
    fc.property(arb, ({ totalPeriod, total, used, hsd, copay, beside, seed }) => {
      const limit = hsd
        ? [[`EB*F*IND*MH***${totalPeriod}***VS*${total}**Y`, `HSD*VS*${used}***24`]]
        : [[`EB*F*IND*MH***${totalPeriod}***VS*${total}**Y`], [`EB*F*IND*MH***24***VS*${used}**Y`]];
      const loops = [...limit, [`EB*B*IND*MH***27*${copay}*****Y`], ...beside];
      const e = estimate(coverageOf(shuffled(loops, seed)), { session_cost: C, in_network: true, date_of_service: DOS });
      const planYear = totalPeriod === '23' || totalPeriod === '22';
      if (planYear) {
        const left = Math.max(0, total - used);
        assert.equal(e.fields.visits_remaining, left);
        assert.equal(e.fields.member_obligation, left === 0 ? C : copay * 100);
      } else {
        assert.equal(e.fields.visits_remaining, null);
        assert.equal(e.fields.member_obligation, null);
        assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
      }
    }),
    { numRuns: 200 },
  );
});
