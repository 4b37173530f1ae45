/**
 * Rows for a named provider (docs/estimates.md 1.1; src/x12/benefits/providers.ts): a figure row whose
 * 2120C names a provider (NM101 1P, P3, 73, FA, 13, I3) by NPI is the treating provider's when one NPI is
 * theirs (the request's provider_npi, else the 271's 2100B), another provider's (skipped) when none is,
 * and unknown when a provider is named with no NPI. The properties: the rows in any order give one answer;
 * a row for another NPI beside any table never changes the price; a row for our NPI beats one naming none.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import type { TraceEntry } from '../../src/x12/benefits/trace.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const TODAY = '2026-06-15';
/** body271's 2100B NPI: the provider the 270 asked for. */
const OURS = '1234567893';
const OTHER = '1730184521';
const PLAN = ['DMG*D8*19900101*F', 'DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30*PR*GOLD PPO'];
const REQUEST = {
  payer_id: 'P123',
  provider_npi: OURS,
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
  member_obligation: unknown;
  trace: TraceEntry[];
}

function answer(rows: readonly string[], providerNpi?: string): Answer {
  const trace: TraceEntry[] = [];
  const encounter = { date_of_service: TODAY, procedure_code: '90837', place_of_service: '11' };
  const options = providerNpi === undefined ? { encounter, trace } : { encounter, trace, providerNpi };
  const r = normalize271(interchange('271', body271([...PLAN, ...rows])), options);
  assert.ok(r.ok && r.value.kind === 'coverage', 'reads as coverage');
  const { status, body } = estimateBody(r.value.coverage, { ...REQUEST, procedure_code: '90837' }, TODAY, TODAY);
  const b = body as unknown as Record<string, unknown>;
  return { status, copayment: b['copayment'], member_obligation: b['member_obligation'], trace };
}

/** One EB row with its MSG and 2120C loop, as a block that moves together. */
const tied = (eb: string, entity: string, npi: string | null, msg = 'DESIGNATED PROVIDER') => [
  eb,
  `MSG*${msg}`,
  'LS*2120',
  npi === null ? `NM1*${entity}*2*SUMMIT MINDS` : `NM1*${entity}*2*SUMMIT MINDS*****XX*${npi}`,
  'LE*2120',
];

const GENERAL = ['EB*B*IND*MH***27*45*****Y'];
const ACCUMULATORS = [['EB*C*IND*30***23*1500*****Y'], ['EB*C*IND*30***29*0*****Y'], ['EB*G*IND*30***23*6000*****Y'], ['EB*G*IND*30***29*4200*****Y']];

test('a copay for another NPI (NM1*1P) beside the general MH copay is skipped, named in the explanation: $45', () => {
  const a = answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', '1P', OTHER)]);
  assert.equal(a.status, 200);
  assert.equal(a.copayment, 4500);
  const skipped = a.trace.find((e) => e.status === 'skipped' && e.eb?.startsWith('EB*B*IND*MH***27*10'));
  assert.ok(skipped, "the other provider's row is named as skipped");
  assert.match(skipped.rule, new RegExp(`NPI ${OTHER}\\), not the treating provider \\(NPI ${OURS}\\)`));
});

test("a copay for our NPI beats the general MH copay ($10), and is named as the provider's in the explanation", () => {
  const a = answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', '1P', OURS)]);
  assert.equal(a.status, 200);
  assert.equal(a.copayment, 1000);
});

test('a copay naming two providers, ours among them (in either place), is ours', () => {
  for (const pair of [
    [OTHER, OURS],
    [OURS, OTHER],
  ]) {
    const rows = [
      ...GENERAL,
      'EB*B*IND*MH***27*15*****Y',
      'LS*2120',
      `NM1*1P*2*PRAIRIE OAK*****XX*${pair[0]}`,
      `NM1*1P*2*LANTERN RIVER*****XX*${pair[1]}`,
      'LE*2120',
    ];
    assert.equal(answer(rows).copayment, 1500, pair.join(' then '));
  }
});

