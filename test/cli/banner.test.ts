/**
 * The start banner: the console and docs addresses answer, and the "try it" call it prints works as
 * printed, in the sandbox and in production against a payer directory (where payer_id is required).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { bannerPayer } from '../../src/cli/banner.ts';
import type { PayerInfo } from '../../src/payers/network.ts';
import { simulatorDirectory, SIMULATOR_PASSWORD_ENV, SIMULATOR_USERNAME_ENV } from '../../src/payers/simulator/directory.ts';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { runCli, startServer } from '../support/processes.ts';
import { TEST_DATA_KEY } from '../helpers/server.ts';

const run = promisify(execFile);

/** The curl lines after "Try it", joined as the shell would read them. */
function tryItCommand(stdout: string): string {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Try it'));
  assert.ok(start >= 0, stdout);
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim()) break;
    block.push(line);
  }
  return block.join('\n');
}

async function shell(command: string): Promise<string> {
  return (await run('bash', ['-c', command], { timeout: 60_000 })).stdout;
}

async function assertPagesAnswer(stdout: string): Promise<void> {
  const consoleUrl = /^Console:\s+(\S+)/m.exec(stdout)?.[1];
  const docsUrl = /^API docs:\s+(\S+)/m.exec(stdout)?.[1];
  assert.ok(consoleUrl && docsUrl, stdout);
  for (const url of [consoleUrl, docsUrl]) assert.equal((await fetch(url.replace('localhost', '127.0.0.1'))).status, 200, url);
}

test('sandbox: the banner names the console and the docs, and its curl answers an estimate as printed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-banner-'));
  const server = await startServer({ COVERAGE_DATA_DIR: dataDir });
  try {
    const { stdout } = server.output();
    await assertPagesAnswer(stdout);
    const answer = JSON.parse(await shell(tryItCommand(stdout)));
    assert.equal(answer.plan_status, 'ACTIVE');
    assert.equal(answer.member_obligation, 3000);
    const members = /^Sandbox members: (curl .*)$/m.exec(stdout)?.[1];
    assert.ok(members, stdout);
    assert.ok(JSON.parse(await shell(members)).members.length > 0);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('production: the curl names a payer of the directory and answers; no sandbox page is mentioned', async () => {
  const sim = await PayerSimulator.start({});
  const dir = mkdtempSync(join(tmpdir(), 'coverage-banner-'));
  const payersFile = join(dir, 'payers.json');
  writeFileSync(payersFile, JSON.stringify(simulatorDirectory(sim)));
  // Production takes no COVERAGE_DEV_KEY: the operator creates a key first.
  const created = await runCli(['keys', 'create', '--name', 'banner', '--env', 'production'], { COVERAGE_DATA_DIR: dir });
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  const server = await startServer({
    COVERAGE_DATA_DIR: dir,
    COVERAGE_MODE: 'production',
    COVERAGE_DATA_KEY: TEST_DATA_KEY,
    COVERAGE_PAYERS: payersFile,
    [SIMULATOR_USERNAME_ENV]: 'sim',
    [SIMULATOR_PASSWORD_ENV]: 'sim',
  });
  try {
    const { stdout } = server.output();
    assert.doesNotMatch(stdout, /sandbox\/members/);
    await assertPagesAnswer(stdout);
    assert.ok(!stdout.includes(key), 'the banner does not print a key it did not generate');
    const command = tryItCommand(stdout).replace(/apikey: [^']*/, `apikey: ${key}`);
    assert.match(command, /"payer_id":"SBX-EVERGREEN"/);
    const answer = JSON.parse(await shell(command));
    assert.equal(answer.plan_status, 'ACTIVE', JSON.stringify(answer));
    const payers = /^Payers: (curl .*)$/m.exec(stdout)?.[1];
    assert.ok(payers, stdout);
    assert.equal(JSON.parse(await shell(payers.replace(/apikey: [^']*/, `apikey: ${key}`))).mode, 'production');
  } finally {
    await server.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the payer shown is a commercial one: not a Medicaid program, not a carve-out administrator', () => {
  const payer = (payer_id: string, extra: Partial<PayerInfo> = {}): PayerInfo => ({
    payer_id,
    name: payer_id,
    supports_search: true,
    medicaid_state: null,
    ...extra,
  });
  const directory = [
    payer('EXAMPLE-MCD-NY', { medicaid_state: 'NY' }),
    payer('EXAMPLE-BH-ADMIN'),
    payer('EXAMPLE-COMMERCIAL', { carve_out_administrators: ['EXAMPLE-BH-ADMIN'] }),
  ];
  assert.equal(bannerPayer(directory)?.payer_id, 'EXAMPLE-COMMERCIAL');
  assert.equal(bannerPayer([payer('EXAMPLE-MCD-NY', { medicaid_state: 'NY' })])?.payer_id, 'EXAMPLE-MCD-NY');
  assert.equal(bannerPayer([]), undefined);
});
