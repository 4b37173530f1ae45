/**
 * A 2110C row dated to a plan year by its own DTP 291 (plan) range speaks for that year only
 * (docs/estimates.md 1.1, "The benefit matrix"; TR3 005010X279A1 2110C DTP 291): beside this year's
 * row, last year's (or next year's) deductible, OOP max or copay never prices the session and is named
 * in the explanation's skipped rows; a row with no date still competes; the answer never depends on
 * the rows' order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Coverage } from '../../src/domain/coverage.ts';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import type { TraceEntry } from '../../src/x12/benefits/trace.ts';
import { body271, interchange } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-10-14';
const THIS_YEAR = 'DTP*291*RD8*20250101-20251231';
const YEARS = { last: 'DTP*291*RD8*20240101-20241231', next: 'DTP*291*RD8*20260101-20261231' } as const;

function read(rows: string[]): { coverage: Coverage; trace: TraceEntry[] } {
  const trace: TraceEntry[] = [];
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90834', place_of_service: '11' },
    trace,
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return { coverage: r.value.coverage, trace };
}
const coverageOf = (rows: string[]): Coverage => read(rows).coverage;

/** Loops (an EB and its DTPs) in an order set by `seed`. */
function shuffled(loops: readonly string[][], seed: number): string[] {
  const out = loops.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.flat();
}

const member = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS }).fields.member_obligation;

test("another plan year's deductible beside this year's: this year's prices the session, in any order, dated or not", () => {
  fc.assert(
    fc.property(
      fc.record({
        other: fc.constantFrom<keyof typeof YEARS>('last', 'next'),
        remaining: fc.integer({ min: 0, max: 300 }),
        otherRemaining: fc.integer({ min: 0, max: 300 }),
        dated: fc.boolean(),
        seed: fc.nat(),
      }),
      ({ other, remaining, otherRemaining, dated, seed }) => {
        const mine = dated ? [THIS_YEAR] : [];
        const loops = [
          ['EB*1**30*PR*PPO'],
          ['EB*A*IND*MH***27**.2****Y'],
          ['EB*C*IND*30***23*300*****Y', ...mine],
          [`EB*C*IND*30***29*${remaining}*****Y`, ...mine],
          ['EB*C*IND*30***23*300*****Y', YEARS[other]],
          [`EB*C*IND*30***29*${otherRemaining}*****Y`, YEARS[other]],
        ];
        const D = remaining * 100;
        const expected = D >= C ? C : D + Math.round(((C - D) * 20) / 100);
        assert.equal(member(coverageOf(shuffled(loops, seed))), expected);
      },
    ),
    { numRuns: 150, seed: 291 },
  );
});

test("copays for this plan year and the next: this year's prices the session, the other year's row is skipped and named", () => {
  for (const order of [0, 1]) {
    const rows = [['EB*1**30*HM*HMO'], ['EB*B*IND*MH***27*35*****Y', YEARS.next], ['EB*B*IND*MH***27*25*****Y', THIS_YEAR]];
    const v = read(order === 0 ? rows.flat() : [rows[0]!, rows[2]!, rows[1]!].flat());
    assert.equal(member(v.coverage), 2500);
    const skipped = v.trace.filter((t) => t.status === 'skipped' && t.eb === 'EB*B*IND*MH***27*35*****Y');
    assert.equal(skipped.length, 1);
    assert.match(skipped[0]!.rule, /2026-01-01, after the date of service/);
  }
});

test('an undated copay beside a differing one dated this plan year still competes: the copay is unknown', () => {
  const c = coverageOf(['EB*1**30*HM*HMO', 'EB*B*IND*MH***27*35*****Y', 'EB*B*IND*MH***27*25*****Y', THIS_YEAR]);
  assert.equal(c.in_network?.copayment ?? null, null);
  assert.equal(member(c), null);
});

test('a lone DTP 291 date on a row is the date asked about, echoed: it dates nothing', () => {
  const c = coverageOf(['EB*1**30*HM*HMO', 'EB*B*IND*MH***27*25*****Y', 'DTP*291*D8*20240101']);
  assert.equal(member(c), 2500);
});

test("a visit limit's counting period (DTP 193 with 194): last period's used-up limit beside this one's never closes the session", () => {
  fc.assert(
    fc.property(fc.record({ used: fc.integer({ min: 0, max: 20 }), seed: fc.nat() }), ({ used, seed }) => {
      const last = ['DTP*193*D8*20240101', 'DTP*194*D8*20241231'];
      const mine = ['DTP*193*D8*20250101', 'DTP*194*D8*20251231'];
      const loops = [
        ['EB*1**30*HM*HMO'],
        ['EB*B*IND*MH***27*20*****Y'],
        ['EB*F*IND*MH***22***VS*20**Y', ...last],
        ['EB*F*IND*MH***24***VS*20**Y', ...last],
        ['EB*F*IND*MH***22***VS*20**Y', ...mine],
        [`EB*F*IND*MH***24***VS*${used}**Y`, ...mine],
      ];
      const c = coverageOf(shuffled(loops, seed));
      assert.equal(c.in_network?.visit_limit?.remaining, 20 - used);
      assert.equal(member(c), used === 20 ? C : 2000);
    }),
    { numRuns: 100, seed: 193 },
  );
});

test('a lone DTP 193 or 194 bounds nothing: the row still competes', () => {
  for (const lone of ['DTP*193*D8*20260101', 'DTP*194*D8*20241231']) {
    const c = coverageOf(['EB*1**30*HM*HMO', 'EB*B*IND*MH***27*20*****Y', 'EB*F*IND*MH***29***VS*0**Y', lone]);
    assert.equal(c.in_network?.visit_limit?.remaining, 0, lone);
  }
});
