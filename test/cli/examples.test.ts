/** The files the README and docs tell a newcomer to use exist, and do what the docs say. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runNormalize } from '../../src/cli/normalize.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', 'docs/batch.md', 'docs/payer-directory.md', 'docs/operating.md'];
const ALL_DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('every doc runs the command from a checkout as ./bin/coverage.js (instant), never npx coverage (a registry lookup first)', () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
  assert.equal(pkg.bin.coverage, 'bin/coverage.js');
  assert.equal(pkg.scripts.coverage, 'node bin/coverage.js', 'npm run coverage -- ... (Windows) runs the same script');
  assert.ok((statSync(`${ROOT}bin/coverage.js`).mode & 0o111) !== 0, 'bin/coverage.js is executable');
  assert.match(readFileSync(`${ROOT}bin/coverage.js`, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const commands = new Set(['help', 'serve', 'normalize', 'batch', 'keys', 'usage', 'users', 'simulate-payer', 'payers', 'providers', 'check']);
  for (const doc of ALL_DOCS) {
    const text = readFileSync(`${ROOT}${doc}`, 'utf8');
    // "npx coverage" is named only to say why not: never followed by a command.
    for (const [, command] of text.matchAll(/npx coverage ([a-z-]+)/g)) assert.ok(!commands.has(command!), `${doc} runs npx coverage ${command}`);
    for (const [, command] of text.matchAll(/\.\/bin\/coverage\.js ([a-z-]+)/g))
      assert.ok(commands.has(command!), `${doc}: ./bin/coverage.js ${command} is no command`);
  }
});

test('every examples/ file the docs name is shipped, and no doc posts a file that is not', () => {
  const named = new Set<string>();
  for (const doc of DOCS) {
    const text = readFileSync(`${ROOT}${doc}`, 'utf8');
    for (const [, path] of text.matchAll(/(?:\.\.\/)?(examples\/[\w.-]+)/g)) named.add(path!);
    // curl's @file must be a path the reader has.
    for (const [, file] of text.matchAll(/--data-binary @(\S+)/g)) assert.ok(file!.startsWith('examples/'), `${doc} posts @${file}`);
  }
  assert.ok(named.has('examples/schedule.csv') && named.has('examples/sample-271.x12'), [...named].join(', '));
  for (const path of named) assert.ok(existsSync(`${ROOT}${path}`), `${path} is named in the docs but missing`);
});

test("coverage normalize examples/sample-271.x12 prints the sample member's active plan", async () => {
  let stdout = '';
  const code = await runNormalize(`${ROOT}examples/sample-271.x12`, { stdout: (s) => (stdout += s), stderr: () => undefined });
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  assert.equal(out.result.kind, 'coverage');
  assert.equal(out.result.coverage.payer_id, 'SBX-EVERGREEN');
  assert.equal(out.result.coverage.member.member_id, '10010MHNA');
  assert.equal(out.result.coverage.coverage_status, 'active');
  assert.deepEqual(out.warnings, []);
});
