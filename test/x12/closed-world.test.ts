/**
 * The closed world (docs/estimates.md 1.1, "Closed world"; src/x12/benefits/closed-world.ts): a value
 * its code table decides "unknown", or one outside every table, never prices as if its element were
 * absent. Where the row carrying it competes for a figure, the figure is unknown (206) and the
 * explanation names the row and the value; a value decided "ignored, because ..." leaves the row as
 * it was; a row less specific than the one that prices a figure changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import type { TraceEntry } from '../../src/x12/benefits/trace.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const TODAY = '2026-06-15';
const PLAN = ['DMG*D8*19900101*F', 'DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30*PR*GOLD PPO'];
const MH_COPAY = ['EB*B*IND*MH***27*25*****Y'];
const REQUEST = {
  payer_id: 'P123',
  provider_npi: '1234567893',
  member_id: 'M100',
  member_first_name: 'JANE',
  member_last_name: 'DOE',
  member_dob: '1990-01-01',
  provider_session_cost: 15000,
  in_network: true,
} as EstimateRequest;

interface Answer {
  status: number;
  copayment: unknown;
  coinsurance: unknown;
  member_obligation: unknown;
  error_code: unknown;
  trace: TraceEntry[];
}

function answer(rows: string[], member: string[] = PLAN, procedure: string | null = '90837'): Answer {
  const trace: TraceEntry[] = [];
  const encounter = { date_of_service: TODAY, procedure_code: procedure, place_of_service: '11' };
  const r = normalize271(interchange('271', body271([...member, ...rows])), { encounter, trace });
  assert.ok(r.ok && r.value.kind === 'coverage', 'reads as coverage');
  const { status, body } = estimateBody(r.value.coverage, { ...REQUEST, procedure_code: procedure ?? undefined }, TODAY, TODAY);
  const b = body as unknown as Record<string, unknown>;
  return { status, copayment: b['copayment'], coinsurance: b['coinsurance'], member_obligation: b['member_obligation'], error_code: b['error_code'], trace };
}

const conflictNaming = (a: Answer, words: RegExp) => a.trace.some((e) => e.status === 'conflict' && words.test(e.rule));

test('the plain 271 prices the MH copay (the baseline every case below changes)', () => {
  const a = answer(MH_COPAY);
  assert.equal(a.status, 200);
  assert.equal(a.copayment, 2500);
  assert.equal(a.member_obligation, 2500);
});

test('a copay restricted to an ICD-9-CM procedure (EB13-01 ID, decided unknown) beside the MH copay: the copay is unknown, never $25', () => {
  const a = answer([...MH_COPAY, 'EB*B*IND*MH***27*0*****Y*ID:9433']);
  assert.equal(a.status, 206);
  assert.equal(a.error_code, 'UNKNOWN_COSTSHARE');
  assert.equal(a.copayment, null);
  assert.ok(conflictNaming(a, /EB13-01 ID: unknown: an ICD-9-CM procedure code/), 'the explanation names EB13-01 ID');
});

test('a place of service outside the CMS list (III02 77) on an MH copay may be the visit’s: unknown, never the other row’s $25', () => {
  const a = answer([...MH_COPAY, 'EB*B*IND*MH***27*10*****Y', 'III*ZZ*77']);
  assert.equal(a.status, 206);
  assert.equal(a.copayment, null);
  assert.ok(conflictNaming(a, /III02 77: not in the TR3 list \(place-of-service\)/));
});

test('a service type outside the TR3 list on a copay row may be mental health: unknown', () => {
  const a = answer([...MH_COPAY, 'EB*B*IND*Q9***27*40*****Y']);
  assert.equal(a.status, 206);
  assert.ok(conflictNaming(a, /EB03 Q9: not in the TR3 list \(eb03\)/));
});

test('a value no rule reads on a less specific row changes nothing: the MH copay still prices', () => {
  // EB13 names no procedure and the service type is known (30, plan level): the row cannot be more specific than MH.
  const a = answer([...MH_COPAY, 'EB*B*IND*30***27*40*****Y', 'REF*XX*123']);
  assert.equal(a.status, 200);
  assert.equal(a.copayment, 2500);
  const skipped = a.trace.find((e) => e.status === 'skipped' && e.eb?.startsWith('EB*B*IND*30'));
  assert.match(skipped?.rule ?? '', /REF01 XX: not in the TR3 list \(ref-2110\)/, 'the skipped row says which value no rule reads');
});

test('values decided "ignored, because ..." leave the row as it was: EB11 U, REF*N6, HSD07, NM1*P5 on the MH copay', () => {
  for (const extra of [
    ['EB*B*IND*MH***27*25****U*Y'],
    ['EB*B*IND*MH***27*25*****Y', 'REF*N6*TIER1'],
    ['EB*B*IND*MH***27*25*****Y', 'LS*2120', 'NM1*P5*2*ACME CORP', 'LE*2120'],
  ]) {
    const a = answer(extra);
    assert.equal(a.status, 200, extra.join('~'));
    assert.equal(a.copayment, 2500, extra.join('~'));
  }
});

test('a 2110 loop the payer rejected (AAA03) competes for the figure it names: unknown', () => {
  const a = answer([...MH_COPAY, 'EB*B*IND*MH***27*0*****Y*HC:90837', 'AAA*Y**AG*C']);
  assert.equal(a.status, 206);
  assert.ok(conflictNaming(a, /AAA03 AG: unknown: the payer rejected the inquiry/));
  // The same rejected loop for another procedure does not apply to this encounter: the MH copay prices.
  const other = answer([...MH_COPAY, 'EB*B*IND*MH***27*0*****Y*HC:90791', 'AAA*Y**AG*C']);
  assert.equal(other.copayment, 2500);
});

test('a copay whose 2120C names the provider it is with by no NPI (NM1*1P, unknown beside a figure) competes: unknown', () => {
  const a = answer([...MH_COPAY, 'EB*B*IND*MH***27*0*****Y', 'LS*2120', 'NM1*1P*2*IN HOUSE CLINIC', 'LE*2120']);
  assert.equal(a.status, 206);
  assert.ok(conflictNaming(a, /NM101 1P: unknown for a figure/));
});

test('a visit limit stated as exceeded (HSD05 30, decided: none of it remains) closes the session: never the copay', () => {
  const a = answer([...MH_COPAY, 'EB*F*IND*MH*********Y', 'HSD*VS*20***30']);
  assert.equal(a.status, 200);
  assert.equal(a.member_obligation, 15000, 'the whole session (VISIT_LIMIT)');
});

test('a deductible row with a value no rule reads: its amount may be none or not, so the deductible and the structure are unknown (206)', () => {
  const rows = ['EB*A*IND*MH***27**.2****Y', 'EB*C*IND*MH***23*1000*****Y', 'EB*C*IND*MH***29*400*****Y'];
  const plain = answer(rows);
  assert.equal(plain.status, 200);
  const a = answer([...rows, 'EB*C*IND*MH***29*0*****Y', 'DTP*999*D8*20260101']);
  assert.equal(a.status, 206);
  assert.equal(a.error_code, 'UNKNOWN_COSTSHARE');
  assert.equal(a.member_obligation, null);
  assert.ok(conflictNaming(a, /DTP01 999: not in the TR3 list \(dtp-2110\)/));
});

test('a mental-health status row with a value no rule reads never closes or opens the session: the cost share is unknown', () => {
  const a = answer([...MH_COPAY, 'EB*6**MH', 'III*ZZ*77']);
  assert.equal(a.status, 206);
  assert.equal(a.member_obligation === 15000, false, 'not billed as an inactive service');
});

test('2100C dates bounding the coverage that the plan gate does not read: unknown when outside, nothing otherwise; policy and COBRA dates gate', () => {
  // body271 answers on 2025-01-01 (BHT04): a premium paid-to end is compared with that day.
  for (const [dtp, reading] of [
    ['DTP*341*D8*20260301', 'gate'], // COBRA ended before the visit: not in force (continuation.ts)
    ['DTP*341*D8*20261231', 'priced'],
    ['DTP*540*D8*20260501', 'gate'], // policy expired
    ['DTP*539*D8*20260701', 'gate'], // policy effective after the visit
    ['DTP*343*D8*20260531', 'priced'], // premium paid to after the day the payer answered: current
    ['DTP*343*D8*20241231', 'unknown'], // premium paid only to before the day the payer answered: in arrears
    ['DTP*442*D8*20260101', 'unknown'], // date of death
    ['DTP*382*D8*20260701', 'priced'], // enrollment: ignored
    ['DTP*999*D8*20260101', 'unknown'], // outside the table
  ] as const) {
    const member = [...PLAN.slice(0, 3), dtp, PLAN[3]!];
    const a = answer(MH_COPAY, member);
    assert.equal(a.status, reading === 'unknown' ? 206 : 200, dtp);
    assert.equal(a.copayment, reading === 'priced' ? 2500 : null, dtp);
    assert.equal(a.member_obligation, reading === 'priced' ? 2500 : reading === 'gate' ? 15000 : null, dtp);
  }
});

test('an EB03 repetition of a type ignored for the session leaves an inpatient-only row inpatient-only (A7^1 never prices an office visit)', () => {
  const a = answer(['EB*B*IND*A4***27*25*****Y', 'EB*A*IND*A7^1***27**.2****Y']);
  assert.equal(a.status, 200);
  assert.equal(a.copayment, 2500);
  assert.equal(a.coinsurance, null);
  assert.equal(a.member_obligation, 2500);
});

test('an EB*V for mental health with a value no rule reads still keeps the plan copay from pricing the session', () => {
  const plain = answer(['EB*V**MH', 'EB*B*IND*30***27*40*****Y']);
  assert.equal(plain.status, 206);
  const a = answer(['EB*V**MH', 'REF*XX*1', 'EB*B*IND*30***27*40*****Y']);
  assert.equal(a.status, 206);
  assert.equal(a.copayment, null);
});

test('an EB01 outside the TR3 list may be any benefit: on an MH row it competes for the share (unknown); on another service, nothing', () => {
  for (const eb01 of ['Q9', 'PENDING', 'BB']) {
    const a = answer([...MH_COPAY, `EB*${eb01}*IND*MH***27*40*****Y`]);
    assert.equal(a.status, 206, eb01);
    assert.equal(a.copayment, null, eb01);
    assert.ok(conflictNaming(a, new RegExp(`EB01 ${eb01}: not in the TR3 list \\(eb01\\)`)), eb01);
    // Vision (AL) is no behavioral-health type and no plan level: the row speaks for another service.
    assert.equal(answer([...MH_COPAY, `EB*${eb01}*IND*AL***27*40*****Y`]).member_obligation, 2500, eb01);
  }
});
