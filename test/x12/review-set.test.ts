/**
 * The review set (test/fixtures/271-review/README.md): 271s written without reading our rules, each
 * with the answer a careful biller derives from the standard. Every unambiguous case is priced as the
 * reviewer expected, through the path /v1/estimate takes when no carve-out administrator can be asked.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assertReviewCase, type ReviewCase } from './review-case.ts';

/** Each set: its folder, how many cases it holds and how many of them are unambiguous (their READMEs). */
const SETS = [
  { dir: '271-review', cases: 40, unambiguous: 38 },
  { dir: '271-review-2', cases: 40, unambiguous: 34 },
  { dir: '271-review-3', cases: 40, unambiguous: 37 },
  { dir: '271-review-4', cases: 40, unambiguous: 38 },
  { dir: '271-review-5', cases: 40, unambiguous: 38 },
  { dir: '271-review-6', cases: 40, unambiguous: 37 },
  { dir: '271-review-7', cases: 46, unambiguous: 43 },
  { dir: '271-review-8', cases: 48, unambiguous: 46 },
  { dir: '271-review-9', cases: 58, unambiguous: 55 },
  { dir: '271-review-10', cases: 49, unambiguous: 49 },
  { dir: '271-review-11', cases: 47, unambiguous: 45 },
  { dir: '271-review-12', cases: 46, unambiguous: 46 },
];

function casesOf(dir: URL) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.271'))
    .sort()
    .map((f) => ({
      name: f.slice(0, -4),
      text: readFileSync(new URL(f, dir), 'latin1'),
      meta: JSON.parse(readFileSync(new URL(`${f.slice(0, -4)}.json`, dir), 'utf8')) as ReviewCase,
    }));
}

const cases = SETS.flatMap((set) => {
  const dir = new URL(`../fixtures/${set.dir}/`, import.meta.url);
  const list = casesOf(dir);
  test(`review set ${set.dir} holds its ${set.cases} cases, ${set.unambiguous} of them unambiguous`, () => {
    assert.equal(list.length, set.cases);
    assert.equal(list.filter((c) => c.meta.expected.unambiguous).length, set.unambiguous);
  });
  return list.map((c) => ({ ...c, name: `${set.dir}/${c.name}` }));
});

/**
 * Unambiguous cases the service still answers otherwise, each with what it answers and why (the set's
 * README, "First run"): held to stay missed, so the commit that fixes one must move it out of the list.
 */
const KNOWN_MISSES = JSON.parse(readFileSync(new URL('./review-known-misses.json', import.meta.url), 'utf8')) as Record<string, string>;

test('every known miss names an unambiguous case of a set', () => {
  const names = new Set(cases.filter((c) => c.meta.expected.unambiguous).map((c) => c.name));
  for (const name of Object.keys(KNOWN_MISSES)) assert.ok(names.has(name), name);
});

for (const { name, text, meta } of cases.filter((c) => c.meta.expected.unambiguous)) {
  const miss = KNOWN_MISSES[name];
  if (miss === undefined) test(`review ${name}`, () => assertReviewCase(name, text, meta));
  else
    test(`review ${name}: a known miss (${miss})`, () => {
      assert.throws(
        () => assertReviewCase(name, text, meta),
        assert.AssertionError,
        `${name} is answered as expected now: take it out of review-known-misses.json`,
      );
    });
}
