/**
 * The worked examples of docs/course-of-care.md, computed by hand: one per benefit structure, and the
 * plan-year reset and unknown cases. Each is priced here and must be written in the doc as this test renders it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Coverage, NetworkBenefits } from '../../src/domain/coverage.ts';
import { classifyBenefitStructure, courseOfCare } from '../../src/domain/estimate/index.ts';
import { BENEFIT_STRUCTURES, type BenefitStructure } from '../../src/domain/schemas/responses.ts';
import { acc, coverage, NONE, OFFICE, weekly } from './course-coverage.ts';

const DOC = readFileSync(new URL('../../docs/course-of-care.md', import.meta.url), 'utf8');
const C = 15000;
const FIRST = '2026-03-02';

interface Plan {
  copay?: number;
  coins?: number;
  /** Individual deductible total and remaining; absent: none. */
  ded?: [number, number | null];
  /** Individual OOP max total and remaining; absent: none. */
  oop?: [number, number];
  visits?: [number, number];
}

function benefits(p: Plan): NetworkBenefits {
  return {
    copayment: p.copay ?? null,
    coinsurance: p.coins ?? null,
    deductible_applies: p.ded !== undefined,
    deductible: p.ded ? { individual: acc(...p.ded), family: NONE } : null,
    oop_max: p.oop ? { individual: acc(...p.oop), family: NONE } : null,
    visit_limit: p.visits ? { total: p.visits[0], remaining: p.visits[1] } : null,
  };
}

const dollars = (c: number | null) => (c === null ? 'unknown' : c % 100 === 0 ? `$${c / 100}` : `$${(c / 100).toFixed(2)}`);

interface Example {
  /** The first column: the benefit structure, or the situation. */
  name: string;
  /** The plan in words, as the doc writes it. */
  plan: string;
  current: Coverage;
  next?: Coverage;
  nextUnknown?: string;
  /** What the member pays, session by session, and the course's total. */
  shares: (number | null)[];
  total: number | null;
}

function price(e: Example) {
  const sessions = weekly(FIRST, e.shares.length, C);
  return courseOfCare({
    sessions,
    in_network: true,
    current: new Map([[OFFICE, e.current]]),
    next: new Map(e.next ? [[OFFICE, e.next]] : []),
    next_unknown: e.nextUnknown ?? null,
  });
}

/** The example's row in docs/course-of-care.md. */
const row = (e: Example) => `| ${e.name} | ${e.plan} | ${e.shares.map(dollars).join(', ')} | ${dollars(e.total)} |`;

const structure = (name: BenefitStructure, plan: string, p: Plan, shares: number[]): Example => ({
  name,
  plan,
  current: coverage(benefits(p)),
  shares,
  total: shares.reduce((a, b) => a + b, 0),
});

const STRUCTURES: Example[] = [
  structure('Copay, no deductible, with OOP Max', 'copay $30; $70 of the OOP max left', { copay: 3000, oop: [300000, 7000] }, [3000, 3000, 1000, 0]),
  structure('Copay, no deductible, no OOP Max', 'copay $30; 3 of 20 visits left', { copay: 3000, visits: [20, 3] }, [3000, 3000, 3000, 15000]),
  structure('Coinsurance, no deductible, with OOP Max', '20 %; $50 of the OOP max left', { coins: 20, oop: [200000, 5000] }, [3000, 2000, 0, 0]),
  structure('Coinsurance, no deductible, no OOP Max', '30 %', { coins: 30 }, [4500, 4500, 4500, 4500]),
  structure(
    'Copay and coinsurance, no deductible, with OOP Max',
    '$20 + 10 %; $80 of the OOP max left',
    { copay: 2000, coins: 10, oop: [300000, 8000] },
    [3300, 3300, 1400, 0],
  ),
  structure(
    'Coinsurance after deductible, with OOP Max',
    '20 %; $200 of the deductible and $300 of the OOP max left',
    { coins: 20, ded: [100000, 20000], oop: [300000, 30000] },
    [15000, 7000, 3000, 3000],
  ),
  structure('Coinsurance after deductible, no OOP Max', '20 %; $100 of the deductible left', { coins: 20, ded: [50000, 10000] }, [11000, 3000, 3000, 3000]),
  structure(
    'Copay after deductible, with OOP Max',
    'copay $25; $250 of the deductible and $400 of the OOP max left',
    { copay: 2500, ded: [100000, 25000], oop: [300000, 40000] },
    [15000, 12500, 2500, 2500],
  ),
  structure('Copay after deductible, no OOP Max', 'copay $20; $100 of the deductible left', { copay: 2000, ded: [50000, 10000] }, [12000, 2000, 2000, 2000]),
  structure(
    'Copay and coinsurance after deductible, with OOP Max',
    '$10 + 10 %; $60 of the deductible and $200 of the OOP max left',
    { copay: 1000, coins: 10, ded: [50000, 6000], oop: [300000, 20000] },
    [7800, 2400, 2400, 2400],
  ),
  structure('Fully covered', 'copay $0', { copay: 0 }, [0, 0, 0, 0]),
  structure('Fully covered after deductible', 'copay $0; $250 of the deductible left', { copay: 0, ded: [50000, 25000] }, [15000, 10000, 0, 0]),
];

