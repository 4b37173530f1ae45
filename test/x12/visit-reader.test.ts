/**
 * VisitReader (src/x12/benefits/accumulators.ts; docs/estimates.md section 1.1, "Visit limits"): a
 * limit in another unit a session uses (EB09 / HSD01 HS hours, DY days, P6 services, FL units) with
 * 0 left leaves no visits; with more left it is never a number of visits; units that say nothing of a
 * session (months, years, ages, a kind of quantity without its unit) are not limits. Whatever the
 * order of the rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { hasServiceLimit, VisitReader } from '../../src/x12/benefits/accumulators.ts';
import type { Selectable } from '../../src/x12/benefits/rows.ts';
import type { TraceEntry } from '../../src/x12/benefits/trace.ts';
import { el } from '../../src/x12/index.ts';
import { inAnyOrder, selectableRows as rowsOf } from './selectable-rows.ts';

function read(rows: readonly Selectable[]) {
  const r = new VisitReader();
  for (const b of rows) r.offer(b);
  const trace: TraceEntry[] = [];
  r.trace('in', trace);
  return { reported: r.reported, result: r.result(), trace };
}

const limit = (type: string, period: string, unit: string, qty: string) => `EB*F*IND*${type}***${period}***${unit}*${qty}**Y`;

test('0 hours left: no visits remain, and the hours total is no visit total', () => {
  for (const unit of ['HS', 'DY', 'P6']) {
    const rows = rowsOf([limit('MH', '23', unit, '20'), limit('MH', '29', unit, '0')]);
    for (const order of [rows, rows.slice().reverse()]) {
      const { reported, result, trace } = read(order);
      assert.equal(reported, true, unit);
      assert.deepEqual(result, { total: null, remaining: 0 }, unit);
      assert.ok(
        trace.some((e) => e.figure.endsWith('remaining') && /no session fits/.test(e.rule)),
        unit,
      );
    }
  }
});

test('hours left above 0 are never a number of visits: the visit figures stay unknown, and the trace says why', () => {
  const { reported, result, trace } = read(rowsOf([limit('MH', '23', 'HS', '20'), limit('MH', '29', 'HS', '0.5')]));
  assert.equal(reported, true);
  assert.deepEqual(result, { total: null, remaining: null });
  const entry = trace.find((e) => e.figure === 'limit in HS hours remaining');
  assert.ok(entry);
  assert.match(entry.rule, /0\.5 left, not a number of visits/);
  assert.match(entry.rule, /priced by its cost share/);
});

test('a limit in days stated in HSD, total and used so far: total - used = 0 left is the limit used up', () => {
  const rows = rowsOf(['EB*F*IND*MH*********Y', 'HSD*DY*30***23', 'HSD*DY*30***24']);
  assert.deepEqual(read(rows).result, { total: null, remaining: 0 });
  const one = rowsOf(['EB*F*IND*MH*********Y', 'HSD*FL*12***23', 'HSD*FL*11***24']);
  assert.deepEqual(read(one).result, { total: null, remaining: null });
});

test('visits left beside hours used up: none remain; beside hours left: the visits are the visits own', () => {
  const used = rowsOf([limit('MH', '29', 'VS', '8'), limit('MH', '23', 'VS', '30'), limit('MH', '29', 'HS', '0')]);
  assert.deepEqual(read(used).result, { total: null, remaining: 0 });
  const left = rowsOf([limit('MH', '29', 'VS', '8'), limit('MH', '23', 'VS', '30'), limit('MH', '29', 'HS', '6')]);
  assert.deepEqual(read(left).result, { total: 30, remaining: 8 });
  const visitsUsed = rowsOf([limit('MH', '29', 'VS', '0'), limit('MH', '23', 'VS', '30'), limit('MH', '29', 'HS', '6')]);
  assert.deepEqual(read(visitsUsed).result, { total: 30, remaining: 0 });
});

test('an hours limit is read by rank like a visit count: a less specific 0 never closes a more specific limit with hours left', () => {
  const rows = rowsOf([limit('30', '29', 'HS', '0'), limit('MH', '29', 'HS', '4')]);
  for (const order of [rows, rows.slice().reverse()]) assert.deepEqual(read(order).result, { total: null, remaining: null });
});

test('qualifiers that say nothing of a session are no limit (months, years, ages, inpatient days, blood units)', () => {
  for (const unit of ['MN', 'YY', 'S7', 'S8', 'DB', 'LA', 'ZZ', '']) {
    const rows = rowsOf([limit('MH', '29', unit, '0')]);
    assert.equal(read(rows).reported, false, unit);
    assert.equal(hasServiceLimit(rows[0]!.loop), false, unit);
  }
  for (const unit of ['VS', 'HS', 'DY', 'P6']) assert.equal(hasServiceLimit(rowsOf([limit('MH', '29', unit, '0')])[0]!.loop), true, unit);
  // A used count, a maximum, or a quantity that leaves the limit unknown: a limit row (visit-limit-quantity.test.ts).
  for (const unit of ['99', 'M2', '8H', 'QA', 'CA', 'CE']) {
    const rows = rowsOf([limit('MH', '29', unit, '0')]);
    assert.equal(hasServiceLimit(rows[0]!.loop), true, unit);
    assert.equal(read(rows).reported, true, unit);
    assert.deepEqual(read(rows).result, { total: null, remaining: null }, unit);
  }
  assert.equal(hasServiceLimit(rowsOf(['EB*F*IND*MH*********Y', 'HSD*FL*0***29'])[0]!.loop), true);
  assert.equal(hasServiceLimit(rowsOf(['EB*F*IND*MH***23*2000'])[0]!.loop), false, 'a dollar limitation');
});

const anyRow = fc
  .tuple(fc.constantFrom('30', 'MH', 'A4'), fc.constantFrom('23', '29', '24'), fc.constantFrom('VS', 'HS', 'DY', 'MN'), fc.constantFrom('0', '0', '3', '20'))
  .map(([type, period, unit, qty]) => limit(type, period, unit, qty));

test('the result never depends on the order rows are offered in, and another unit gives visits only a 0', () => {
  fc.assert(
    fc.property(inAnyOrder(anyRow, 10), ([segs, order]) => {
      const rows = rowsOf(segs);
      const { result } = read(rows);
      assert.deepEqual(read(order.map((i) => rows[i]!)).result, result);
      const visitsOnly = read(rows.filter((b) => el(b.loop.seg, 9) === 'VS')).result;
      if (result.remaining !== 0 || visitsOnly.remaining === 0) assert.deepEqual(result, visitsOnly);
      else assert.deepEqual(result, { total: null, remaining: 0 });
    }),
    { numRuns: 500 },
  );
});
