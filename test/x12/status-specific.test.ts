/**
 * A status row for mental health speaks for the session over the whole plan's (docs/estimates.md 1.1, "Status
 * rows cover their own service types"; TR3 005010X279A1 2110C EB03 and 1.4.7): the plan inactive beside an
 * active MH row (a behavioral-health-only program) prices the session for the networks the MH row names, and
 * closes the others; with no active MH row the plan stays inactive. Any order, beside other services' rows.
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

function coverageOf(rows: string[]): Coverage {
  const r = normalize271(interchange('271', body271(rows)), { encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' } });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const arb = fc.record({
  plan: fc.constantFrom('EB*6**30', 'EB*6', 'EB*7**30', 'EB*6**30*MC'),
  mh: fc.constantFrom('both', 'in', 'out', 'none', 'inactive'),
  mhTypes: fc.constantFrom('MH', 'MH^AI', 'CF', 'A6^MH'),
  others: fc.subarray(['EB*1**35', 'EB*1**AL', 'EB*6**82', 'EB*1**86']),
  copay: fc.integer({ min: 0, max: 50 }),
  seed: fc.nat(),
});

const NET: Record<string, string> = { both: '', in: '*********Y', out: '*********N' };

test('the plan inactive beside an active mental-health row: that row prices the session for its networks; without one, inactive', () => {
  fc.assert(
    fc.property(arb, ({ plan, mh, mhTypes, others, copay, seed }) => {
      const mhRow = mh === 'none' ? [] : mh === 'inactive' ? [`EB*6**${mhTypes}`] : [`EB*1**${mhTypes}${NET[mh]}`];
      const rows = [plan, ...mhRow, ...others, `EB*B*IND*MH***27*${copay}`, 'EB*C*IND*30***29*0'];
      const c = coverageOf(shuffled(rows, seed));
      for (const inNetwork of [true, false]) {
        const e = estimate(c, { session_cost: C, in_network: inNetwork, date_of_service: DOS });
        const covered = mh === 'both' || (mh === 'in' && inNetwork) || (mh === 'out' && !inNetwork);
        assert.equal(e.fields.member_obligation, covered ? copay * 100 : C, `${mh} ${inNetwork ? 'in' : 'out'}`);
      }
    }),
    { numRuns: 200, seed: 3833 },
  );
});
