/**
 * Public 271s, set 2 (test/fixtures/x12-samples-2/README.md): 271 files written outside this project,
 * copied from permissively licensed public repositories, each with the answer a careful biller derives
 * from it (written before the service was run on them). Every unambiguous case is priced as expected,
 * through the path /v1/estimate takes when no carve-out administrator can be asked.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assertReviewCase, type ReviewCase } from './review-case.ts';

const CASES = 16;
const UNAMBIGUOUS = 14;

interface PublicCase extends ReviewCase {
  source: { repo: string; path: string; commit: string; license: string };
}

const dir = new URL('../fixtures/x12-samples-2/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.271'))
  .sort()
  .map((f) => ({
    name: f.slice(0, -4),
    text: readFileSync(new URL(f, dir), 'latin1'),
    meta: JSON.parse(readFileSync(new URL(`${f.slice(0, -4)}.json`, dir), 'utf8')) as PublicCase,
  }));

test(`public set 2 holds its ${CASES} cases, ${UNAMBIGUOUS} of them unambiguous, each with its source`, () => {
  assert.equal(cases.length, CASES);
  assert.equal(cases.filter((c) => c.meta.expected.unambiguous).length, UNAMBIGUOUS);
  for (const { name, meta } of cases) {
    assert.ok(meta.source.repo && meta.source.path && /^[0-9a-f]{40}$/.test(meta.source.commit) && meta.source.license, `${name}: source`);
  }
});

for (const { name, text, meta } of cases.filter((c) => c.meta.expected.unambiguous)) {
  test(`public 271 ${name}`, () => assertReviewCase(name, text, meta));
}
