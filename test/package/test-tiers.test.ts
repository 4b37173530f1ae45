/** Every test file `npm test` runs belongs to exactly one tier (scripts/test-tiers.mjs), so none is forgotten. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
// @ts-expect-error: a plain ES module script, without declarations
import { assign, FILES, FOLDERS, testFiles, TIERS } from '../../scripts/test-tiers.mjs';

const { tiers, problems } = assign() as { tiers: Map<string, string>; problems: string[] };

test('each test file has one tier, and the tier tables name no file or folder that is gone', () => {
  assert.deepEqual(problems, []);
  assert.deepEqual([...tiers.keys()], testFiles());
});

test('the three tiers together are the whole suite, with no file in two', () => {
  const files = testFiles() as string[];
  const byTier = (TIERS as readonly string[]).map((tier) => files.filter((f) => tiers.get(f) === tier));
  assert.equal(byTier.flat().length, files.length);
  assert.equal(new Set(byTier.flat()).size, files.length);
  for (const of of byTier) assert.ok(of.length > 0);
});

test('the browser tier holds every suite that drives Chromium; the unit tier none that starts the service', async () => {
  const { readFileSync } = await import('node:fs');
  for (const file of testFiles() as string[]) {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    if (/^import \{[^}]*\bneedsChromium\b[^}]*\} from '\.\.\/helpers\/needs\.ts';$/m.test(text)) assert.equal(tiers.get(file), 'browser', file);
    if (tiers.get(file) === 'unit') assert.doesNotMatch(text, /startTestServer|startProduction|startServer\(|child_process/, `${file} is in the unit tier`);
  }
  assert.equal(typeof FILES, 'object');
  assert.equal(typeof FOLDERS, 'object');
});
