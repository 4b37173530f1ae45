import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Coverage } from '../../src/domain/coverage.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { build270, build271, DEFAULT_DELIMITERS, normalize271, parse270, readInterchange } from '../../src/x12/index.ts';
import { cleanText } from '../../src/x12/sanitize.ts';
import { defaultEncounter } from '../../src/domain/encounter.ts';
import { coverageArbitrary, inquiryArbitrary } from './coverage-arbitrary.ts';

const envelope = fc.record({
  sender_id: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  control_number: fc.option(fc.integer({ min: 0, max: 2_000_000_000 }), { nil: undefined }),
  usage: fc.option(fc.constantFrom('T' as const, 'P' as const), { nil: undefined }),
  now: fc.option(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), { nil: undefined }),
});

/**
 * A visit in the plan year the Coverage describes: one in the next plan year it reports is priced by
 * that year's rows (docs/estimates.md section 1.1), so its reading is not the Coverage written.
 */
const thisYearVisit = (c: Coverage) => (c.next_plan_year && c.plan_begin_date ? { encounter: defaultEncounter(c.plan_begin_date) } : {});

test('Coverage -> build271 -> normalize271 gives back the same Coverage, without warnings', () => {
  fc.assert(
    fc.property(coverageArbitrary, inquiryArbitrary, envelope, (coverage: Coverage, inquiry: Inquiry, env) => {
      const r = normalize271(build271(inquiry, { kind: 'coverage', coverage }, env), thisYearVisit(coverage));
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.warnings, []);
      assert.ok(r.value.kind === 'coverage');
      assert.deepEqual(r.value.coverage, coverage);
      assert.equal(r.value.trace_number, inquiry.trace_number);
    }),
    { numRuns: 400 },
  );
});

test("a visit in the next plan year is priced by its rows; this year's in-network benefits are kept for the reset rules", () => {
  const withNextYear = coverageArbitrary.filter((c) => c.next_plan_year !== null && c.plan_end_date !== null);
  fc.assert(
    fc.property(withNextYear, inquiryArbitrary, fc.integer({ min: 0, max: 60 }), (coverage: Coverage, inquiry: Inquiry, daysIn) => {
      const next = coverage.next_plan_year!;
      const visit = new Date(`${next.begin_date}T00:00:00Z`);
      visit.setUTCDate(visit.getUTCDate() + daysIn);
      const r = normalize271(build271(inquiry, { kind: 'coverage', coverage }), { encounter: defaultEncounter(visit.toISOString().slice(0, 10)) });
      assert.ok(r.ok && r.value.kind === 'coverage');
      const read = r.value.coverage;
      assert.deepEqual(read.this_plan_year_in_network, coverage.in_network);
      assert.deepEqual(read.next_plan_year, next);
      const n = next.in_network;
      const total = (a: Coverage['in_network'], k: 'deductible' | 'oop_max') => a?.[k]?.individual.total ?? null;
      assert.deepEqual(
        {
          copayment: read.in_network?.copayment ?? null,
          coinsurance: read.in_network?.coinsurance ?? null,
          deductible: total(read.in_network, 'deductible'),
          oop_max: total(read.in_network, 'oop_max'),
        },
        { copayment: n?.copayment ?? null, coinsurance: n?.coinsurance ?? null, deductible: n?.deductible ?? null, oop_max: n?.oop_max ?? null },
      );
      // The next year states totals only: its remaining amounts are unknown, never this year's.
      assert.equal(read.in_network?.deductible?.individual.remaining ?? null, null);
      assert.equal(read.in_network?.oop_max?.individual.remaining ?? null, null);
      assert.equal(read.out_of_network, null);
    }),
    { numRuns: 200 },
  );
});

test('Inquiry -> build270 -> parse270 gives back the same Inquiry, without warnings', () => {
  fc.assert(
    fc.property(inquiryArbitrary, envelope, (inquiry: Inquiry, env) => {
      const r = parse270(build270(inquiry, env));
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.warnings, []);
      assert.deepEqual(r.value, inquiry);
    }),
    { numRuns: 300 },
  );
});

