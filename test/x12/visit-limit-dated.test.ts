/**
 * A visit limit dated to another period (docs/estimates.md 1.1, "The benefit matrix": a row whose own
 * dates exclude the date of service never prices it; TR3 005010X279A1 2110C DTP 291 plan, 292 benefit,
 * 307 eligibility ranges, 348/349 benefit begin and end): last plan year's used-up limit beside this
 * year's, or alone, says nothing of this visit. The same rule (benefits/filters.ts benefitWindow) skips a
 * cost share or accumulator dated to another period; visit limits are not read by a second one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const DOS = '2026-12-10';
const PLAN = ['DMG*D8*19900101*F', 'DTP*291*RD8*20260101-20261231', 'EB*1**30*PR*GOLD PPO', 'EB*1**MH'];
const COPAY = 'EB*B*IND*MH***27*25*****Y';
const REQUEST = {
  payer_id: 'P123',
  provider_npi: '1234567893',
  member_id: 'M100',
  member_first_name: 'JANE',
  member_last_name: 'DOE',
  member_dob: '1990-01-01',
  provider_session_cost: 14000,
  in_network: true,
  procedure_code: '90834',
} as EstimateRequest;

interface Answer {
  status: number;
  member_obligation: unknown;
  visits_remaining: unknown;
  alerts: string[];
}

function answer(rows: readonly string[]): Answer {
  const encounter = { date_of_service: DOS, procedure_code: '90834', place_of_service: '11' };
  const r = normalize271(interchange('271', body271([...PLAN, ...rows])), { encounter });
  assert.ok(r.ok && r.value.kind === 'coverage', 'reads as coverage');
  const { status, body } = estimateBody(r.value.coverage, REQUEST, '2026-12-07', DOS);
  const b = body as unknown as Record<string, unknown>;
  return { status, member_obligation: b['member_obligation'], visits_remaining: b['visits_remaining'], alerts: body.alerts.map((a) => a.code) };
}

/** A visit limit of `total` visits with `left` remaining, as the quantity elements (EB09/EB10) or the service delivery (HSD). */
function limit(total: number, left: number, hsd: boolean, dates: readonly string[]): string[] {
  if (hsd) return ['EB*F*IND*MH*********Y', `HSD*VS*${total}***23*1`, `HSD*VS*${left}***29`, ...dates];
  return [`EB*F*IND*MH***23***VS*${total}**Y`, ...dates, `EB*F*IND*MH***29***VS*${left}**Y`, ...dates];
}

/** Dates that put a row in the plan year before the visit's (2025), or after it (2027), in each form the TR3 allows. */
const otherPeriod = fc.constantFrom(
  ['DTP*291*RD8*20250101-20251231'],
  ['DTP*292*RD8*20250101-20251231'],
  ['DTP*307*RD8*20250101-20251231'],
  ['DTP*348*D8*20250101', 'DTP*349*D8*20251231'],
  ['DTP*291*RD8*20270101-20271231'],
  ['DTP*348*D8*20270101'],
);
const thisPeriod = fc.constantFrom([], ['DTP*291*RD8*20260101-20261231'], ['DTP*292*RD8*20260101-20261231'], ['DTP*348*D8*20260101', 'DTP*349*D8*20261231']);

test('last plan year’s used-up visit limit beside this year’s: this year’s 12 left price the visit, no VISIT_LIMIT', () => {
  const a = answer([COPAY, ...limit(20, 0, true, ['DTP*291*RD8*20250101-20251231']), ...limit(20, 12, true, ['DTP*291*RD8*20260101-20261231'])]);
  assert.equal(a.status, 200);
  assert.equal(a.member_obligation, 2500);
  assert.equal(a.visits_remaining, 12);
  assert.ok(!a.alerts.includes('VISIT_LIMIT'));
});

test('only last plan year’s used-up visit limit: it says nothing of this visit (the copay, never the whole session)', () => {
  const a = answer([COPAY, ...limit(20, 0, true, ['DTP*291*RD8*20250101-20251231'])]);
  assert.equal(a.member_obligation, 2500);
  assert.equal(a.visits_remaining, null);
  assert.ok(!a.alerts.includes('VISIT_LIMIT'));
});

test('property: a visit limit dated to another period never changes the answer, beside any limit of this period or none', () => {
  fc.assert(
    fc.property(
      fc.record({ total: fc.constantFrom(10, 20, 30), left: fc.constantFrom(0, 3, 12), hsd: fc.boolean(), dates: otherPeriod }),
      fc.option(fc.record({ total: fc.constantFrom(10, 20, 30), left: fc.constantFrom(0, 5, 12), hsd: fc.boolean(), dates: thisPeriod }), { nil: null }),
      fc.boolean(),
      (other, own, first) => {
        const base = [COPAY, ...(own ? limit(own.total, own.left, own.hsd, own.dates) : [])];
        const dated = limit(other.total, other.left, other.hsd, other.dates);
        const without = answer(base);
        const withIt = answer(first ? [...dated, ...base] : [...base, ...dated]);
        assert.deepEqual(withIt, without);
        if (own) assert.equal(without.visits_remaining, own.left);
      },
    ),
    { numRuns: 150, seed: 38_008 },
  );
});
