/** `coverage check`: each command against a running sandbox, the summary, --json, and the exit codes. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { runCheck, type CheckOptions } from '../../src/cli/check.ts';
import type { OperationName } from '../../src/domain/schemas/requests.ts';
import { CoverageClient } from '../../src/index.ts';
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let fetch: typeof globalThis.fetch;
before(async () => {
  server = await startTestServer();
  fetch = checkingFetch(await checkerForServer(server.url), server.url);
});
after(() => server.close());

const avery: CheckOptions = { memberId: '10010MHNA', firstName: 'Avery', lastName: 'Walsh', dob: '1988-03-14' };

async function check(operation: OperationName, options: CheckOptions, env: Record<string, string> = { COVERAGE_URL: server.url, COVERAGE_API_KEY: TEST_KEY }) {
  let stdout = '';
  let stderr = '';
  const code = await runCheck(operation, options, { env, io: { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, fetch });
  return { code, stdout, stderr };
}

describe('in process', () => {
  test('estimate: status, plan, what the patient pays, deductible and OOP progress, alerts', async () => {
    const { code, stdout, stderr } = await check('estimate', { ...avery, payerId: 'SBX-EVERGREEN', npi: '1234567893', cost: '150' });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Status +ACTIVE \(coverage active/m);
    assert.match(stdout, /^Plan +EVERGREEN CHOICE PPO \(PPO, commercial\) at EVERGREEN HEALTH PLAN \[SBX-EVERGREEN\]$/m);
    assert.match(stdout, /^Patient pays +\$30\.00 of a \$150\.00 session \(plan pays \$120\.00\), in network$/m);
    assert.match(stdout, /^Deductible +\$700\.00 of \$1,500\.00 met, \$800\.00 left$/m);
    assert.match(stdout, /^Out-of-pocket +\$1,450\.00 of \$6,000\.00 met, \$4,550\.00 left$/m);
    assert.match(stdout, /^Alerts +none$/m);
  });

  test('estimate out of network, with alerts and a partial result', async () => {
    const oon = await check('estimate', { ...avery, cost: '150', outOfNetwork: true });
    assert.match(oon.stdout, /^Patient pays +\$150\.00 of a \$150\.00 session .*out of network$/m);
    const mismatch = await check('estimate', { memberId: '10030MHDM', firstName: 'Katherine', lastName: 'Miller', dob: '1984-04-04', cost: '150' });
    assert.equal(mismatch.code, 0);
    assert.match(mismatch.stdout, /^Alerts +DEMOGRAPHIC_MISMATCH: /m);
    const partial = await check('estimate', { memberId: '10090MHUC', firstName: 'Adrian', lastName: 'Cole', dob: '1986-11-19', cost: '150' });
    assert.equal(partial.code, 0, 'a 206 is a result');
    assert.match(partial.stdout, /^Partial +UNKNOWN_COSTSHARE: /m);
    assert.match(partial.stdout, /^Patient pays +unknown/m);
  });

  test("the verdict first, in the console card's words; an ended plan shows no benefits, a carve-out price names its source", async () => {
    const active = await check('estimate', { ...avery, cost: '150' });
    assert.match(active.stdout, /^Verdict +Patient pays \$30\.00$/m);
    assert.match(active.stdout, /^Next +Collect \$30\.00 at the visit\.$/m);
    const ended = await check('estimate', { memberId: '10080MHEXP', firstName: 'Gavin', lastName: 'Price', dob: '1981-02-28', cost: '150' });
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stdout, /^Verdict +Coverage ended: full \$150\.00$/m);
    assert.match(ended.stdout, /^Patient pays +the full \$150\.00 session$/m);
    assert.doesNotMatch(ended.stdout, /^(Benefit|Deductible|Out-of-pocket|Telehealth) /m);
    const carve = await check('estimate', { memberId: '10040MHCA', firstName: 'Maya', lastName: 'Goldberg', dob: '1993-03-19', cost: '150' });
    assert.equal(carve.code, 0, carve.stderr);
    const by = /^Verdict +(\$\d+\.\d\d) per Mindful Behavioral Health Administrators$/m.exec(carve.stdout);
    assert.ok(by, carve.stdout);
    assert.match(carve.stdout, new RegExp(`^Patient pays +\\${by[1]} per Mindful Behavioral Health Administrators of a \\$150\\.00 session`, 'm'));
    const unknown = await check('estimate', { memberId: '10090MHUC', firstName: 'Adrian', lastName: 'Cole', dob: '1986-11-19', cost: '150' });
    assert.match(unknown.stdout, /^Verdict +Price unknown: call the plan$/m);
    const missing = await check('estimate', { memberId: '10100MHMNF', firstName: 'Nora', lastName: 'Quinn', dob: '1983-03-23', cost: '150' });
    assert.match(missing.stderr, /Not found: check the member ID\./);
  });

  test('estimate --sessions --every: the course of care, a line a session, the reset said', async () => {
    const osei = { memberId: '10125MHDM', firstName: 'Nadia', lastName: 'Osei', dob: '1991-05-20', cost: '150' };
    const { code, stdout, stderr } = await check('estimate', { ...osei, sessions: '12', every: '7' });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Course +12 sessions: patient pays \$760\.00, plan pays \$1,040\.00$/m);
    assert.equal(stdout.match(/^ +\d{4}-\d{2}-\d{2} /gm)?.length, 12);
    assert.match(stdout, /^ +2026-06-15 +\$30\.00 +cost share$/m);
    assert.match(stdout, /^ +2026-07-06 +\$150\.00 +all to the deductible, next plan year$/m);
    assert.match(stdout, /^ +2026-07-27 +\$70\.00 +meets the deductible, next plan year$/m);
    const tooMany = await check('estimate', { ...osei, sessions: '60' });
    assert.equal(tooMany.code, 1);
    assert.match(tooMany.stderr, /^ +--sessions \/ --every \(course\): must be <= 52$/m);
  });

  test('discover, scan and medicaid summaries', async () => {
    const discover = await check('discover', { firstName: 'Avery', lastName: 'Walsh', dob: '1988-03-14', payerId: 'SBX-EVERGREEN' });
    assert.equal(discover.code, 0, discover.stderr);
    assert.match(discover.stdout, /^Member +AVERY WALSH, ID 10010MHNA, DOB 1988-03-14$/m);
    const scan = await check('scan', { firstName: 'Keisha', lastName: 'Daniels', dob: '1997-04-14', zip: '78701' });
    assert.equal(scan.code, 0, scan.stderr);
    assert.match(scan.stdout, /^Payers +\d+ asked/m);
    assert.match(scan.stdout, /\[SBX-COMMUNITY\]/);
    const medicaid = await check('medicaid', { memberId: '10070MHOMCD', firstName: 'Luis', lastName: 'Herrera', dob: '1999-11-11', state: 'NY' });
    assert.equal(medicaid.code, 0, medicaid.stderr);
    assert.match(medicaid.stdout, /^Medicaid +NY, managed care no, QMB no$/m);
  });

  test('--cost is dollars as people write them: 150, 150.00, $150 and 1,250 are sent as cents', async () => {
    for (const cost of ['150', '150.00', '$150', ' $150.00 ']) {
      const { code, stdout, stderr } = await check('estimate', { ...avery, cost });
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^Patient pays +\$30\.00 of a \$150\.00 session/m, cost);
      assert.doesNotMatch(stdout, /SESSION_COST_LOW/);
    }
    const big = await check('estimate', { ...avery, cost: '1,250', json: true });
    assert.equal(JSON.parse(big.stdout).provider_session_cost, 125_000);
    const refused = await check('estimate', { ...avery, cost: '15O' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--cost "15O" is not an amount in dollars such as 150, 150\.00, \$150\.00 or 1,250\.00 \(--cost is in dollars/);
  });

  test('the encounter options are sent as the API takes them and the answer prices that visit', async () => {
    const { code, stdout, stderr } = await check('estimate', {
      ...avery,
      cost: '150',
      dateOfService: '2026-06-22',
      procedure: '90837',
      place: '10',
      json: true,
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout).encounter, { date_of_service: '2026-06-22', procedure_code: '90837', place_of_service: '10' });
    const bad = await check('estimate', { ...avery, place: '99x' });
    assert.match(bad.stderr, /--place \(place_of_service\): must be a two-digit/);
  });

  test('--json prints the answer as the client returns it', async () => {
    const { code, stdout } = await check('estimate', { ...avery, cost: '150', json: true });
    assert.equal(code, 0);
    const direct = await new CoverageClient({ baseUrl: server.url, apiKey: TEST_KEY, fetch }).estimate({
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      provider_session_cost: '15000',
      in_network: true,
    });
    assert.deepEqual(JSON.parse(stdout), direct);
  });

  test('an error exits non-zero with the error code and message', async () => {
    const { code, stdout, stderr } = await check('discover', { firstName: 'Nora', lastName: 'Quinn', dob: '1983-03-23', payerId: 'SBX-EVERGREEN' });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /MEMBER_NOT_FOUND \(HTTP 404\): The payer found no member/);
    assert.match(stderr, /request_id [0-9a-f-]{36}/);
    const json = await check('discover', { firstName: 'Nora', lastName: 'Quinn', dob: '1983-03-23', payerId: 'SBX-EVERGREEN', json: true });
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).error_code, 'MEMBER_NOT_FOUND');
  });

  test('invalid fields are named with the option that sets them', async () => {
    const { code, stderr } = await check('scan', { firstName: 'Avery', dob: '1988-02-30' });
    assert.equal(code, 1);
    assert.match(stderr, /INVALID_REQUEST/);
    assert.match(stderr, /--last-name \(member_last_name\): is required/);
    assert.match(stderr, /--dob \(member_dob\): must be a real calendar date/);
  });

  test('no key, or no server, exits 2 and says why', async () => {
    const noKey = await check('scan', {}, { COVERAGE_URL: server.url });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /COVERAGE_API_KEY/);
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const nowhere = await check(
      'scan',
      { firstName: 'A', lastName: 'B', dob: '2000-01-01' },
      { COVERAGE_URL: `http://127.0.0.1:${port}`, COVERAGE_API_KEY: TEST_KEY },
    );
    assert.equal(nowhere.code, 2);
    assert.match(nowhere.stderr, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} \\(fetch failed: .*ECONNREFUSED`));
  });
});

describe('as the coverage command', () => {
  const BIN = resolve(import.meta.dirname, '../../bin/coverage.js');
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [BIN, 'check', ...args], { env: { ...process.env, COVERAGE_URL: server.url, COVERAGE_API_KEY: TEST_KEY } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  test('estimate --help says --cost is in dollars and lists the encounter options the API takes', async () => {
    const help = await run(['estimate', '--help']);
    assert.match(help.stdout, /--cost <dollars> +session price in dollars: 150, 150\.00 or \$150/);
    assert.match(help.stdout, /--date-of-service <YYYY-MM-DD>/);
    assert.match(help.stdout, /--procedure <code>/);
    assert.match(help.stdout, /--place <code>/);
  });

  test('prints the JSON answer and exits 0, or exits 1 with the error code', async () => {
    const [estimate, failed] = await Promise.all([
      run([
        'estimate',
        '--member-id',
        '10010MHNA',
        '--first-name',
        'Avery',
        '--last-name',
        'Walsh',
        '--dob',
        '1988-03-14',
        '--npi',
        '1234567893',
        '--cost',
        '$150.00',
        '--json',
      ]),
      run(['discover', '--first-name', 'Peter', '--last-name', 'Lang', '--dob', '1972-07-04', '--payer-id', 'SBX-EVERGREEN']),
    ]);
    assert.equal(estimate.code, 0, estimate.stderr);
    assert.equal(JSON.parse(estimate.stdout).member_obligation, 3000);
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, '');
    assert.match(failed.stderr, /PAYER_FAILURE \(HTTP 502\): The payer/);
  });
});
