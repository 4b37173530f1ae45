/**
 * A status row covers the service types it lists (docs/estimates.md 1.1, "Status rows cover their own
 * service types"; TR3 005010X279A1 2110C EB03): a 271 whose only status rows are for other services
 * (family planning 82, emergency 86, dental 35, vision AL, substance abuse AI/AJ/AK, ...) states no
 * status for a psychotherapy session, whatever their order, codes or cost rows beside them; a limited program's
 * active rows alone are the one exception (active for those services only: the session is not covered).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { planStatus } from '../../src/domain/plan-rules.ts';
import { normalize271 } from '../../src/x12/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { body271, interchange } from './x12-fixtures.ts';

const OTHER_SERVICES = ['82', '86', '35', 'AL', '33', '88', 'AI', 'AI^AJ^AK', 'AJ', '82^86', 'UC'] as const;
/** The services of a limited program (eb03.json `limitedProgram`). */
const LIMITED: ReadonlySet<string> = new Set(['82', '86', '35', 'AL', '88', '82^86']);
const COST_ROWS = [
  'EB*B**MH***27*30*****Y',
  'EB*A**MH*****.2****Y',
  'EB*B**98***27*25*****Y',
  'EB*B**30***27*40*****Y',
  'EB*C*IND*30***23*1000*****Y',
  'EB*C*IND*30***29*0*****Y',
  'EB*G*IND*30***29*2000*****Y',
] as const;
const C = 15000;
const DOS = '2025-01-01';

function coverageOf(rows: string[]): Coverage {
  const r = normalize271(interchange('271', body271(rows)), { encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' } });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const priced = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS });

const otherStatus = fc.record({
  info: fc.constantFrom('1', '2', '3', '4', '5', '6', '7', '8'),
  types: fc.constantFrom(...OTHER_SERVICES),
  eb04: fc.constantFrom('', 'MC', 'C1'),
});
const rowsArb = fc.record({
  others: fc.array(otherStatus, { minLength: 1, maxLength: 4 }),
  costs: fc.subarray([...COST_ROWS]),
  seed: fc.nat(),
});

/** The rows in an order drawn from `seed` (a permutation: the order of 2110C loops carries no meaning). */
function shuffled(rows: string[], seed: number): string[] {
  const out = rows.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const statusRow = (o: { info: string; types: string; eb04: string }) => `EB*${o.info}**${o.types}${o.eb04 ? `*${o.eb04}` : ''}`;

test('status rows for other services only: the coverage status is unknown, never INACTIVE, and no cost share prices the session', () => {
  fc.assert(
    fc.property(rowsArb, ({ others, costs, seed }) => {
      const c = coverageOf(shuffled([...others.map(statusRow), ...costs], seed));
      // A limited program's rows alone (limited-program.test.ts): active for its own services, the session not covered.
      const limited = costs.length === 0 && others.every((o) => LIMITED.has(o.types));
      if (limited && c.coverage_status === 'active') return assert.equal(priced(c).fields.member_obligation, C);
      assert.equal(c.coverage_status, 'unknown');
      assert.notEqual(planStatus(c, DOS), 'INACTIVE');
      const e = priced(c);
      // Covered or not is unknown: the member owes the whole session either way (a gate) or it is unknown.
      assert.ok(e.fields.member_obligation === null || e.fields.member_obligation === C, `member owes ${e.fields.member_obligation}`);
      if (e.fields.member_obligation === null) assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
    }),
    { numRuns: 150, seed: 271_082 },
  );
});

test("beside the plan's status row, status rows for other services never change the answer", () => {
  fc.assert(
    fc.property(rowsArb, fc.constantFrom('EB*1**30', 'EB*6**30', 'EB*1**MH', 'EB*1', 'EB*1**30^MH'), ({ others, costs, seed }, plan) => {
      const without = priced(coverageOf(shuffled([plan, ...costs], seed)));
      const withOthers = priced(coverageOf(shuffled([plan, ...others.map(statusRow), ...costs], seed)));
      assert.deepEqual(withOthers, without);
    }),
    { numRuns: 150, seed: 271_086 },
  );
});

test('a status row naming one network (EB12) speaks for that network only', () => {
  const net = (row: string, n: 'Y' | 'N') => `${row}${'*'.repeat(12 - row.split('*').length + 1)}${n}`;
  const onlyOut = coverageOf([net('EB*1**MH', 'N'), 'EB*B**MH***27*30']);
  assert.equal(onlyOut.coverage_status, 'active');
  assert.equal(priced(onlyOut).partial, 'UNKNOWN_COSTSHARE', 'in network no status row speaks: unknown');
  assert.equal(priced(onlyOut).fields.copayment, 3000, "the payer's copay is still shown");
  assert.equal(estimate(onlyOut, { session_cost: C, in_network: false, date_of_service: DOS }).fields.member_obligation, 3000);
  const inactiveIn = coverageOf([net('EB*6**30', 'Y'), 'EB*B**MH***27*30']);
  assert.equal(inactiveIn.coverage_status, 'unknown', 'inactive in network, nothing said out of network');
  assert.equal(priced(inactiveIn).fields.member_obligation, C, 'in network the session is not covered');
  assert.equal(estimate(inactiveIn, { session_cost: C, in_network: false, date_of_service: DOS }).fields.member_obligation, null);
  const split = coverageOf([net('EB*1**30', 'Y'), net('EB*6**30', 'N'), 'EB*B**MH***27*30']);
  assert.equal(split.coverage_status, 'active');
  assert.equal(priced(split).fields.member_obligation, 3000);
  assert.equal(estimate(split, { session_cost: C, in_network: false, date_of_service: DOS }).fields.member_obligation, C);
});
