/**
 * Quantities of no unit of their own on a limit row (EB01 F; EB09 or HSD01: code-tables/quantity.json `limit`):
 * a used count (99) or a maximum (M2) is the used count or the total of the limit beside it, in its unit, so
 * remaining = total - used and 0 left is the limit used up (the member pays the whole session); a quantity no rule
 * places (a minimum, a quantity approved, a count covered, a used count beside no limit) leaves the visits remaining
 * and the session's price unknown (206), never ignored (docs/estimates.md 1.1, "Visit limits"; TR3 005010X279A1
 * EB09, code list 673). Properties over generated 271s, the loops in any order, beside rows for another service
 * type and another network.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { codeTable } from '../../src/x12/code-tables/index.ts';
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

/** Rows for another service type (less specific, or not behavioral health) and another network: they change nothing. */
const BESIDE: readonly string[][] = [
  ['EB*F*IND*A4***23***99*0**Y'],
  ['EB*F*IND*30***23***VS*99**Y'],
  ['EB*F*IND*PT***23***99*40**Y'],
  ['EB*F*IND*MH***23***99*0**N'],
  ['EB*F*IND*MH***23***QA*5**N'],
  ['EB*B*IND*MH***27*70*****N'],
];

const PRICE = (copay: number) => [`EB*B*IND*MH***27*${copay}*****Y`];

const arb = fc.record({
  total: fc.integer({ min: 1, max: 40 }),
  used: fc.integer({ min: 0, max: 45 }),
  /** The total as a VS limit, or as a maximum (M2) beside a VS row stating a remaining the reader must not need. */
  usedPeriod: fc.constantFrom('23', ''),
  /** The used count on its own row, or as an HSD (HSD01 99) under the limit's row. */
  hsd: fc.boolean(),
  copay: fc.integer({ min: 5, max: 60 }),
  beside: fc.subarray([...BESIDE]),
  seed: fc.nat(),
});

test('a used count (EB09 99) beside a visit limit: remaining = total - used, 0 left is the whole session, in any order', () => {
  fc.assert(
    fc.property(arb, ({ total, used, usedPeriod, hsd, copay, beside, seed }) => {
      const limit = hsd
        ? [[`EB*F*IND*MH***23***VS*${total}**Y`, `HSD*99*${used}`]]
        : [[`EB*F*IND*MH***23***VS*${total}**Y`], [`EB*F*IND*MH***${usedPeriod}***99*${used}**Y`]];
      const e = estimate(coverageOf(shuffled([...limit, PRICE(copay), ...beside], seed)), { session_cost: C, in_network: true, date_of_service: DOS });
      const left = Math.max(0, total - used);
      assert.equal(e.fields.visits_remaining, left);
      assert.equal(e.fields.member_obligation, left === 0 ? C : copay * 100);
    }),
    { numRuns: 200 },
  );
});

test('a maximum (EB09 M2) is the total of the visit limit beside it', () => {
  for (const [max, used, left] of [
    [20, 20, 0],
    [20, 5, 15],
  ] as const) {
    const e = estimate(coverageOf([[`EB*F*IND*MH***23***M2*${max}**Y`], [`EB*F*IND*MH***24***VS*${used}**Y`], PRICE(25)]), {
      session_cost: C,
      in_network: true,
      date_of_service: DOS,
    });
    assert.equal(e.fields.visits_remaining, left);
    assert.equal(e.fields.member_obligation, left === 0 ? C : 2500);
  }
});

/** Every quantity qualifier quantity.json decides as a placement (used, maximum) or as unknown on a limit row. */
const PLACED = Object.entries(codeTable('quantity').codes)
  .filter(([, e]) => e.limit !== undefined)
  .map(([c, e]) => [c, e.limit] as const);

test('quantity.json decides 99 used, M2 maximum, and 8H, CA, CE, QA unknown on a limit row', () => {
  assert.deepEqual(Object.fromEntries(PLACED), { '8H': 'unknown', '99': 'used', CA: 'unknown', CE: 'unknown', M2: 'maximum', QA: 'unknown' });
});

test('a quantity no rule places on the limit leaves visits remaining and the price unknown (206), never ignored, in any order', () => {
  const undecided = PLACED.filter(([, l]) => l === 'unknown').map(([c]) => c);
  fc.assert(
    fc.property(
      fc.constantFrom(...undecided, '99 alone', 'M2 alone', '99 beside two units'),
      fc.integer({ min: 0, max: 30 }),
      fc.subarray([...BESIDE]),
      fc.nat(),
      (what, qty, beside, seed) => {
        const rows =
          what === '99 alone'
            ? [[`EB*F*IND*MH***23***99*${qty}**Y`]]
            : what === 'M2 alone'
              ? [[`EB*F*IND*MH***23***M2*${qty}**Y`]]
              : what === '99 beside two units'
                ? [[`EB*F*IND*MH***23***VS*20**Y`], [`EB*F*IND*MH***23***HS*20**Y`], [`EB*F*IND*MH***23***99*${qty}**Y`]]
                : [[`EB*F*IND*MH***23***VS*20**Y`], [`EB*F*IND*MH***23***${what}*${qty}**Y`]];
        const coverage = coverageOf(shuffled([...rows, PRICE(25), ...beside], seed));
        const e = estimate(coverage, { session_cost: C, in_network: true, date_of_service: DOS });
        assert.equal(e.fields.visits_remaining, null, what);
        assert.equal(e.fields.member_obligation, null, what);
        assert.equal(e.partial, 'UNKNOWN_COSTSHARE', what);
      },
    ),
    { numRuns: 150 },
  );
});

test('the explanation names the row whose quantity no rule places', () => {
  const trace: import('../../src/x12/index.ts').TraceEntry[] = [];
  const r = normalize271(
    interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', 'EB*F*IND*MH***23***VS*20**Y', 'EB*F*IND*MH***23***QA*12**Y', 'EB*B*IND*MH***27*25*****Y'])),
    {
      encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
      trace,
    },
  );
  assert.ok(r.ok);
  const entry = trace.find((t) => t.status === 'conflict' && /QA/.test(t.rule));
  assert.ok(entry, JSON.stringify(trace.map((t) => t.rule)));
  assert.match(entry.rule, /quantity approved/i);
});
