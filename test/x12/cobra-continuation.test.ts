/**
 * COBRA continuation (src/x12/continuation.ts; docs/estimates.md 1.1, "Gates"; TR3 005010X279A1 2100C DTP
 * 340/341): a continuation beginning on the eligibility end or the day after continues the member's
 * eligibility through the COBRA end; a continuation with a gap, or one that began before the eligibility
 * end, does not. Properties over generated 2100C dates in any order, the eligibility end stated as a 357 or
 * as a 307 range.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import type { Coverage } from '../../src/domain/coverage.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-06-15';

const d8 = (iso: string) => iso.replaceAll('-', '');
const plusDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function coverageOf(dtps: string[]): Coverage {
  const rows = [...dtps, 'EB*1**30', 'EB*B*IND*MH***27*40*****Y', 'EB*C*IND*30***29*0*****Y'];
  const r = normalize271(interchange('271', body271(rows)), { encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' } });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage;
}

const arb = fc.record({
  /** The eligibility end, days before the date of service. */
  endBefore: fc.integer({ min: 1, max: 60 }),
  /** The COBRA begin, days after the eligibility end (negative: before it). */
  gap: fc.constantFrom(-30, -1, 0, 1, 2, 10),
  /** The COBRA end, days after the date of service (negative: before it); null: none sent. */
  cobraEnd: fc.option(fc.constantFrom(-5, 0, 200), { nil: null }),
  as307: fc.boolean(),
  seed: fc.nat(),
});

test('a COBRA continuation beginning right after the eligibility end continues it; any other leaves the eligibility end', () => {
  fc.assert(
    fc.property(arb, ({ endBefore, gap, cobraEnd, as307, seed }) => {
      const end = plusDays(DOS, -endBefore);
      const begin = plusDays(end, gap);
      const dtps = [
        'DTP*346*D8*20250101',
        as307 ? `DTP*307*RD8*20250101-${d8(end)}` : `DTP*357*D8*${d8(end)}`,
        `DTP*340*D8*${d8(begin)}`,
        ...(cobraEnd === null ? [] : [`DTP*341*D8*${d8(plusDays(DOS, cobraEnd))}`]),
      ];
      const e = estimate(coverageOf(shuffled(dtps, seed)), { session_cost: C, in_network: true, date_of_service: DOS });
      const continued = (gap === 0 || gap === 1) && begin <= DOS;
      const inForce = continued && (cobraEnd === null || cobraEnd >= 0);
      if (inForce) {
        assert.equal(e.partial, null);
        assert.equal(e.fields.member_obligation, 4000);
      } else assert.equal(e.fields.member_obligation, C, 'not in force on the date of service: the whole session');
    }),
    { numRuns: 250, seed: 3840 },
  );
});
