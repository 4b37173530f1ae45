/** Properties of the course of care over random plans, prices and courses (docs/course-of-care.md, fast-check). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Accumulator, Coverage, NetworkBenefits } from '../../src/domain/coverage.ts';
import { bindingRemaining, courseOfCare, deductibleApplies, estimate } from '../../src/domain/estimate/index.ts';
import type { CourseLine } from '../../src/domain/schemas/responses.ts';
import { addDays } from '../../src/domain/estimate/course-sessions.ts';
import { coverage, NONE, OFFICE, weekly } from './course-coverage.ts';

const money = fc.integer({ min: 0, max: 200_000 });
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });
const accumulator: fc.Arbitrary<Accumulator> = fc.record({ total: nullable(money), remaining: nullable(money) });
const pair = fc.record({ individual: accumulator, family: accumulator });
const benefits: fc.Arbitrary<NetworkBenefits> = fc.record({
  copayment: nullable(fc.integer({ min: 0, max: 10_000 })),
  coinsurance: nullable(
    fc.oneof(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 1000 }).map((x) => x / 10),
    ),
  ),
  deductible_applies: fc.boolean(),
  deductible: nullable(pair),
  oop_max: nullable(pair),
  visit_limit: nullable(fc.record({ total: nullable(fc.nat(30)), remaining: nullable(fc.nat(30)) })),
});
const plans = fc.record({ b: benefits, qmb: fc.boolean() });
const courses = fc.record({
  start: fc.integer({ min: 0, max: 200 }).map((d) => addDays('2026-01-01', d)),
  n: fc.integer({ min: 1, max: 20 }),
  every: fc.integer({ min: 1, max: 8 }),
  C: fc.integer({ min: 0, max: 60_000 }),
});
const GATES = new Set(['inactive', 'not_in_force', 'behavioral_health_inactive', 'not_covered', 'visit_limit']);

function priced(b: NetworkBenefits, qmb: boolean, c: { start: string; n: number; every: number; C: number }) {
  const cov = coverage(b, qmb ? { insurance_type: 'qmb' } : {});
  const sessions = weekly(c.start, c.n, c.C, c.every);
  return { cov, sessions, course: courseOfCare({ sessions, in_network: true, current: new Map([[OFFICE, cov]]), next: new Map(), next_unknown: null }) };
}

/** An amount reported as one level whose remaining is what a course line says is left (null: unknown). */
function left(original: NetworkBenefits['deductible'], remaining: number | null): NetworkBenefits['deductible'] {
  if (original === null) return null;
  return { individual: remaining === null ? { total: 1, remaining: null } : { total: null, remaining }, family: NONE };
}

/** The coverage a single estimate reads after line `l`: the accumulators it leaves. */
function leftBy(cov: Coverage, l: CourseLine): Coverage {
  const b = cov.in_network!;
  return {
    ...cov,
    in_network: {
      ...b,
      deductible: left(b.deductible, l.remaining_deductible),
      oop_max: left(b.oop_max, l.remaining_oop_max),
      visit_limit: b.visit_limit && { total: null, remaining: l.visits_remaining },
    },
  };
}

test('the first line of a course equals the single estimate for its date', () => {
  fc.assert(
    fc.property(plans, courses, ({ b, qmb }, c) => {
      const { cov, course } = priced(b, qmb, c);
      const single = estimate(cov, { session_cost: c.C, in_network: true, date_of_service: c.start }).fields;
      assert.equal(course.lines[0]!.member_obligation, single.member_obligation);
      assert.equal(course.lines[0]!.payer_obligation, single.payer_obligation);
    }),
    { numRuns: 400 },
  );
});

test("a course's lines equal single estimates made with the accumulators the earlier lines leave", () => {
  fc.assert(
    fc.property(plans, courses, ({ b, qmb }, c) => {
      const { cov, course } = priced(b, qmb, c);
      for (let i = 1; i < course.lines.length; i++) {
        const single = estimate(leftBy(cov, course.lines[i - 1]!), { session_cost: c.C, in_network: true, date_of_service: course.lines[i]!.date_of_service });
        assert.equal(course.lines[i]!.member_obligation, single.fields.member_obligation, `line ${i}`);
        assert.equal(course.lines[i]!.payer_obligation, single.fields.payer_obligation, `line ${i}`);
      }
    }),
    { numRuns: 400 },
  );
});

