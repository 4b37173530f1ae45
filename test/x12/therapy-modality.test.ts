/**
 * Rows for one kind of psychotherapy (docs/estimates.md 1.1; src/x12/benefits/therapy-modality.json; 271-review-9 49):
 * copays whose EB05 names individual, family or group therapy price the visit whose procedure is of that kind, in any
 * order; a procedure of no listed kind (90791) or a description naming none leaves them competing (unknown).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { describedModality } from '../../src/x12/benefits/therapy-modality.ts';
import { body271, interchange, shuffled } from './x12-fixtures.ts';

const DOS = '2026-06-15';

function owes(rows: string[], procedure: string): number | null {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30', ...rows, 'EB*C*IND*30***29*0*****Y'])), {
    encounter: { date_of_service: DOS, procedure_code: procedure, place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return estimate(r.value.coverage, { session_cost: 15000, in_network: true, date_of_service: DOS }).fields.member_obligation;
}

const ROWS = [['EB*B*IND*MH**INDIVIDUAL THERAPY*27*40*****Y'], ['EB*B*IND*MH**GROUP THERAPY*27*20*****Y'], ['EB*B*IND*MH**FAMILY PSYCHOTHERAPY*27*35*****Y']];

test('describedModality: one kind named, not negated', () => {
  assert.equal(describedModality('INDIVIDUAL THERAPY'), 'individual');
  assert.equal(describedModality('Group Psychotherapy'), 'group');
  assert.equal(describedModality('FAMILY COUNSELING'), 'family');
  assert.equal(describedModality('INDIVIDUAL AND GROUP THERAPY'), null);
  assert.equal(describedModality('NOT GROUP THERAPY'), null);
  assert.equal(describedModality('OUTPATIENT MENTAL HEALTH'), null);
});

test("each kind's copay prices the visit of its kind, the rows in any order", () => {
  const want: Record<string, number> = { '90837': 4000, '90834': 4000, '90853': 2000, '90847': 3500, '90846': 3500 };
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(want)), fc.nat(), (procedure, seed) => {
      assert.equal(owes(shuffled(ROWS, seed).flat(), procedure), want[procedure]);
    }),
    { numRuns: 50, seed: 271_949 },
  );
});

test('a procedure of no listed kind, or descriptions naming none, leave the copays competing: unknown', () => {
  assert.equal(owes(ROWS.flat(), '90791'), null);
  assert.equal(owes(['EB*B*IND*MH**OUTPATIENT*27*40*****Y', 'EB*B*IND*MH**OFFICE*27*20*****Y'], '90837'), null);
});

test('an MSG naming one kind scopes its row as EB05 does: a group copay never prices an individual session', () => {
  const rows = ['EB*B*IND*MH***27*20*****Y', 'MSG*GROUP THERAPY', 'EB*B*IND*30***27*40*****Y'];
  assert.equal(owes(rows, '90837'), 4000);
  assert.equal(owes(rows, '90853'), 2000);
  assert.equal(owes(['EB*B*IND*MH***27*20*****Y', 'MSG*OP MH INDIV/GROUP', 'EB*B*IND*30***27*40*****Y'], '90837'), 2000);
});
