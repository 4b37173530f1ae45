/**
 * Finding 7: COVERAGE_DEV_KEY took any string (`letmein1`), was listed whole by `keys list`, came
 * back after a revoke at the next start, and was printed by the production banner.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { listKeys } from '../../src/cli/keys.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { simulatorDirectory, SIMULATOR_PASSWORD_ENV, SIMULATOR_USERNAME_ENV } from '../../src/payers/simulator/directory.ts';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { TEST_DATA_KEY } from '../helpers/server.ts';
import { runCli, startServer } from '../support/processes.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

const strongKey = () => `cov_test_${randomBytes(16).toString('hex')}`;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-devkeys-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureIo() {
  const io = { out: '', err: '', stdout: (s: string) => void (io.out += s), stderr: (s: string) => void (io.err += s) };
  return io;
}

test('a weak COVERAGE_DEV_KEY is refused at start with a clear error', () => {
  for (const weak of ['letmein1', 'x'.repeat(31), `${'y'.repeat(20)} ${'z'.repeat(20)}`]) {
    assert.throws(() => loadConfig({ COVERAGE_DEV_KEY: weak }), /COVERAGE_DEV_KEY must be at least 32 characters/, weak);
  }
  const random = randomBytes(16).toString('hex');
  assert.equal(loadConfig({ COVERAGE_DEV_KEY: random }).devKey, random);
});

// Issue 23, finding 7: 32 characters of one repeated character were accepted.
test('a COVERAGE_DEV_KEY of obviously low entropy (fewer than 8 different characters) is refused', () => {
  for (const weak of ['k'.repeat(32), 'ab'.repeat(16), '0123456'.repeat(5)]) {
    assert.throws(() => loadConfig({ COVERAGE_DEV_KEY: weak }), /COVERAGE_DEV_KEY uses \d+ different characters; a key needs at least 8/, weak);
  }
  const eight = '01234567'.repeat(4);
  assert.equal(loadConfig({ COVERAGE_DEV_KEY: eight }).devKey, eight, 'the rule is the count, stated in docs/security.md');
});

test('production refuses to start with COVERAGE_DEV_KEY, however strong', async (t) => {
  const key = strongKey();
  assert.throws(() => loadConfig({ COVERAGE_MODE: 'production', COVERAGE_DEV_KEY: key }), /sandbox only/);
  const run = await runCli(['serve'], {
    COVERAGE_DATA_DIR: tempDir(t),
    COVERAGE_MODE: 'production',
    COVERAGE_PAYERS: '/nonexistent.json',
    COVERAGE_DEV_KEY: key,
  });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /COVERAGE_DEV_KEY is for the sandbox only/);
  assert.ok(!run.stderr.includes(key) && !run.stdout.includes(key), 'the refusal does not print the key');
});

test('a revoke is final: the next start does not bring a revoked dev key back', async (t) => {
  const key = strongKey();
  const config = loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: tempDir(t), COVERAGE_DEV_KEY: key, PORT: '0' });
  const first = await startRuntime(config, { logLevel: false });
  const id = (await first.keys.verify(key))?.id;
  assert.ok(id);
  assert.ok(await first.keys.revoke(id));
  await first.close();

  await assert.rejects(startRuntime(config, { logLevel: false }), /COVERAGE_DEV_KEY was revoked/);
  // A new value starts, and the revoked one stays refused.
  const next = strongKey();
  const second = await startRuntime({ ...config, devKey: next }, { logLevel: false });
  try {
    assert.equal(await second.keys.verify(key), null);
    assert.ok(await second.keys.verify(next));
  } finally {
    await second.close();
  }
});

test('keys list never shows a dev key whole, even a short one registered by an earlier version', async (t) => {
  const key = strongKey();
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: tempDir(t), COVERAGE_DEV_KEY: key, PORT: '0' }), { logLevel: false });
  try {
    // What an earlier version stored for COVERAGE_DEV_KEY=letmein1: its prefix column is the whole secret.
    await runtime.keys.create({ name: 'dev (COVERAGE_DEV_KEY)', env: 'sandbox', secret: 'letmein1' });
    for (const json of [false, true]) {
      const io = captureIo();
      await listKeys(runtime.keys, { json }, io);
      assert.ok(!io.out.includes(key), 'the configured key is not listed whole');
      assert.ok(!io.out.includes('letmein1'), 'a short legacy key is not listed at all');
      assert.ok(io.out.includes(key.slice(0, 12)), 'the prefix still identifies the key');
    }
  } finally {
    await runtime.close();
  }
});

test('production retires keys an earlier version registered from COVERAGE_DEV_KEY', async (t) => {
  const dir = tempDir(t);
  const sim = await PayerSimulator.start({});
  t.after(() => sim.close());
  const payers = join(dir, 'payers.json');
  writeFileSync(payers, JSON.stringify(simulatorDirectory(sim)));
  process.env[SIMULATOR_USERNAME_ENV] = 'sim';
  process.env[SIMULATOR_PASSWORD_ENV] = 'sim';
  const sandbox = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: dir, PORT: '0' }), { logLevel: false });
  const legacy = await sandbox.keys.create({ name: 'dev (COVERAGE_DEV_KEY)', env: 'production', secret: 'letmein1' });
  const sandboxDev = await sandbox.keys.create({ name: 'dev (COVERAGE_DEV_KEY)', env: 'sandbox', secret: strongKey() });
  const operatorKey = await sandbox.keys.create({ name: 'clinic', env: 'production' });
  await sandbox.close();

  const production = await startRuntime(
    loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: dir, COVERAGE_MODE: 'production', COVERAGE_PAYERS: payers, COVERAGE_DATA_KEY: TEST_DATA_KEY, PORT: '0' }),
    {
      logLevel: false,
    },
  );
  try {
    assert.equal(await production.keys.verify(legacy.secret), null, 'the weak production dev key is revoked');
    assert.ok(await production.keys.verify(operatorKey.secret), 'keys made with `keys create` stay');
    assert.ok(await production.keys.verify(sandboxDev.secret), 'a sandbox dev key sharing the store is left alone');
  } finally {
    await production.close();
  }
});

test('the sandbox banner does not print a configured key', async (t) => {
  const key = strongKey();
  const server = await startServer({ COVERAGE_DATA_DIR: tempDir(t), COVERAGE_DEV_KEY: key });
  try {
    const { stdout } = server.output();
    assert.match(stdout, /API key: the one set in COVERAGE_DEV_KEY/);
    assert.ok(!stdout.includes(key));
    const res = await fetch(`${server.url}/v1/payers`, { headers: { apikey: key } });
    assert.equal(res.status, 200, 'the configured key works');
  } finally {
    await server.stop();
  }
});