const anyText = fc.string({ unit: 'binary', maxLength: 30 });
const clean = (s: string | null, max: number) => cleanText(s, DEFAULT_DELIMITERS, max) || null;

test('no name or ID can break a 270: delimiters and exotic characters are cleaned', () => {
  const now = new Date('2025-02-03T10:00:00Z');
  const inquiryOf = (first: string, last: string, id: string, payer: string, trace: string): Inquiry => ({
    trace_number: trace,
    payer: { id: payer, name: last },
    provider: { npi: id, first_name: first, last_name: last, organization_name: null },
    subscriber: { member_id: id, first_name: first, last_name: last, dob: '1990-01-31', zip: id },
    dependent: { member_id: null, first_name: last, last_name: first, dob: null, zip: null },
    service_types: [first, 'MH'],
    date: '2025-02-03',
  });
  fc.assert(
    fc.property(anyText, anyText, anyText, anyText, anyText, (first, last, id, payer, trace) => {
      const text = build270(inquiryOf(first, last, id, payer, trace), { now });
      const pre = (s: string) => cleanText(s, DEFAULT_DELIMITERS, 1000);
      assert.equal(text, build270(inquiryOf(pre(first), pre(last), pre(id), pre(payer), pre(trace)), { now }), 'raw text writes as its cleaned form');
      const ic = readInterchange(text);
      assert.ok(ic.ok);
      assert.deepEqual(ic.warnings, []);
      const r = parse270(text);
      assert.ok(r.ok);
      assert.equal(r.value.subscriber.first_name, clean(first, 35));
      assert.equal(r.value.subscriber.last_name, clean(last, 60));
      assert.equal(r.value.subscriber.member_id, clean(id, 80));
      assert.equal(r.value.dependent?.first_name, clean(last, 35));
      assert.equal(r.value.payer.name, clean(last, 60));
    }),
    { numRuns: 300 },
  );
});

test('no free text in a Coverage can break a 271', () => {
  fc.assert(
    fc.property(coverageArbitrary, inquiryArbitrary, anyText, anyText, anyText, (base: Coverage, inquiry: Inquiry, a, b, c) => {
      const coverage: Coverage = {
        ...base,
        payer_name: a || 'X',
        plan_name: b,
        group_name: c,
        member: { ...base.member, first_name: a, last_name: b },
        subscriber: base.relationship_to_subscriber === 'self' ? { ...base.member, first_name: a, last_name: b } : base.subscriber,
        messages: [a, c].filter((m) => m !== ''),
      };
      const r = normalize271(build271(inquiry, { kind: 'coverage', coverage }));
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.ok(r.value.kind === 'coverage');
      assert.equal(r.value.coverage.payer_name, clean(a || 'X', 60) ?? '');
      assert.equal(r.value.coverage.plan_name, clean(b, 50));
      assert.equal(r.value.coverage.member.first_name, clean(a, 35));
    }),
    { numRuns: 200 },
  );
});

test('cleanText upper-cases, transliterates and replaces delimiters', () => {
  const d = DEFAULT_DELIMITERS;
  assert.equal(cleanText('José Müller-Øster', d, 60), 'JOSE MULLER-OSTER');
  assert.equal(cleanText('Straße Æble', d, 60), 'STRASSE AEBLE');
  assert.equal(cleanText('A*B~C^D:E', d, 60), 'A B C D E');
  assert.equal(cleanText('  tab\tand\nnewline  ', d, 60), 'TAB AND NEWLINE');
  assert.equal(cleanText('Blue Advantage PPO (home plan: Blue Cross)', d, 60), 'BLUE ADVANTAGE PPO (HOME PLAN BLUE CROSS)');
  assert.equal(cleanText('中文 名字', d, 60), '');
  assert.equal(cleanText('ABCDEFGHIJ KLMN', d, 11), 'ABCDEFGHIJ');
});
