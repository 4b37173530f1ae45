/**
 * A copay restricted to the encounter's procedure (TR3 005010X279A1 2110C EB13) beside a deductible reported
 * for no procedure (the plan's 30): the deductible is reported for a less specific benefit than the copay and
 * does not hold it (docs/estimates.md 1.1, the copay and the deductible; TR3 1.4.7, the most specific benefit
 * governs), as a copay for MH does not wait for the plan's deductible. A deductible reported for the procedure
 * still holds it. Rows in any order, beside copays for other service types and another procedure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { body271, interchange } from './x12-fixtures.ts';

const C = 12000;
const DOS = '2025-06-15';

function coverageOf(rows: string[], procedure: string): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', 'EB*1**30', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: procedure, place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}
const priced = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS });

function shuffled<T>(items: T[], seed: number): T[] {
  const out = items.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const arb = fc.record({
  procedure: fc.constantFrom('99404', '90837', '90834'),
  copay: fc.constantFrom(0, 10, 25),
  eb03: fc.constantFrom('', 'MH', '30'),
  beside: fc.subarray(['EB*B*IND*98***27*40*****Y', 'EB*B*IND*MH***27*25*****Y', 'EB*B*IND****27*5*****Y*HC:99999']),
  left: fc.constantFrom(800, 50000),
  seed: fc.nat(),
});

test("a copay for the encounter's procedure does not wait for the plan's deductible, in any order", () => {
  fc.assert(
    fc.property(arb, (a) => {
      const rows = [
        `EB*B*IND*${a.eb03}***27*${a.copay}*****Y*HC:${a.procedure}`,
        ...a.beside,
        'EB*C*IND*30***23*2000*****Y',
        `EB*C*IND*30***29*${a.left}*****Y`,
      ];
      const e = priced(coverageOf(shuffled(rows, a.seed), a.procedure));
      assert.equal(e.fields.member_obligation, a.copay * 100);
    }),
    { numRuns: 120, seed: 271_908 },
  );
});

test('a deductible reported for the procedure itself still holds its copay', () => {
  const rows = ['EB*B*IND****27*0*****Y*HC:99404', 'EB*C*IND****23*2000*****Y*HC:99404', 'EB*C*IND****29*800*****Y*HC:99404'];
  for (const seed of [0, 1, 2, 3]) assert.equal(priced(coverageOf(shuffled(rows, seed), '99404')).fields.member_obligation, C);
});
