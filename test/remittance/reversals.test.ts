/**
 * Reversals (CLP02 22) and corrections (docs/remittances.md 'Reversals and corrections'): a later
 * reversal or correction of the same claim (payer claim control number, CLP07) withdraws the earlier
 * comparison, so the accuracy report counts the corrected one only, whatever order they arrive in.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Claim } from '../../src/x12/remittance/types.ts';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const PAYER = 'SBX-EVERGREEN';
const x12 = { 'content-type': 'application/edi-x12' };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** A key of its own per test (another owner): its estimates, remittances and report only. */
async function practice() {
  const apikey = (await server.runtime.keys.create({ name: `practice ${Math.random()}`, env: 'sandbox' })).secret;
  const est = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' }, { apikey });
  assert.equal(est.status, 200);
  assert.equal(est.body.member_obligation, 3000);
  const send = async (...claims: Claim[]) => {
    const r = await server.post('/v1/remittances', remittance835(PAYER, claims), { ...x12, apikey });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body as { id: string; lines: { comparison: { verdict: string } }[] };
  };
  const report = async () => {
    const r = await server.get('/v1/accuracy', { apikey });
    assert.equal(r.status, 200);
    const p = r.body.payers[0];
    return p ? { lines: p.lines, exact: p.exact, off: p.off, not_comparable: p.not_comparable, under: p.under_collected_cents } : null;
  };
  return { send, report };
}

/** Avery's session paid with a copay; `icn` is CLP07. */
const paid = (icn: string | null, copay: number): Claim => ({
  ...claimOf(`PCN-${icn}`, AVERY, [serviceLine('90837', 15000, 15000 - copay, [PR('3', copay)], 15000)]),
  payer_claim_id: icn,
});

/** The reversal of `paid(icn, copay)`: CLP02 22, every amount negated. */
const reversal = (icn: string, copay: number): Claim => {
  const c = claimOf(`PCN-${icn}`, AVERY, [serviceLine('90837', -15000, -(15000 - copay), [PR('3', -copay)], -15000)], '22');
  return { ...c, status_code: '22', status: 'reversal', payer_claim_id: icn };
};

test('paid $40, then reversed and paid again at $30 in a later remittance: only the corrected payment counts', async () => {
  const { send, report } = await practice();
  const first = await send(paid('ICN-A', 4000));
  assert.equal(first.lines[0]!.comparison.verdict, 'under_collected');
  assert.deepEqual(await report(), { lines: 1, exact: 0, off: 1, not_comparable: 0, under: 1000 });
  const fix = await send(reversal('ICN-A', 4000), paid('ICN-A2', 3000));
  assert.deepEqual(
    fix.lines.map((l) => l.comparison.verdict),
    ['not_comparable', 'exact'],
  );
  // The reversal itself is bookkeeping: counted nowhere; the first payment is withdrawn.
  assert.deepEqual(await report(), { lines: 1, exact: 1, off: 0, not_comparable: 0, under: 0 });
});

test('the reversal arrives before the payment it reverses: that payment never counts, the correction does', async () => {
  const { send, report } = await practice();
  await send(reversal('ICN-B', 4000));
  assert.equal(await report(), null, 'a reversal alone counts nothing');
  await send(paid('ICN-B', 4000));
  assert.equal(await report(), null, 'the payment already reversed is withdrawn on arrival');
  await send(paid('ICN-B', 3000));
  assert.deepEqual(await report(), { lines: 1, exact: 1, off: 0, not_comparable: 0, under: 0 });
});

test("a correction without a reversal, then the first payment's reversal: the latest payment counts, once", async () => {
  const { send, report } = await practice();
  await send(paid('ICN-C', 4000));
  // The payer re-adjudicated under the same CLP07 without a reversal: the later payment replaces the earlier.
  await send(paid('ICN-C', 3000));
  assert.deepEqual(await report(), { lines: 1, exact: 1, off: 0, not_comparable: 0, under: 0 });
  // Now the first payment's reversal: it withdraws the $40 one (already withdrawn), never the $30 correction.
  await send(reversal('ICN-C', 4000));
  assert.deepEqual(await report(), { lines: 1, exact: 1, off: 0, not_comparable: 0, under: 0 });
});

test('a claim without CLP07 is never withdrawn; two payments of one claim in one file both count (a split claim)', async () => {
  const { send, report } = await practice();
  await send(paid(null, 4000));
  await send(paid(null, 3000));
  assert.deepEqual(await report(), { lines: 2, exact: 1, off: 1, not_comparable: 0, under: 1000 });
  const { send: sendD, report: reportD } = await practice();
  await sendD(paid('ICN-D', 3000), paid('ICN-D', 3000));
  assert.deepEqual(await reportD(), { lines: 2, exact: 2, off: 0, not_comparable: 0, under: 0 });
});
