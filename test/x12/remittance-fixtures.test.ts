/**
 * The 835 reader held to readings written before it ran (issue 41): the hand-written remittances of
 * test/fixtures/835/ and the public samples of test/fixtures/835-public/, each beside its expected
 * reading (the READMEs there say how the expectations were written and what the JSON asserts).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { readRemittances } from '../../src/x12/remittance/read-835.ts';
import { lineDate, memberShareOf } from '../../src/x12/remittance/shares.ts';
import type { Claim, Remittance, ServiceLine } from '../../src/x12/remittance/types.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Expected {
  covers: string;
  ok: boolean;
  /** segment_id may be left out where the segment's ID is itself garbled. */
  error?: { segment_id?: string; segment_index: number; message: string };
  warnings?: { count: number; match?: string[]; exclude?: string[] };
  remittances?: Json[];
}

/** `actual` holds every key `expected` lists (recursively); arrays have the listed length. */
function holds(actual: unknown, expected: Json, path: string): void {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: expected an array, read ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => holds(actual[i], e, `${path}[${i}]`));
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${path}: expected an object, read ${JSON.stringify(actual)}`);
    for (const [k, e] of Object.entries(expected)) holds((actual as Record<string, unknown>)[k], e, `${path}.${k}`);
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

/** The reading with the two derived keys the JSON may assert: member_share and line_date. */
function withDerived(r: Remittance) {
  const line = (claim: Claim, l: ServiceLine) => ({ ...l, member_share: memberShareOf(l.adjustments), line_date: lineDate(claim, l) });
  return { ...r, claims: r.claims.map((c) => ({ ...c, member_share: memberShareOf(c.adjustments), lines: c.lines.map((l) => line(c, l)) })) };
}

function holdCase(text: string, want: Expected): void {
  const r = readRemittances(text);
  if (!want.ok) {
    assert.equal(r.ok, false, 'the file should fail');
    if (r.ok) return;
    const e = want.error!;
    if (e.segment_id !== undefined) assert.equal(r.error.segment_id, e.segment_id, `error segment id (${r.error.message})`);
    assert.equal(r.error.segment_index, e.segment_index, `error segment index (${r.error.message})`);
    assert.match(r.error.message, new RegExp(e.message));
    return;
  }
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  const w = want.warnings ?? { count: 0 };
  assert.equal(r.warnings.length, w.count, `warnings: ${JSON.stringify(r.warnings)}`);
  for (const p of w.match ?? [])
    assert.ok(
      r.warnings.some((x) => new RegExp(p).test(x)),
      `no warning matches ${p}: ${JSON.stringify(r.warnings)}`,
    );
  for (const s of w.exclude ?? []) assert.ok(!r.warnings.some((x) => x.includes(s)), `a warning names ${s}`);
  if (want.remittances) holds(r.value.map(withDerived), want.remittances, 'remittances');
}

function cases(dir: URL, ext: (name: string) => boolean): { name: string; text: string; want: Expected }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((f) => f.isFile() && ext(f.name))
    .map((f) => {
      const base = f.name.replace(/\.[^.]+$/, '');
      return {
        name: f.name,
        text: readFileSync(new URL(f.name, dir), 'latin1'),
        want: JSON.parse(readFileSync(new URL(`${base}.json`, dir), 'utf8')) as Expected,
      };
    });
}

const handWritten = cases(new URL('../fixtures/835/', import.meta.url), (n) => n.endsWith('.835'));

test('at least 25 hand-written 835s, each with its expected reading', () => {
  assert.ok(handWritten.length >= 25, `${handWritten.length} cases`);
});

for (const c of handWritten) test(`hand-written ${c.name}: ${c.want.covers}`, () => holdCase(c.text, c.want));

const publicDir = new URL('../fixtures/835-public/', import.meta.url);
const publicSamples = readdirSync(publicDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => cases(new URL(`${d.name}/`, publicDir), (n) => !n.endsWith('.json') && n !== 'LICENSE').map((c) => ({ ...c, name: `${d.name}/${c.name}` })));

test('public 835 samples, each with its expected reading', () => {
  assert.ok(publicSamples.length >= 10, `${publicSamples.length} samples`);
});

for (const c of publicSamples) test(`public ${c.name}: ${c.want.covers}`, () => holdCase(c.text, c.want));
