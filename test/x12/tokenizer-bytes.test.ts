/**
 * The tokenizer scans an all-ASCII document as bytes and any other by charCodeAt (src/x12/tokenizer.ts).
 * Both readings must agree: the same document with one ISA02 space made non-ASCII (same length, same
 * offsets) goes the other way and must give the same segments, element for element.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { build271, tokenize, type Segment } from '../../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from './coverage-arbitrary.ts';

const built = fc.tuple(coverageArbitrary, inquiryArbitrary).map(([coverage, inquiry]) => build271(inquiry, { kind: 'coverage', coverage }));

/** Edits that keep the ISA: segments dropped or doubled, line breaks inside a segment, elements added or cut. */
const edited = fc.tuple(built, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 4 })), { maxLength: 4 })).map(([doc, edits]) => {
  const segs = doc.split('~');
  for (const [at, pos, kind] of edits) {
    const i = 1 + (at % Math.max(1, segs.length - 2));
    const s = segs[i];
    if (s === undefined) continue;
    const p = pos % (s.length + 1);
    if (kind === 0) segs.splice(i, 1);
    else if (kind === 1) segs.splice(i, 0, s);
    else if (kind === 2) segs[i] = `${s.slice(0, p)}\r\n${s.slice(p)}`;
    else if (kind === 3) segs[i] = `${s.slice(0, p)}*${s.slice(p)}`;
    else segs[i] = s.slice(0, p);
  }
  return segs.join('~');
});

const shape = (segs: Segment[], skipIsa02: boolean) =>
  segs.map((s, k) => [s.id, s.index, s.offset, s.count, s.elements.map((e, n) => (skipIsa02 && k === 0 && n === 2 ? '' : e))]);

test('an ASCII document and the same document with a non-ASCII ISA02 character tokenize alike', () => {
  fc.assert(
    fc.property(edited, fc.constantFrom('é', 'Ī', 'ž', '€', '\u00a0'), (doc, ch) => {
      const at = doc.indexOf('*', 4) + 1; // ISA02: ten spaces in a built 271
      assert.equal(doc[at], ' ');
      const other = `${doc.slice(0, at)}${ch}${doc.slice(at + 1)}`;
      const a = tokenize(doc);
      const b = tokenize(other);
      assert.equal(a.ok, b.ok);
      if (!a.ok || !b.ok) {
        assert.deepEqual(a, b);
        return;
      }
      assert.deepEqual(a.warnings, b.warnings);
      assert.deepEqual(shape(a.value.segments, true), shape(b.value.segments, true));
      assert.equal(b.value.segments[0]!.elements[2], `${ch}         `);
    }),
    { numRuns: 300 },
  );
});

test('a non-ASCII character whose low byte is a delimiter stays inside its element', () => {
  const doc = build271(fc.sample(inquiryArbitrary, { seed: 1, numRuns: 1 })[0]!, {
    kind: 'coverage',
    coverage: fc.sample(coverageArbitrary, { seed: 1, numRuns: 1 })[0]!,
  });
  // U+012A and U+017E have the low bytes of "*" and "~".
  const text = doc.replace('BHT*', 'BHT*\u012a\u017e');
  const t = tokenize(text);
  assert.ok(t.ok);
  const bht = t.value.segments.find((s) => s.id === 'BHT')!;
  assert.ok(bht.element(1).startsWith('\u012a\u017e'));
  const plain = tokenize(doc);
  assert.ok(plain.ok);
  assert.equal(t.value.segments.length, plain.value.segments.length);
});
