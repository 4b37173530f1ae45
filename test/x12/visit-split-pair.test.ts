/**
 * Two copays split by visit count (docs/estimates.md 1.1, "Cost shares by visit count"; share-group.ts forVisit):
 * "NO CHARGE FOR THE FIRST 3 VISITS" beside "COPAY APPLIES BEGINNING WITH THE 4TH VISIT" price visit used + 1
 * by its side when the visit limit says the count; without the count, or with splits that disagree, unknown.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const TODAY = '2026-06-15';
const PLAN = ['DMG*D8*19900101*F', 'DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30*HM*HMO VALUE'];
const REQUEST = {
  payer_id: 'P123',
  provider_npi: '1234567893',
  member_id: 'M100',
  member_first_name: 'JANE',
  member_last_name: 'DOE',
  member_dob: '1990-01-01',
  provider_session_cost: 15000,
  in_network: true,
  procedure_code: '90837',
} as EstimateRequest;

function answer(rows: string[]): { status: number; copayment: unknown } {
  const encounter = { date_of_service: TODAY, procedure_code: '90837', place_of_service: '11' };
  const r = normalize271(interchange('271', body271([...PLAN, ...rows])), { encounter });
  assert.ok(r.ok && r.value.kind === 'coverage');
  const { status, body } = estimateBody(r.value.coverage, REQUEST, TODAY, TODAY);
  return { status, copayment: (body as unknown as Record<string, unknown>)['copayment'] };
}

const FREE = ['EB*B*IND*MH***27*0*****Y', 'MSG*NO CHARGE FOR THE FIRST 3 OUTPATIENT MENTAL HEALTH VISITS PER CALENDAR YEAR'];
const LATER = ['EB*B*IND*MH***27*30*****Y', 'MSG*COPAY APPLIES BEGINNING WITH THE 4TH VISIT'];
const limit = (used: number) => ['EB*F*IND*MH***23***VS*25**Y', `EB*F*IND*MH***24***VS*${used}**Y`];

test('two copays split by visit count: visit used + 1 by its side, either order', () => {
  for (const [used, copay] of [
    [0, 0],
    [2, 0],
    [3, 3000],
    [5, 3000],
  ] as const) {
    assert.equal(answer([...FREE, ...LATER, ...limit(used)]).copayment, copay, `used ${used}`);
    assert.equal(answer([...LATER, ...limit(used), ...FREE]).copayment, copay, `used ${used}, reordered`);
  }
});

test('two copays split by visit count without a visit count, or with splits that disagree: unknown, never the first', () => {
  const none = answer([...FREE, ...LATER]);
  assert.equal(none.status, 206);
  assert.equal(none.copayment, null);
  const disagree = answer([...FREE, 'EB*B*IND*MH***27*30*****Y', 'MSG*COPAY APPLIES BEGINNING WITH THE 6TH VISIT', ...limit(0)]);
  assert.equal(disagree.status, 206);
  assert.equal(disagree.copayment, null);
});
