/**
 * Issue 23: CI went green with the PostgreSQL, Redis and browser suites skipped. Under CI=true a
 * suite whose service is missing now fails, naming it (test/helpers/needs.ts); elsewhere it skips.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NEEDS = pathToFileURL(join(ROOT, 'test/helpers/needs.ts')).href;

/** Runs a suite that needs PostgreSQL, Redis and a browser on a machine that has none of them. */
async function runSuite(t: { after(fn: () => void): void }, ci: boolean): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-ci-skips-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'suite.test.ts');
  writeFileSync(
    file,
    [
      `import { test } from 'node:test';`,
      `import { needsChromium, needsPostgres, needsRedis } from ${JSON.stringify(NEEDS)};`,
      `test('a PostgreSQL suite', { skip: needsPostgres() }, () => {});`,
      `test('a Redis suite', { skip: needsRedis() }, () => {});`,
      `test('a browser suite', { skip: needsChromium('/nonexistent/chromium') }, () => {});`,
    ].join('\n'),
  );
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_TEST_CONTEXT', 'CI']) delete env[name];
  if (ci) env.CI = 'true';
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, out };
}

test('outside CI, a suite without its service skips with the reason', async (t) => {
  const { code, out } = await runSuite(t, false);
  assert.equal(code, 0, out);
  assert.match(out, /# skipped 3/);
  assert.match(out, /# SKIP DATABASE_URL not set/);
});

test('under CI=true, each missing service is a failing test that names it', async (t) => {
  const { code, out } = await runSuite(t, true);
  assert.notEqual(code, 0, out);
  assert.match(out, /# fail 3/);
  for (const what of ['DATABASE_URL not set', 'REDIS_URL not set', '/nonexistent/chromium is not installed'])
    assert.match(out, new RegExp(`not ok \\d+ - CI runs every suite: ${what}`));
});

test(".ci/run installs Debian's chromium, postgresql and redis-server when missing, and refuses a run with skipped tests", () => {
  const script = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  for (const pkg of ['chromium', 'postgresql', 'redis-server']) assert.match(script, new RegExp(`missing\\+=\\(${pkg}\\)`));
  assert.match(script, /apt-get install -y -qq "\$\{missing\[@\]\}"/);
  assert.match(script, /export CI=true/);
  assert.match(script, /skipped \[1-9\]/);
});
