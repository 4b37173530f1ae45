/** The files the README and docs tell a newcomer to use exist, and do what the docs say. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runNormalize } from '../../src/cli/normalize.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', 'docs/batch.md', 'docs/payer-directory.md', 'docs/operating.md', 'docs/remittances.md'];

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
