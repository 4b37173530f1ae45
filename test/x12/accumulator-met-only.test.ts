/**
 * A deductible level sent only as an amount met so far (docs/estimates.md 1.1, "Accumulators: one row
 * family"; TR3 005010X279A1 2110C EB01 C, EB02, EB06 24 year to date, EB07): what is left of it is
 * unknown, and a family deductible met satisfies the individual's in an embedded plan, so the remaining
 * that binds is unknown (206) unless the other level's is 0; never the other level's alone. Rows in any
 * order, beside a row for another service or plan year.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { body271, interchange } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-06-15';

function coverageOf(rows: string[]): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', 'EB*1**30', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
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

const BESIDE = [[], ['EB*C*FAM*35***23*500*****Y'], ['EB*C*FAM*30***29*0*****Y', 'DTP*291*RD8*20240101-20241231']];
const arb = fc.record({
  share: fc.constantFrom('EB*A*IND*MH***27**.2****Y', 'EB*B*IND*MH***27*30*****Y^EB*A*IND*MH***27**0****Y'),
  left: fc.constantFrom(1, 500, 999),
  met: fc.constantFrom(0, 2600, 9999),
  familyLevel: fc.constantFrom('FAM', 'ESP', 'ECH'),
  beside: fc.constantFrom(...BESIDE),
  seed: fc.nat(),
});

test('the family deductible sent only as met year to date beside an individual one not met: the remaining is unknown, in any order', () => {
  fc.assert(
    fc.property(arb, (a) => {
      const groups = [
        ...a.share.split('^').map((r) => [r]),
        ['EB*C*IND*30***23*1000*****Y'],
        [`EB*C*IND*30***29*${a.left}*****Y`],
        [`EB*C*${a.familyLevel}*30***24*${a.met}*****Y`],
        a.beside,
      ].filter((g) => g.length > 0);
      const c = coverageOf(shuffled(groups, a.seed).flat());
      const e = priced(c);
      if (a.share.startsWith('EB*B')) {
        // A copay the deductible does not hold (none reported for MH): the family figure cannot change the price.
        assert.equal(e.fields.member_obligation, 3000);
        return;
      }
      assert.equal(e.fields.remaining_deductible, null);
      assert.equal(e.fields.member_obligation, null);
    }),
    { numRuns: 120, seed: 271_946 },
  );
});

test('beside an individual deductible met, a family one sent only as met changes nothing', () => {
  fc.assert(
    fc.property(arb, (a) => {
      const groups = [
        ['EB*A*IND*MH***27**.2****Y'],
        ['EB*C*IND*30***23*1000*****Y'],
        ['EB*C*IND*30***29*0*****Y'],
        [`EB*C*${a.familyLevel}*30***24*${a.met}*****Y`],
        a.beside,
      ].filter((g) => g.length > 0);
      assert.equal(priced(coverageOf(shuffled(groups, a.seed).flat())).fields.member_obligation, 3000);
    }),
    { numRuns: 60, seed: 271_947 },
  );
});

test('the individual deductible sent only as met beside a family one with a remaining: unknown too', () => {
  const c = coverageOf(['EB*A*IND*MH***27**.2****Y', 'EB*C*IND*30***24*300*****Y', 'EB*C*FAM*30***23*3000*****Y', 'EB*C*FAM*30***29*2000*****Y']);
  assert.equal(priced(c).fields.member_obligation, null);
  // With the family total and remaining alone, the family's remaining binds (control).
  const control = coverageOf(['EB*A*IND*MH***27**.2****Y', 'EB*C*FAM*30***23*3000*****Y', 'EB*C*FAM*30***29*2000*****Y']);
  assert.equal(priced(control).fields.member_obligation, C);
});
