/**
 * EB12 U (Unknown, TR3 005010X279A1 2110C EB12 "In Plan Network Indicator"): the payer does not know
 * which network the row is for (docs/estimates.md 1.1, "Network unknown"; code-tables/eb12.json). A
 * figure row marked U prices neither network: where it competes the figure is unknown (206) and the
 * explanation names EB12 U; it is never read as a row for both networks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import type { TraceEntry } from '../../src/x12/benefits/trace.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const TODAY = '2026-06-15';
const PLAN = ['DMG*D8*19900101*F', 'DTP*346*D8*20260101', 'DTP*347*D8*20261231', 'EB*1**30*PR*GOLD PPO'];
const REQUEST = {
  payer_id: 'P123',
  provider_npi: '1234567893',
  member_id: 'M100',
  member_first_name: 'JANE',
  member_last_name: 'DOE',
  member_dob: '1990-01-01',
  provider_session_cost: 15000,
  procedure_code: '90837',
} as EstimateRequest;

interface Answer {
  status: number;
  member_obligation: unknown;
  error_code: unknown;
  trace: TraceEntry[];
}

function answer(rows: readonly string[], inNetwork: boolean): Answer {
  const trace: TraceEntry[] = [];
  const encounter = { date_of_service: TODAY, procedure_code: '90837', place_of_service: '11' };
  const r = normalize271(interchange('271', body271([...PLAN, ...rows])), { encounter, trace });
  assert.ok(r.ok && r.value.kind === 'coverage', 'reads as coverage');
  const { status, body } = estimateBody(r.value.coverage, { ...REQUEST, in_network: inNetwork }, TODAY, TODAY);
  const b = body as unknown as Record<string, unknown>;
  return { status, member_obligation: b['member_obligation'], error_code: b['error_code'], trace };
}

test('the only MH copay marked EB12 U: the in-network visit’s cost share is unknown (206), the explanation names EB12 U', () => {
  const a = answer(['EB*B*IND*MH***27*25*****U'], true);
  assert.equal(a.status, 206);
  assert.equal(a.error_code, 'UNKNOWN_COSTSHARE');
  assert.equal(a.member_obligation, null);
  assert.ok(
    a.trace.some((e) => (e.status === 'conflict' || e.status === 'skipped') && /EB12 U: unknown/.test(e.rule)),
    'the explanation names EB12 U',
  );
  // Out of network alike: the row is no more out-of-network than in-network.
  assert.equal(answer(['EB*B*IND*MH***27*25*****U'], false).member_obligation, null);
});

test('a status row marked EB12 U is no figure: a plan active for an unknown network still prices the MH copay', () => {
  const a = answer(['EB*1**MH*********U', 'EB*B*IND*MH***27*25*****Y'], true);
  assert.equal(a.status, 200);
  assert.equal(a.member_obligation, 2500);
});

// Rows beside the U row: every kind the cost share and accumulators are read from, per network marking.
const NETS = ['Y', 'N', 'W', ''] as const;
const tail = (net: string) => (net === '' ? '' : `*****${net}`);
const otherRow = fc.oneof(
  fc
    .record({ type: fc.constantFrom('MH', '98', '30', 'CF'), amount: fc.constantFrom('0', '20', '40'), net: fc.constantFrom(...NETS) })
    .map((r) => `EB*B*IND*${r.type}***27*${r.amount}${tail(r.net)}`),
  fc
    .record({ type: fc.constantFrom('MH', '30'), share: fc.constantFrom('.1', '.3'), net: fc.constantFrom(...NETS) })
    .map((r) => `EB*A*IND*${r.type}*****${r.share}${r.net === '' ? '' : `****${r.net}`}`),
  fc
    .record({ kind: fc.constantFrom('C', 'G'), period: fc.constantFrom('23', '29'), amount: fc.constantFrom('0', '500'), net: fc.constantFrom(...NETS) })
    .map((r) => `EB*${r.kind}*IND*30***${r.period}*${r.amount}${tail(r.net)}`),
);
const uRow = fc.oneof(
  fc
    .record({ type: fc.constantFrom('MH', '98', '30', 'CF', 'A6'), amount: fc.constantFrom('0', '25', '60') })
    .map((r) => `EB*B*IND*${r.type}***27*${r.amount}*****U`),
  fc.record({ type: fc.constantFrom('MH', '30'), share: fc.constantFrom('.2', '.5') }).map((r) => `EB*A*IND*${r.type}*****${r.share}****U`),
  fc
    .record({ kind: fc.constantFrom('C', 'G'), period: fc.constantFrom('23', '29'), amount: fc.constantFrom('0', '300') })
    .map((r) => `EB*${r.kind}*IND*30***${r.period}*${r.amount}*****U`),
  fc.constantFrom('EB*I**MH*********U', 'EB*B*IND*MH***27*10*****U*HC:90837'),
);

test('property: a row marked EB12 U beside any other rows never prices either network (the answer is the one without it, or unknown)', () => {
  fc.assert(
    fc.property(fc.array(otherRow, { maxLength: 5 }), uRow, fc.nat(), fc.boolean(), (others, u, at, inNetwork) => {
      const withU = [...others];
      withU.splice(at % (others.length + 1), 0, u);
      const without = answer(others, inNetwork);
      const withIt = answer(withU, inNetwork);
      assert.ok(
        withIt.member_obligation === null || withIt.member_obligation === without.member_obligation,
        `${u} among ${JSON.stringify(others)}: ${String(withIt.member_obligation)} with it, ${String(without.member_obligation)} without`,
      );
      if (withIt.member_obligation === null && without.member_obligation !== null) assert.equal(withIt.status, 206);
    }),
    { numRuns: 200, seed: 38_012 },
  );
});
