/** For every sandbox catalog member: catalog -> 271 -> normalizer gives back the catalog's plan. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Coverage } from '../../src/domain/coverage.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { lookup, type SandboxHit } from '../../src/payers/sandbox/lookup.ts';
import { coverageFor } from '../../src/payers/sandbox/network.ts';
import { classifyBenefitStructure } from '../../src/domain/estimate/index.ts';
import { BENEFIT_STRUCTURES } from '../../src/domain/schemas/responses.ts';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { build271, normalize271 } from '../../src/x12/index.ts';

const TODAY = '2026-06-15';
/** X12 carries text upper-case; these keys hold free text, the rest are codes, dates and numbers. */
const TEXT_KEYS = new Set([
  'first_name',
  'last_name',
  'street_line_1',
  'street_line_2',
  'city',
  'name',
  'payer_name',
  'plan_name',
  'group_name',
  'organization_name',
]);

function upperText<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (TEXT_KEYS.has(key) ? value.toUpperCase() : value) as T;
  if (Array.isArray(value)) return value.map((v) => upperText(v, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upperText(v, k)])) as T;
  }
  return value;
}

function inquiryFor(memberId: string, payerId: string): Inquiry {
  return {
    trace_number: 'RT0001',
    payer: { id: payerId, name: null },
    provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'ROUND TRIP CLINIC' },
    subscriber: { member_id: memberId, first_name: 'ANY', last_name: 'BODY', dob: '1990-01-01', zip: null },
    dependent: null,
    service_types: ['MH', '30'],
    date: TODAY,
  };
}

function roundTrip(hit: SandboxHit, inquiry: Inquiry): { expected: Coverage; actual: Coverage } {
  const expected = coverageFor(CATALOG, hit, TODAY);
  // Answered (and so read for a visit) on TODAY, the day the catalog's dates are resolved for: a visit
  // on another day may fall in the next plan year, which that year's rows price (docs/estimates.md 1.1).
  const result = normalize271(build271(inquiry, { kind: 'coverage', coverage: expected }, { now: new Date(`${TODAY}T12:00:00Z`) }));
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  assert.equal(result.value.kind, 'coverage');
  if (result.value.kind !== 'coverage') throw new Error('unreachable');
  return { expected: upperText(expected), actual: result.value.coverage };
}

const members = CATALOG.members.filter((m) => (m.answer ?? { kind: 'coverage' }).kind === 'coverage');
/** The in-network structure each named member shows once read back from its 271. */
const structures = new Map<string, string[]>();

for (const m of members) {
  test(`${m.member_id} (${m.scenario})`, () => {
    const inquiry = inquiryFor(m.member_id, m.payer_id);
    const hit = lookup(CATALOG, m.payer_id, inquiry);
    assert.ok(hit, 'the member is found at its payer');
    const { expected, actual } = roundTrip(hit, inquiry);
    assert.deepEqual(actual, expected);
    const structure = actual.in_network ? classifyBenefitStructure(actual.in_network) : null;
    if (structure) structures.set(structure, [...(structures.get(structure) ?? []), m.member_id]);
  });
}

test('read back from their 271s, the named members show all twelve benefit structures of docs/estimates.md section 2', () => {
  for (const s of BENEFIT_STRUCTURES) assert.ok(structures.has(s), `no named member shows "${s}"`);
  // The five members added for the structures no other member showed.
  assert.equal(structures.get('Coinsurance, no deductible, with OOP Max')?.includes('10120MHDM'), true);
  assert.equal(structures.get('Coinsurance, no deductible, no OOP Max')?.includes('10121MHDM'), true);
  assert.equal(structures.get('Copay after deductible, no OOP Max')?.includes('10122MHDM'), true);
  assert.equal(structures.get('Copay and coinsurance after deductible, with OOP Max')?.includes('10123MHDM'), true);
  assert.equal(structures.get('Fully covered after deductible')?.includes('10124MHDM'), true);
});

for (const s of CATALOG.suffixes.filter((s) => !s.answer)) {
  test(`generated ID 48213MH${s.suffix} (${s.scenario})`, () => {
    const inquiry = inquiryFor(`48213MH${s.suffix}`, CATALOG.anyPayerId);
    const hit = lookup(CATALOG, CATALOG.anyPayerId, inquiry);
    assert.ok(hit);
    const { expected, actual } = roundTrip(hit, inquiry);
    assert.deepEqual(actual, expected);
  });
}

test('the carve-out administrator answers the carved-out member with its own plan', () => {
  const inquiry = inquiryFor('10040MHCA', 'SBX-MINDFUL');
  const hit = lookup(CATALOG, 'SBX-MINDFUL', inquiry);
  assert.ok(hit);
  const { expected, actual } = roundTrip(hit, inquiry);
  assert.deepEqual(actual, expected);
  assert.equal(actual.in_network?.copayment, 2500);
});