test("the request's provider NPI decides over the 271's 2100B: our NPI given, the 2100B's row is another provider's", () => {
  const rows = [...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', '1P', OTHER)];
  assert.equal(answer(rows, OTHER).copayment, 1000, 'the request names the provider the row names');
  assert.equal(answer(rows, OURS).copayment, 4500);
});

test('every provider kind of the table (1P, P3, 73, FA, 13, I3) is held to the NPI alike', () => {
  for (const entity of ['1P', 'P3', '73', 'FA', '13', 'I3']) {
    assert.equal(answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', entity, OTHER)]).copayment, 4500, `${entity} other`);
    assert.equal(answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', entity, OURS)]).copayment, 1000, `${entity} ours`);
  }
});

test('a provider named with no NPI, or an NPI and one without, keeps the figure unknown (206), never $45 or $10', () => {
  const none = answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', '1P', null)]);
  assert.equal(none.status, 206);
  assert.equal(none.copayment, null);
  const mixed = answer([...GENERAL, 'EB*B*IND*MH***27*10*****Y', 'LS*2120', `NM1*1P*2*PRAIRIE OAK*****XX*${OTHER}`, 'NM1*1P*2*NO NUMBER CLINIC', 'LE*2120']);
  assert.equal(mixed.status, 206);
  assert.equal(mixed.copayment, null);
});

test('two copays for our NPI that disagree are in conflict: unknown', () => {
  const a = answer([...GENERAL, ...tied('EB*B*IND*MH***27*10*****Y', '1P', OURS), ...tied('EB*B*IND*MH***27*20*****Y', '1P', OURS)]);
  assert.equal(a.status, 206);
  assert.equal(a.copayment, null);
});

/** Every order of `blocks` (blocks of up to 6: 720 orders at most). */
function* orders<T>(blocks: readonly T[]): Generator<T[]> {
  if (blocks.length <= 1) {
    yield [...blocks];
    return;
  }
  for (let i = 0; i < blocks.length; i++) for (const rest of orders([...blocks.slice(0, i), ...blocks.slice(i + 1)])) yield [blocks[i]!, ...rest];
}

test('property: the rows in any order give one answer (our NPI: $10; another NPI: $45)', () => {
  for (const [npi, expected] of [
    [OURS, 1000],
    [OTHER, 4500],
  ] as const) {
    const blocks = [GENERAL, tied('EB*B*IND*MH***27*10*****Y', '1P', npi), ...ACCUMULATORS.slice(0, 2), ['EB*1**MH']];
    let n = 0;
    for (const order of orders(blocks)) {
      const a = answer(order.flat());
      assert.equal(a.status, 200, order.flat().join('~'));
      assert.equal(a.copayment, expected, order.flat().join('~'));
      n++;
    }
    assert.equal(n, 120);
  }
});

/** Cost-share tables a row for another provider is put beside. */
const TABLES: readonly (readonly string[])[] = [
  ['EB*B*IND*MH***27*45*****Y'],
  ['EB*A*IND*MH***27**.2****Y'],
  ['EB*B*IND*98***27*30*****Y'],
  ['EB*B*IND*30***27*25*****Y', 'EB*A*IND*30***27**.1****Y'],
  ['EB*B*IND*MH***27*45*****Y', 'EB*B*IND*MH***27*50*****N'],
  ['EB*B*IND*MH***27*45*****Y', 'III*ZZ*11'],
  ['EB*I**MH'],
  ['EB*B*IND*MH***27*45*****Y', 'EB*C*IND*MH***23*500*****Y', 'EB*C*IND*MH***29*100*****Y'],
  ['EB*B*IND*MH***27*30*****Y*HC:90837'],
  [],
];
/** Rows stating a figure, each tied to another provider. */
const FOR_OTHERS: readonly string[] = [
  'EB*B*IND*MH***27*10*****Y',
  'EB*A*IND*MH***27**0****Y',
  'EB*B*IND*MH***27*5*****Y*HC:90837',
  'EB*C*IND*MH***23*0*****Y',
  'EB*C*IND*30***29*0*****Y',
  'EB*G*IND*30***29*0*****Y',
  'EB*I**MH',
  'EB*F*IND*MH******VS*1**Y',
];

test('property: a row for another NPI beside any table never changes the answer', () => {
  for (const table of TABLES) {
    const plain = answer(table);
    for (const row of FOR_OTHERS) {
      for (const entity of ['1P', 'P3', 'FA']) {
        const a = answer([...table, ...tied(row, entity, OTHER)]);
        const label = `${table.join('~')} + ${row} (${entity})`;
        assert.equal(a.status, plain.status, label);
        assert.equal(a.copayment, plain.copayment, label);
        assert.equal(a.member_obligation, plain.member_obligation, label);
      }
    }
  }
});

test('property: a copay for our NPI prices over a copay naming none of the same service type, either order', () => {
  for (const table of [['EB*B*IND*MH***27*45*****Y'], ['EB*B*IND*MH***27*45*****Y', 'EB*A*IND*MH***27**.2****Y']]) {
    for (const first of [true, false]) {
      const ours = tied('EB*B*IND*MH***27*10*****Y', '1P', OURS);
      const a = answer(first ? [...ours, ...table] : [...table, ...ours]);
      assert.equal(a.status, 200, table.join('~'));
      assert.equal(a.copayment, 1000, table.join('~'));
    }
  }
});
