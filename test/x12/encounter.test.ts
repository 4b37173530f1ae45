/**
 * The 271 is read for one encounter (docs/estimates.md section 1.1): the same answer prices a 90791
 * intake and a 90837 session differently when the payer restricts a row by EB13, a date of service
 * outside a row's own dates drops it, and the coverage cache keeps one entry per encounter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildInquiry } from '../../src/operations/inquiry.ts';
import { coverageCacheKey } from '../../src/operations/cache.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { corpus } from './corpus.ts';

const intake = corpus().find((c) => c.name === 'procedure-eb13-intake-zero-not-90837')!;
const dated = corpus().find((c) => c.name === 'benefit-dates-349-ended-midyear')!;

function copay(text: string, encounter: { date_of_service: string; procedure_code: string | null; place_of_service: string }) {
  const r = normalize271(text, { encounter });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return r.value.coverage.in_network?.copayment ?? null;
}

test('a row restricted by EB13 prices only its own procedure', () => {
  const on = { date_of_service: intake.expect.today, place_of_service: '11' };
  assert.equal(copay(intake.text, { ...on, procedure_code: '90791' }), 0);
  assert.equal(copay(intake.text, { ...on, procedure_code: '90837' }), 3000);
  assert.equal(copay(intake.text, { ...on, procedure_code: null }), 3000);
});

test("a row's own dates decide whether it prices the date of service", () => {
  // $20 until 2026-03-31 (DTP 349), $35 from 2026-04-01 (DTP 348).
  assert.equal(copay(dated.text, { date_of_service: '2026-01-15', procedure_code: null, place_of_service: '11' }), 2000);
  assert.equal(copay(dated.text, { date_of_service: '2026-04-01', procedure_code: null, place_of_service: '11' }), 3500);
});

test('the coverage cache key holds the encounter', () => {
  const inquiry = buildInquiry({ payer_id: 'P1', member_id: 'M1', dob: '1980-01-01', provider_npi: '1234567893' }, '2026-06-15');
  const keys = new Set([
    coverageCacheKey(inquiry),
    coverageCacheKey({ ...inquiry, procedure_code: '90791' }),
    coverageCacheKey({ ...inquiry, place_of_service: '02' }),
    coverageCacheKey({ ...inquiry, date: '2026-06-16' }),
  ]);
  assert.equal(keys.size, 4);
});
