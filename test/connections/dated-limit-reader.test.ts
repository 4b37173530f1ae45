/**
 * A vendor's visit limit dated to its own plan year (Stedi's `benefitsDateInformation.plan`, written as
 * 2110C DTP 291): a limit dated to a period that does not hold the date of service applies to another
 * period and is skipped, by the same rule that skips a cost share or accumulator dated so
 * (docs/estimates.md 1.1; src/x12/benefits/filters.ts benefitWindow). vendor-review-6 case 08 and the
 * variants outside the set: last year's used-up limit alone, this year's alone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import type { OperationDeps } from '../../src/operations/context.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { decodeAnswer } from '../../src/operations/payer-answer.ts';
import { stediToX12 } from '../../src/payers/vendors/stedi-read.ts';

interface Case {
  today: string;
  encounter: { date_of_service: string; procedure_code: string; place_of_service: string };
  member: { member_id: string; first_name: string; last_name: string; dob: string };
  inputs: { provider_session_cost: number; in_network: boolean };
  answer: { benefitsInformation: Record<string, unknown>[]; tradingPartnerServiceId?: string };
}
const CASE = JSON.parse(
  readFileSync(new URL('../fixtures/vendor-review-6/08-stedi-last-years-visit-limit-used-up-beside-this-years.json', import.meta.url), 'utf8'),
) as Case;
const NO_DIRECTORY = { network: { payer: () => undefined } } as unknown as OperationDeps;

/** The plan year a limit row is dated to (its benefitsDateInformation.plan), or null for another row. */
const yearOf = (b: Record<string, unknown>) =>
  b.code === 'F' ? String((b.benefitsDateInformation as { plan?: string } | undefined)?.plan ?? '').slice(0, 4) || null : null;

function priced(keep: (year: string | null) => boolean) {
  const c = structuredClone(CASE);
  c.answer.benefitsInformation = c.answer.benefitsInformation.filter((b) => keep(yearOf(b)));
  const inquiry: Inquiry = {
    trace_number: '000000008',
    payer: { id: String(c.answer.tradingPartnerServiceId ?? 'X'), name: null },
    provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'HARBOR LIGHT COUNSELING' },
    subscriber: { member_id: c.member.member_id, first_name: c.member.first_name, last_name: c.member.last_name, dob: c.member.dob, zip: null },
    dependent: null,
    service_types: ['MH'],
    date: c.encounter.date_of_service,
    procedure_code: c.encounter.procedure_code,
    place_of_service: c.encounter.place_of_service,
  };
  const x12 = stediToX12(c.answer, inquiry);
  assert.ok(x12 !== null);
  const r = decodeAnswer(NO_DIRECTORY, inquiry, { answer: x12, read: null });
  assert.equal(r.value.kind, 'coverage');
  if (r.value.kind !== 'coverage') throw new Error('no coverage');
  const request = {
    member_id: c.member.member_id,
    member_first_name: c.member.first_name,
    member_last_name: c.member.last_name,
    member_dob: c.member.dob,
    ...c.inputs,
    ...c.encounter,
  } as EstimateRequest;
  const { body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, c.today, c.encounter.date_of_service);
  return { member: body.member_obligation, visits: body.visits_remaining, limitAlert: body.alerts.some((a) => a.code === 'VISIT_LIMIT') };
}

test('the fixture holds two visit limits, dated 2025 and 2026, and the visit is in 2026', () => {
  const years = CASE.answer.benefitsInformation.map(yearOf).filter((y) => y !== null);
  assert.deepEqual(years.sort(), ['2025', '2026']);
  assert.ok(CASE.encounter.date_of_service.startsWith('2026'));
});

test('both limits: 2026’s 12 left, the $25 copay, no VISIT_LIMIT', () => {
  assert.deepEqual(
    priced(() => true),
    { member: 2500, visits: 12, limitAlert: false },
  );
});

test('only 2025’s used-up limit: it applies to another plan year; the $25 copay, never the whole $140', () => {
  assert.deepEqual(
    priced((y) => y !== '2026'),
    { member: 2500, visits: null, limitAlert: false },
  );
});

test('only 2026’s limit: 12 left, the $25 copay', () => {
  assert.deepEqual(
    priced((y) => y !== '2025'),
    { member: 2500, visits: 12, limitAlert: false },
  );
});
