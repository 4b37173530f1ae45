/**
 * `coverage simulate-payer --remit`: the 835 a payer would send for estimates the sandbox answered,
 * with a scenario per session; sent back to the service, the accuracy report counts what the
 * scenarios made (docs/remittances.md 'The whole loop in the sandbox').
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { estimatedShare } from '../../src/payers/simulator/remittance.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { runCli } from '../support/processes.ts';

let server: TestServer;
let dir: string;
before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'coverage-sim-remit-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const MARCUS = { member_id: '10011MHDM', member_first_name: 'Marcus', member_last_name: 'Bell', member_dob: '1979-11-02' };

async function estimate(member: typeof AVERY, extra: Record<string, unknown>) {
  const r = await server.post('/v1/estimate', { ...member, provider_npi: VALID_NPI, provider_session_cost: 15000, ...extra });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

test('four sessions, four scenarios: the report counts one exact, a $10 copay raise, a met deductible and a denial', async () => {
  const avery = await estimate(AVERY, { procedure_code: '90837' });
  const averyNext = await estimate(AVERY, { date_of_service: '2026-06-16' });
  const marcus = await estimate(MARCUS, { procedure_code: '90837' });
  const marcusNext = await estimate(MARCUS, { procedure_code: '90837', date_of_service: '2026-06-17' });
  for (const e of [avery, averyNext, marcus, marcusNext]) {
    const share = estimatedShare(e)!;
    assert.equal(share.deductible + share.copay + share.coinsurance, e.member_obligation, 'the parts sum to the estimate');
  }
  const list = join(dir, 'estimates.json');
  writeFileSync(
    list,
    JSON.stringify([
      avery,
      { scenario: 'copay_changed', estimate: averyNext },
      { scenario: 'deductible_progressed', estimate: marcus },
      { scenario: 'denied', estimate: marcusNext },
      // A copay raise cannot apply where the member already owes the whole session: left out, said so.
      { scenario: 'copay_changed', estimate: marcus },
    ]),
  );
  const out = join(dir, 'sim.835');
  const sim = await runCli(['simulate-payer', '--remit', list, '--out', out], {});
  assert.equal(sim.code, 0, sim.stderr);
  assert.match(sim.stderr, /entry 5 left out: copay_changed: the member already owes the whole session/);
  assert.match(sim.stderr, /^Wrote an 835 of 4 claims to .*sim\.835: send it with coverage remit FILE$/m);
  assert.doesNotMatch(sim.stdout, /ISA/, 'the file, not standard output');

  const r = await server.post('/v1/remittances', readFileSync(out, 'latin1'), { 'content-type': 'application/edi-x12' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual([r.body.matched, r.body.unmatched, r.body.warnings], [4, 0, []]);
  assert.deepEqual(
    r.body.lines.map((l: { matched_by: string; comparison: { verdict: string; causes: string[] } }) => [
      l.matched_by,
      l.comparison.verdict,
      l.comparison.causes[0] ?? null,
    ]),
    [
      ['procedure', 'exact', null],
      ['default_encounter', 'under_collected', 'copay differs'],
      ['procedure', 'over_collected', 'deductible progressed since the check'],
      ['procedure', 'over_collected', 'service denied'],
    ],
  );

  const report = await server.get('/v1/accuracy');
  assert.equal(report.status, 200);
  const [payer] = report.body.payers;
  assert.equal(report.body.payers.length, 1);
  const metSince = marcus.member_obligation - marcus.post_deductible_member_obligation;
  assert.ok(metSince > 0, JSON.stringify(marcus));
  assert.deepEqual(
    [payer.payer_id, payer.lines, payer.compared, payer.exact, payer.off, payer.under_collected_cents, payer.over_collected_cents],
    [avery.payer_id, 4, 4, 1, 3, 1000, metSince + marcusNext.member_obligation],
  );
  assert.deepEqual(payer.causes.map((c: { cause: string }) => c.cause).sort(), ['copay differs', 'deductible progressed since the check', 'service denied']);
});

test('refused: an entry that is not an estimate answer, an unknown scenario, estimates of two payers', async () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify([{ member_id: 'X' }]));
  const notAnswer = await runCli(['simulate-payer', '--remit', bad], {});
  assert.equal(notAnswer.code, 1);
  assert.match(notAnswer.stderr, /entry 1 is not an estimate answer/);
  const avery = await estimate(AVERY, {});
  const one = join(dir, 'one.json');
  writeFileSync(one, JSON.stringify([avery]));
  const scenario = await runCli(['simulate-payer', '--remit', one, '--scenario', 'lost_in_mail'], {});
  assert.equal(scenario.code, 1);
  assert.match(scenario.stderr, /--scenario must be one of as_estimated, deductible_progressed, copay_changed, denied/);
  const two = join(dir, 'two.json');
  writeFileSync(two, JSON.stringify([avery, { ...avery, payer_id: 'SBX-HARBOR' }]));
  const payers = await runCli(['simulate-payer', '--remit', two], {});
  assert.equal(payers.code, 1);
  assert.match(payers.stderr, /the estimates are of 2 payers \(SBX-EVERGREEN, SBX-HARBOR\)/);
  const plain = await runCli(['simulate-payer', '--remit', one], {});
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^ISA\*/, 'without --out, the 835 on standard output');
  assert.match(plain.stdout, new RegExp(`DTM\\*472\\*${TEST_TODAY.replaceAll('-', '')}~`));
});
