/**
 * Issue 23, finding 6: production kept batch rows (names, dates of birth, member IDs) in plain text
 * when COVERAGE_DATA_KEY was unset, without a word. It now refuses to start and says how to make a
 * key; the sandbox still runs without one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';
import { runCli } from '../support/processes.ts';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-datakey-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('`coverage serve` in production without COVERAGE_DATA_KEY exits, saying how to make one', async (t) => {
  const run = await runCli(['serve'], {
    COVERAGE_DATA_DIR: tempDir(t),
    COVERAGE_MODE: 'production',
    COVERAGE_PAYERS: '/nonexistent.json',
    COVERAGE_DATA_KEY: '',
  });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /COVERAGE_DATA_KEY is required in production/);
  assert.match(run.stderr, /openssl rand -hex 32/);
  assert.doesNotMatch(run.stdout, /listening/);
});

test('the start refuses before it opens the store or the payer network', async (t) => {
  const config = loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: tempDir(t), COVERAGE_MODE: 'production', COVERAGE_PAYERS: '/nonexistent.json', PORT: '0' });
  await assert.rejects(startRuntime(config, { logLevel: false }), /COVERAGE_DATA_KEY is required in production/);
});

test('the sandbox still starts without a data key', async (t) => {
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: tempDir(t), PORT: '0' }), { logLevel: false });
  await runtime.close();
});
