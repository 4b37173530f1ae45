import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runNormalize } from '../../src/cli/normalize.ts';
import { SAMPLE, SAMPLES, sample } from './x12-fixtures.ts';

async function run(file: string) {
  let stdout = '';
  let stderr = '';
  const code = await runNormalize(file, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

const path = (name: string) => fileURLToPath(new URL(name, SAMPLES));

test('prints the coverage of a 271 as JSON and exits 0', async () => {
  const r = await run(path(SAMPLE.subscriber271));
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  assert.equal(out.transaction_set, '271');
  assert.equal(out.result.kind, 'coverage');
  assert.equal(out.result.coverage.plan_name, 'GOLD 123 PLAN');
  assert.deepEqual(out.warnings, []);
});

test('an AAA rejection is a readable answer: JSON, exit 0, warnings included', async () => {
  const r = await run(path(SAMPLE.error271));
  assert.equal(r.code, 0);
  const out = JSON.parse(r.stdout);
  assert.equal(out.result.kind, 'rejected');
  assert.equal(out.result.error_code, 'PROVIDER_NOT_RECOGNIZED');
  assert.equal(out.warnings.length, 1);
});

test('a 270 prints its inquiry', async () => {
  const r = await run(path(SAMPLE.dependent270));
  assert.equal(r.code, 0);
  assert.equal(JSON.parse(r.stdout).result.dependent.first_name, 'MARY');
});

test('a truncated file exits 1 naming the fault and its position; an unreadable path exits 2', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'x12-cli-'));
  try {
    const file = join(dir, 'cut.271');
    await writeFile(file, sample(SAMPLE.subscriber271).slice(0, 500));
    const r = await run(file);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /not a readable 271: truncated input: the last segment \(DTP\) has no segment terminator "~" \[at segment 15 \(DTP\), offset \d+\]/);
    const missing = await run(join(dir, 'absent.271'));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