/** A plan year ending after the second session (2026-03-09), the next beginning the day after. */
const END = '2026-03-10';
const NEXT_YEAR = { begin_date: '2026-03-11', member_id: null, in_network: { copayment: 3000, coinsurance: null, deductible: 20000, oop_max: 400000 } };

const SITUATIONS: Example[] = [
  {
    name: 'Plan-year reset after session 2',
    plan: 'this year copay $25 after a met deductible; next year copay $30 after a $200 deductible (reported as totals)',
    current: coverage(benefits({ copay: 2500, ded: [100000, 0], oop: [300000, 250000] }), { plan_end_date: END, next_plan_year: NEXT_YEAR }),
    next: coverage(benefits({ copay: 3000, ded: [20000, null], oop: [400000, 400000] }), {
      plan_end_date: END,
      next_plan_year: NEXT_YEAR,
      this_plan_year_in_network: benefits({ copay: 2500, ded: [100000, 0], oop: [300000, 250000] }),
    }),
    shares: [2500, 2500, 15000, 8000],
    total: 28000,
  },
  {
    name: 'Plan year ends after session 2, next year not reported',
    plan: 'copay $30',
    current: coverage(benefits({ copay: 3000 }), { plan_end_date: END }),
    nextUnknown: 'the plan year ends 2026-03-10 and the payer does not report the next one',
    shares: [3000, 3000, null, null],
    total: null,
  },
  {
    name: 'Cost share unknown',
    plan: 'no copay or coinsurance reported; $400 of the deductible left',
    current: coverage({ ...benefits({ ded: [100000, 40000] }), copayment: null, coinsurance: null }),
    shares: [15000, 15000, null, null],
    total: null,
  },
];

for (const e of STRUCTURES) {
  test(`course example: ${e.name}`, () => {
    assert.equal(classifyBenefitStructure(e.current.in_network!), e.name);
    const course = price(e);
    assert.deepEqual(
      course.lines.map((l) => l.member_obligation),
      e.shares,
    );
    assert.equal(course.member_obligation, e.total);
    assert.ok(DOC.includes(row(e)), `docs/course-of-care.md has the row\n${row(e)}`);
  });
}

test('every benefit structure has a worked course', () => {
  assert.deepEqual(new Set(STRUCTURES.map((e) => e.name)), new Set(BENEFIT_STRUCTURES));
});

for (const e of SITUATIONS) {
  test(`course example: ${e.name}`, () => {
    const course = price(e);
    assert.deepEqual(
      course.lines.map((l) => l.member_obligation),
      e.shares,
    );
    assert.equal(course.member_obligation, e.total);
    assert.ok(DOC.includes(row(e)), `docs/course-of-care.md has the row\n${row(e)}`);
  });
}

test('across the reset the next year starts afresh: its deductible at its total, the plan year said on each line', () => {
  const lines = price(SITUATIONS[0]!).lines;
  assert.deepEqual(
    lines.map((l) => [l.plan_year, l.phase, l.remaining_deductible]),
    [
      ['current', 'cost_share', 0],
      ['current', 'cost_share', 0],
      ['next', 'deductible', 5000],
      ['next', 'deductible_met', 0],
    ],
  );
});

