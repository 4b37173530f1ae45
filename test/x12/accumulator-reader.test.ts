/**
 * AccumulatorReader (src/x12/benefits/accumulators.ts; docs/estimates.md section 1.1, "Accumulators"):
 * an individual 0 marked EB12 W is a placeholder only while the individual level states no total
 * above 0 for the same service, whatever order the rows come in; an individual total of 0 stated for a more specific
 * service than the family's figures leaves the family's figures unreported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AccumulatorReader } from '../../src/x12/benefits/accumulators.ts';
import type { Selectable } from '../../src/x12/benefits/rows.ts';
import { inAnyOrder, selectableRows as rowsOf } from './selectable-rows.ts';

function read(rows: readonly Selectable[]) {
  const r = new AccumulatorReader();
  for (const b of rows) r.offer(b);
  return {
    result: r.result(),
    conflicts: r
      .conflicts()
      .map((b) => b.loop.seg.index)
      .sort((x, y) => x - y),
  };
}

const eb = (level: string, type: string, period: string, amount: string, net: string) => `EB*C*${level}*${type}***${period}*${amount}*****${net}`;

test('beside an individual total above 0, a remaining of 0 marked W is a figure, in either order', () => {
  const rows = rowsOf([eb('IND', '30', '29', '0', 'W'), eb('IND', '30', '23', '1000', 'W')]);
  for (const order of [rows, rows.slice().reverse()]) assert.deepEqual(read(order).result.individual, { total: 100000, remaining: 0 });
});

test('an individual 0 marked W for MH stays a placeholder beside a plan-level total: only a total of its own scope makes it a figure', () => {
  const rows = rowsOf([
    eb('IND', 'MH', '23', '0', 'W'),
    eb('IND', 'MH', '29', '0', 'W'),
    eb('IND', '30', '23', '1000', 'W'),
    eb('IND', '30', '29', '400', 'W'),
  ]);
  for (const order of [rows, rows.slice().reverse()]) assert.deepEqual(read(order).result.individual, { total: 100000, remaining: 40000 });
});

test('with no individual total above 0, individual rows of 0 marked W are no accumulator (family-only)', () => {
  const rows = rowsOf([
    eb('IND', '30', '23', '0', 'W'),
    eb('IND', '30', '29', '0', 'W'),
    eb('FAM', '30', '23', '3000', 'Y'),
    eb('FAM', '30', '29', '2500', 'Y'),
  ]);
  const { result } = read(rows);
  assert.deepEqual(result.individual, { total: null, remaining: null });
  assert.deepEqual(result.family, { total: 300000, remaining: 250000 });
});

test('an individual total of 0 for a more specific service than the family figures: the family figures are not reported', () => {
  const rows = rowsOf([
    eb('IND', 'A4', '', '0.00', 'Y'),
    eb('FAM', '30', '23', '500', 'Y'),
    eb('FAM', '30', '29', '500', 'Y'),
    eb('IND', '30', '23', '250', 'Y'),
  ]);
  const { result } = read(rows);
  assert.deepEqual(result.individual, { total: 0, remaining: null });
  assert.deepEqual(result.family, { total: null, remaining: null });
});

test('an individual total of 0 beside a family total of the same service stays a family-only pair (the network named or not)', () => {
  const rows = rowsOf([eb('IND', '30', '23', '0', 'Y'), eb('FAM', '30', '23', '3000', ''), eb('FAM', '30', '29', '1000', '')]);
  const { result } = read(rows);
  assert.deepEqual(result.individual, { total: 0, remaining: null });
  assert.deepEqual(result.family, { total: 300000, remaining: 100000 });
});

const anyRow = fc
  .tuple(
    fc.constantFrom('IND', 'FAM'),
    fc.constantFrom('30', 'MH', 'A4'),
    fc.constantFrom('23', '29', '24'),
    fc.constantFrom('0', '0', '250', '1000'),
    fc.constantFrom('W', 'W', 'Y', ''),
  )
  .map(([level, type, period, amount, net]) => eb(level, type, period, amount, net));

test('the result and the conflicts never depend on the order rows are offered in (W rows of 0 mixed in)', () => {
  fc.assert(
    fc.property(inAnyOrder(anyRow, 12), ([segs, order]) => {
      const rows = rowsOf(segs);
      assert.deepEqual(read(order.map((i) => rows[i]!)), read(rows));
    }),
    { numRuns: 500 },
  );
});