test('what is left of the deductible and OOP max after a session is what was left before less what its share put toward them', () => {
  fc.assert(
    fc.property(plans, courses, ({ b }, c) => {
      const { course } = priced(b, false, c);
      let D = b.deductible ? bindingRemaining(b.deductible) : null;
      let O = b.oop_max ? bindingRemaining(b.oop_max) : null;
      for (const [i, l] of course.lines.entries()) {
        const m = l.member_obligation;
        if (l.phase !== null && GATES.has(l.phase)) {
          assert.equal(l.remaining_deductible, D, `line ${i}: a session not covered counts toward nothing`);
          assert.equal(l.remaining_oop_max, O, `line ${i}`);
          continue;
        }
        if (D !== null && m !== null && deductibleApplies(b)) D = Math.max(0, D - Math.min(D, m));
        else if (D !== null && D > 0 && m === null && deductibleApplies(b)) D = l.remaining_deductible;
        if (O !== null && m !== null) O = Math.max(0, O - m);
        else if (O !== null && O > 0) O = null;
        assert.equal(l.remaining_deductible, D, `line ${i}: deductible left`);
        assert.equal(l.remaining_oop_max, O, `line ${i}: OOP max left`);
      }
    }),
    { numRuns: 400 },
  );
});

test("the member's total never exceeds what the OOP maximum allows plus the sessions outside it", () => {
  fc.assert(
    fc.property(plans, courses, ({ b, qmb }, c) => {
      const O = b.oop_max ? bindingRemaining(b.oop_max) : null;
      fc.pre(O !== null);
      const { course } = priced(b, qmb, c);
      const covered = course.lines.filter((l) => l.phase === null || !GATES.has(l.phase));
      const paid = covered.reduce((t, l) => t + (l.member_obligation ?? 0), 0);
      assert.ok(paid <= O, `covered sessions cost the member ${paid}, more than the ${O} left of the OOP max`);
      for (const l of course.lines) if (l.phase !== null && GATES.has(l.phase)) assert.equal(l.member_obligation, c.C);
    }),
    { numRuns: 400 },
  );
});

test('unknown stays unknown: an unknown share has its reason, no phase, and the totals are unknown', () => {
  fc.assert(
    fc.property(plans, courses, ({ b, qmb }, c) => {
      const { course } = priced(b, qmb, c);
      for (const l of course.lines) {
        assert.equal(l.member_obligation === null, l.error_code !== null);
        assert.equal(l.member_obligation === null, l.reason !== null);
        if (l.member_obligation === null) assert.equal(l.phase, null);
        else assert.equal(l.member_obligation + l.payer_obligation!, c.C);
      }
      assert.equal(course.unknown_sessions, course.lines.filter((l) => l.member_obligation === null).length);
      if (course.unknown_sessions > 0) assert.equal(course.member_obligation, null);
      else
        assert.equal(
          course.member_obligation,
          course.lines.reduce((t, l) => t + l.member_obligation!, 0),
        );
    }),
    { numRuns: 400 },
  );
});

test('reordering nothing else, a later reset date never changes the share of a session before the earlier one', () => {
  fc.assert(
    fc.property(plans, benefits, courses, fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 60 }), ({ b, qmb }, nextB, c, endIn, later) => {
      const sessions = weekly(c.start, c.n, c.C, c.every);
      const run = (end: string) => {
        const nextYear = { begin_date: addDays(end, 1), member_id: null, in_network: null };
        const cov = coverage(b, { plan_end_date: end, next_plan_year: nextYear, ...(qmb ? { insurance_type: 'qmb' as const } : {}) });
        const next = coverage(nextB, { plan_end_date: end, next_plan_year: nextYear, this_plan_year_in_network: b });
        return courseOfCare({ sessions, in_network: true, current: new Map([[OFFICE, cov]]), next: new Map([[OFFICE, next]]), next_unknown: null });
      };
      const early = addDays(c.start, endIn);
      const a = run(early).lines;
      const z = run(addDays(early, later)).lines;
      for (let i = 0; i < sessions.length && sessions[i]!.date_of_service <= early; i++) {
        assert.deepEqual(z[i], a[i], `session ${i}`);
      }
    }),
    { numRuns: 300 },
  );
});