test('sessions after a plan year the payer does not renew are unknown with the reason, never the whole session', () => {
  const lines = price(SITUATIONS[1]!).lines;
  assert.deepEqual(
    lines.slice(2).map((l) => [l.plan_year, l.error_code, l.reason, l.payer_obligation]),
    [
      ['next', 'UNKNOWN_COSTSHARE', 'the plan year ends 2026-03-10 and the payer does not report the next one', null],
      ['next', 'UNKNOWN_COSTSHARE', 'the plan year ends 2026-03-10 and the payer does not report the next one', null],
    ],
  );
});

test('an unknown cost share: the deductible still decides what it covers, then every later session is unknown', () => {
  const lines = price(SITUATIONS[2]!).lines;
  assert.deepEqual(
    lines.map((l) => [l.phase, l.remaining_deductible, l.error_code]),
    [
      ['deductible', 25000, null],
      ['deductible', 10000, null],
      [null, 0, 'UNKNOWN_COSTSHARE'],
      [null, 0, 'UNKNOWN_COSTSHARE'],
    ],
  );
});

test('an unknown remaining deductible leaves every later session unknown, saying why', () => {
  const current = coverage(benefits({ coins: 20, ded: [50000, null], oop: [300000, 200000] }));
  const course = price({ name: '', plan: '', current, shares: [null, null, null], total: null });
  assert.deepEqual(
    course.lines.map((l) => [l.member_obligation, l.error_code, l.remaining_oop_max]),
    [
      [null, 'UNKNOWN_REMAININGS', null],
      [null, 'UNKNOWN_REMAININGS', null],
      [null, 'UNKNOWN_REMAININGS', null],
    ],
  );
});

test('an unknown share carried into a known plan: the later session says an earlier one is why', () => {
  // $120 of the deductible left: session 1 pays $120 + 20 % of $30 (coinsurance known), but the copay-only
  // cost share of session 2's encounter is unknown: the deductible's rest is known (0), the OOP max's is not.
  const current = coverage(benefits({ coins: 20, ded: [50000, 12000], oop: [300000, 13000] }));
  const telehealth = coverage({ ...benefits({ ded: [50000, 12000], oop: [300000, 13000] }), copayment: null, coinsurance: null });
  const sessions = weekly(FIRST, 3, C);
  sessions[1] = { ...sessions[1]!, place_of_service: '02' };
  const course = courseOfCare({
    sessions,
    in_network: true,
    current: new Map([
      [OFFICE, current],
      ['@02', telehealth],
    ]),
    next: new Map(),
    next_unknown: null,
  });
  assert.deepEqual(
    course.lines.map((l) => [l.member_obligation, l.error_code, l.remaining_deductible, l.remaining_oop_max]),
    [
      [12600, null, 0, 400],
      [null, 'UNKNOWN_COSTSHARE', 0, null],
      [null, 'UNKNOWN_REMAININGS', 0, null],
    ],
  );
  assert.match(course.lines[2]!.reason!, /earlier session/);
});

test('without a plan end, the plan year ends by the begin date’s anniversary: later sessions unknown', () => {
  const current = coverage(benefits({ copay: 3000 }), { plan_begin_date: '2025-09-01', plan_end_date: null });
  const sessions = weekly('2026-08-17', 4, C);
  const course = courseOfCare({ sessions, in_network: true, current: new Map([[OFFICE, current]]), next: new Map(), next_unknown: null });
  assert.deepEqual(
    course.lines.map((l) => [l.date_of_service, l.plan_year, l.member_obligation]),
    [
      ['2026-08-17', 'current', 3000],
      ['2026-08-24', 'current', 3000],
      ['2026-08-31', 'current', 3000],
      ['2026-09-07', 'next', null],
    ],
  );
  // Neither date: no reset is known, every session is this year's.
  const undated = coverage(benefits({ copay: 3000 }), { plan_begin_date: null, plan_end_date: null });
  const all = courseOfCare({ sessions, in_network: true, current: new Map([[OFFICE, undated]]), next: new Map(), next_unknown: null });
  assert.deepEqual(
    all.lines.map((l) => l.member_obligation),
    [3000, 3000, 3000, 3000],
  );
});
