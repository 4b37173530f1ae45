/**
 * Contradicting status rows (docs/estimates.md 1.1, "Contradicting status rows"; TR3 005010X279A1 2110C
 * EB01 and DTP 307): two plan-level status rows equally in force on the date of service, one active and
 * one inactive, leave the coverage status unknown (206), whatever their order; a status row whose own
 * dates exclude the date of service, or one for other services, beside them changes nothing, and when
 * only one of them holds the date of service it decides.
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
const COSTS = ['EB*B*IND*MH***27*30*****Y', 'EB*C*IND*30***29*0*****Y', 'EB*G*IND*30***29*200000*****Y'];

function coverageOf(rows: string[]): Coverage {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'DTP*347*D8*20251231', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}
const priced = (c: Coverage) => estimate(c, { session_cost: C, in_network: true, date_of_service: DOS });

/** A span of the row's own holding the date of service. */
const HOLDING = ['DTP*307*RD8*20250101-20251231', 'DTP*307*RD8*20250601-20251231', 'DTP*307*RD8*20250101-20250615', 'DTP*307*D8*20250615'];
/** A span excluding it: another date's status. */
const EXCLUDING = ['DTP*307*RD8*20250101-20250531', 'DTP*307*RD8*20250701-20251231'];
const ACTIVE = ['1', '2', '3', '4', '5'];
const INACTIVE = ['6', '7', '8'];

const withDates = (eb: string, dtp: string) => (dtp ? [eb, dtp] : [eb]);
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
  active: fc.constantFrom(...ACTIVE),
  inactive: fc.constantFrom(...INACTIVE),
  activeSpan: fc.constantFrom(...HOLDING),
  inactiveSpan: fc.constantFrom(...HOLDING),
  other: fc.constantFrom(...EXCLUDING),
  otherInfo: fc.constantFrom(...ACTIVE, ...INACTIVE),
  extra: fc.constantFrom([], ['EB*1**82'], ['EB*6**86']),
  net: fc.constantFrom('', '*****Y'),
  seed: fc.nat(),
});

test('plan status rows active and inactive both in force on the date of service: the status is unknown, in any order', () => {
  fc.assert(
    fc.property(arb, (a) => {
      const groups = [
        withDates(`EB*${a.active}**30*C1*PLAN${a.net ? `${a.net}` : ''}`, a.activeSpan),
        withDates(`EB*${a.inactive}**30*C1*PLAN${a.net}`, a.inactiveSpan),
        withDates(`EB*${a.otherInfo}**30*C1*PLAN${a.net}`, a.other),
        ...a.extra.map((r) => [r]),
      ];
      const c = coverageOf([...shuffled(groups, a.seed).flat(), ...COSTS]);
      assert.equal(c.coverage_status, 'unknown');
      const e = priced(c);
      assert.equal(e.fields.member_obligation, null);
      assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
    }),
    { numRuns: 120, seed: 271_957 },
  );
});

test('only one of them holds the date of service: that one decides, in any order', () => {
  fc.assert(
    fc.property(arb, fc.boolean(), (a, activeHolds) => {
      const groups = [
        withDates(`EB*${a.active}**30*C1*PLAN${a.net}`, activeHolds ? a.activeSpan : a.other),
        withDates(`EB*${a.inactive}**30*C1*PLAN${a.net}`, activeHolds ? a.other : a.inactiveSpan),
        ...a.extra.map((r) => [r]),
      ];
      const c = coverageOf([...shuffled(groups, a.seed).flat(), ...COSTS]);
      const e = priced(c);
      if (activeHolds) {
        // Active (EB01 1-4) or active pending investigation (5): the status is stated, the session priced.
        assert.equal(c.coverage_status, a.active === '5' ? 'active_pending_investigation' : 'active');
        assert.equal(e.fields.member_obligation, 3000);
      } else {
        assert.equal(e.fields.member_obligation, C, 'inactive on the date of service: the whole session');
      }
    }),
    { numRuns: 120, seed: 271_958 },
  );
});

test('two active rows (or two inactive) in force on the same day agree: no conflict', () => {
  assert.equal(
    priced(coverageOf(['EB*1**30', 'DTP*307*RD8*20250101-20251231', 'EB*5**30', 'DTP*307*RD8*20250601-20251231', ...COSTS])).fields.member_obligation,
    3000,
  );
  assert.equal(priced(coverageOf(['EB*6**30', 'DTP*307*RD8*20250101-20251231', 'EB*8**30', 'DTP*307*D8*20250615', ...COSTS])).fields.member_obligation, C);
});
