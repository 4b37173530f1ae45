/**
 * A plan active only for a limited program's services (docs/estimates.md 1.1, "Status rows cover their own
 * service types"; eb03.json `limitedProgram`): emergency or family-planning Medicaid, a dental, vision or pharmacy
 * plan answering alone does not cover a psychotherapy session: the member owes the whole session, the payer
 * nothing, whatever the program's own cost shares. Any row that could speak for the session (behavioral health,
 * the office visit 98, the plan level 30) or a status row for any other service leaves the status unknown as
 * before. Any order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Coverage } from '../../src/domain/coverage.ts';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';

function coverageOf(rows: string[]): Coverage {
  const r = normalize271(interchange('271', body271(rows)), { encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' } });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const owed = (c: Coverage, inNetwork: boolean) => estimate(c, { session_cost: C, in_network: inNetwork, date_of_service: DOS }).fields;

const LIMITED = fc.constantFrom('82', '86', '35', 'AL', '88', '82^86');

test("a plan active only for a limited program's services: the session is not covered, in any order, beside the program's own rows", () => {
  fc.assert(
    fc.property(
      fc.record({
        program: LIMITED,
        beside: fc.subarray(['EB*B*IND*86***27*0', 'EB*6**35', 'EB*1**AL', 'EB*A*IND*82***27**0']),
        eb04: fc.constantFrom('', '*MC'),
        seed: fc.nat(),
      }),
      ({ program, beside, eb04, seed }) => {
        const c = coverageOf(shuffled([`EB*1**${program}${eb04}`, ...beside], seed));
        assert.equal(c.coverage_status, 'active');
        for (const inNetwork of [true, false]) {
          const e = owed(c, inNetwork);
          assert.equal(e.member_obligation, C);
          assert.equal(e.payer_obligation, 0);
          assert.equal(e.copayment, null);
        }
      },
    ),
    { numRuns: 150, seed: 8286 },
  );
});

test('beside a row that could speak for the session, or a status row for another service, the status stays unknown', () => {
  fc.assert(
    fc.property(
      fc.record({
        program: LIMITED,
        other: fc.constantFrom('EB*B*IND*98***27*3', 'EB*C*IND*30***29*0', 'EB*B*IND*MH***27*5', 'EB*1**1', 'EB*1**A4', 'EB*1**AI'),
        seed: fc.nat(),
      }),
      ({ program, other, seed }) => {
        const c = coverageOf(shuffled([`EB*1**${program}*MC`, other], seed));
        if (other === 'EB*1**A4') return assert.equal(c.coverage_status, 'active');
        assert.equal(c.coverage_status, 'unknown', other);
        assert.equal(owed(c, true).member_obligation, null);
      },
    ),
    { numRuns: 100, seed: 8287 },
  );
});

test("a limited program's rows all inactive say nothing of the session: unknown", () => {
  const c = coverageOf(['EB*6**82*MC']);
  assert.equal(c.coverage_status, 'unknown');
});
