/**
 * `coverage remit FILE`: an 835 sent to a running sandbox after the estimates it pays, and the summary
 * printed: lines matched, verdicts, the amount collected too little, the causes, why lines matched
 * nothing; --payer-id for a file whose payer IDs the directory does not know; a refused file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runRemit, type RemitOptions } from '../../src/cli/remit.ts';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { runCli } from '../support/processes.ts';

let server: TestServer;
let fetch: typeof globalThis.fetch;
let dir: string;
before(async () => {
  server = await startTestServer();
  fetch = checkingFetch(await checkerForServer(server.url), server.url);
  dir = mkdtempSync(join(tmpdir(), 'coverage-remit-cli-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const STRANGER = { member_id: 'ZZ999999', member_first_name: 'Nobody', member_last_name: 'Known' };

async function remit(file: string, options: RemitOptions = {}, env: Record<string, string> = { COVERAGE_URL: server.url, COVERAGE_API_KEY: TEST_KEY }) {
  let stdout = '';
  let stderr = '';
  const code = await runRemit(file, options, { env, io: { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, fetch });
  return { code, stdout, stderr };
}

function saved(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('the summary: matched, verdicts, collected too little with its cause, unmatched reasons, the lines to look at', async () => {
  const estimate = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' });
  assert.equal(estimate.status, 200);
  const file = saved(
    'mixed.835',
    remittance835('SBX-EVERGREEN', [
      claimOf('C1', AVERY, [serviceLine('90837', 15000, 11000, [PR('3', 4000)], 15000), serviceLine('90791', 20000, 17000, [PR('3', 3000)])]),
      claimOf('C2', STRANGER, [serviceLine('90837', 15000, 12000, [PR('3', 3000)])]),
    ]),
  );
  const r = await remit(file);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Remittance rem_\w+: 2 claims, 3 service lines, 1 matched, 2 unmatched$/m);
  assert.match(r.stdout, /^Verdicts +collected too little 1$/m);
  assert.match(r.stdout, /^Collected +\$10\.00 too little, \$0\.00 too much$/m);
  assert.match(r.stdout, /^Causes +copay differs 1$/m);
  assert.match(r.stdout, /^Unmatched +1: the estimates for this member and date priced other procedures \(90837\)$/m);
  assert.match(r.stdout, /^ +1: no estimate was kept for this member, payer and date of service$/m);
  assert.match(r.stdout, /^1\/1 +90837 +2026-06-15 +collected too little by \$10\.00 \(copay differs\)$/m);
  assert.match(r.stdout, /^2\/1 +90837 +2026-06-15 +unmatched: no estimate was kept/m);
  assert.doesNotMatch(r.stdout, /ZZ999999|NOBODY|10010MHNA/i, 'no member IDs or names');

  const json = await remit(file, { json: true });
  assert.equal(json.code, 0);
  assert.deepEqual(
    JSON.parse(json.stdout).lines.map((l: { comparison: { verdict: string } | null }) => l.comparison?.verdict ?? null),
    ['under_collected', null, null],
  );
});

test('as a command: --payer-id names the payer of a file that gives none; a refused file exits 1 naming the segment', async () => {
  const file = saved('no-payer.835', remittance835(null, [claimOf('C1', AVERY, [serviceLine('90837', 15000, 11000, [PR('3', 4000)], 15000)])]));
  const env = { COVERAGE_URL: server.url, COVERAGE_API_KEY: TEST_KEY };
  const without = await runCli(['remit', file], env);
  assert.equal(without.code, 0, without.stderr);
  assert.match(without.stdout, /0 matched, 1 unmatched$/m);
  assert.match(without.stdout, /^Unmatched +1: the payer of the remittance is not one the directory knows/m);
  const named = await runCli(['remit', file, '--payer-id', 'SBX-EVERGREEN'], env);
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /1 matched, 0 unmatched$/m);

  const bad = await runCli(['remit', saved('bad.835', 'ISA*00*nonsense')], env);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^coverage remit: INVALID_REQUEST \(HTTP 400\): The body is not a readable 835: /);
  const unknown = await runCli(['remit', file, '--payer-id', 'NO-SUCH-PAYER'], env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /PAYER_NOT_SUPPORTED \(HTTP 400\)/);
  const noKey = await runCli(['remit', file], { COVERAGE_URL: server.url });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /set COVERAGE_API_KEY/);
});
