import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  build270,
  build271,
  build999,
  detectTransactionSet,
  normalize271,
  parse270,
  parse999,
  readInterchange,
  tokenize,
  type ParseResult,
} from '../../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from './coverage-arbitrary.ts';
import { SAMPLE, sample } from './x12-fixtures.ts';

const SAMPLES = Object.values(SAMPLE).map(sample);

const documents: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SAMPLES),
  fc.tuple(coverageArbitrary, inquiryArbitrary).map(([coverage, inquiry]) => build271(inquiry, { kind: 'coverage', coverage })),
  inquiryArbitrary.map((inquiry) => build270(inquiry)),
  inquiryArbitrary.map((inquiry) => build999(build270(inquiry), [{ segment_id: 'NM1', position: 5, code: '8', description: '' }])),
);

/** A result is either ok with a value, or an error with a message that is not a caught exception. */
function assertSane(r: ParseResult<unknown>): void {
  assert.equal(typeof r, 'object');
  if (r.ok) {
    assert.ok(r.value !== undefined);
    assert.ok(Array.isArray(r.warnings) && r.warnings.every((w) => typeof w === 'string'));
  } else {
    assert.equal(typeof r.error.message, 'string');
    assert.ok(r.error.message.length > 0);
    assert.ok(!r.error.message.startsWith('internal error'), r.error.message);
  }
}

function readAll(text: string): ParseResult<unknown>[] {
  const kind = detectTransactionSet(text);
  assert.ok(kind === null || kind === '270' || kind === '271' || kind === '999');
  const results = [tokenize(text), readInterchange(text), normalize271(text), parse270(text), parse999(text)];
  for (const r of results) assertSane(r);
  return results;
}

const segmentsOf = (text: string) =>
  text
    .split('~')
    .map((s) => s.trim())
    .filter((s) => s !== '');
const joinSegments = (segs: string[]) => segs.map((s) => `${s}~\n`).join('');

test('every truncation of a document inside its transaction sets is an error with a position; after them, a warning', () => {
  fc.assert(
    fc.property(documents, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (doc, at) => {
      const full = doc.trimEnd();
      const cut = full.slice(0, Math.floor(at * full.length));
      // The content is whole once the last SE is: a missing GE/IEA is then only a warning (docs/estimates.md section 1.4).
      const lastSe = full.lastIndexOf('SE*');
      const contentEnd = full.indexOf('~', lastSe) + 1;
      const results = readAll(cut).slice(1);
      if (cut.length >= contentEnd) {
        const envelope = results[0]!;
        if (envelope.ok) assert.ok(envelope.warnings.length > 0, 'a truncated trailer is reported');
        else assert.ok(envelope.error.segment_index !== null || envelope.error.offset !== null, envelope.error.message);
        return;
      }
      // The tokenizer alone accepts a cut right after a terminator; the envelope is what notices.
      for (const r of results) {
        assert.equal(r.ok, false);
        if (!r.ok) assert.ok(r.error.segment_index !== null || r.error.offset !== null, r.error.message);
      }
    }),
    { numRuns: 300 },
  );
});

test('reordered segments never throw', () => {
  fc.assert(
    fc.property(
      documents.chain((doc) => {
        const segs = segmentsOf(doc);
        return fc.shuffledSubarray(segs, { minLength: segs.length, maxLength: segs.length });
      }),
      (segs) => {
        readAll(joinSegments(segs));
        readAll(joinSegments(segs.filter((s) => !s.startsWith('ISA')).concat(segs.filter((s) => s.startsWith('ISA')))));
      },
    ),
    { numRuns: 150 },
  );
});

test('deleted and duplicated segments never throw', () => {
  fc.assert(
    fc.property(documents, fc.array(fc.tuple(fc.boolean(), fc.nat()), { minLength: 1, maxLength: 6 }), (doc, ops) => {
      const segs = segmentsOf(doc);
      for (const [duplicate, n] of ops) {
        const i = n % segs.length;
        if (duplicate) segs.splice(i, 0, segs[i]!);
        else if (segs.length > 1) segs.splice(i, 1);
      }
      readAll(joinSegments(segs));
    }),
    { numRuns: 300 },
  );
});

const EDIT_TEXT = [
  '*',
  '~',
  '^',
  ':',
  '\n',
  '\r',
  ' ',
  '|',
  'A',
  '0',
  '9',
  'é',
  '\u0000',
  'ISA*',
  'HL*9*8*22*1~',
  'EB*',
  'LS*2120~',
  'LE*2120~',
  'AAA*Y**',
  'DTP*348*RD8*',
];

test('random character edits never throw', () => {
  fc.assert(
    fc.property(
      documents,
      fc.array(fc.tuple(fc.constantFrom('insert', 'delete', 'replace'), fc.nat(), fc.constantFrom(...EDIT_TEXT)), { minLength: 1, maxLength: 8 }),
      (doc, edits) => {
        let text = doc;
        for (const [op, n, s] of edits) {
          const i = text.length === 0 ? 0 : n % text.length;
          if (op === 'insert') text = text.slice(0, i) + s + text.slice(i);
          else if (op === 'delete') text = text.slice(0, i) + text.slice(i + 1 + (n % 5));
          else text = text.slice(0, i) + s + text.slice(i + s.length);
        }
        readAll(text);
      },
    ),
    { numRuns: 400 },
  );
});

test('random strings, with and without an ISA in front, never throw', () => {
  const isa = SAMPLES[0]!.slice(0, 107);
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean(), (s, withIsa) => {
      readAll(withIsa ? isa + s : s);
    }),
    { numRuns: 400 },
  );
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...segmentsOf(SAMPLES[1]!), 'EB*B**MH***27*abc', 'DTP*346*RD8*2025', 'HL*1*1*22*1', 'III*ZZ*02'), { maxLength: 40 }),
      (segs) => {
        readAll(joinSegments([segmentsOf(SAMPLES[1]!)[0]!, ...segs]));
      },
    ),
    { numRuns: 300 },
  );
});

test('after all the malformed input, a clean sample still reads the same (no shared state was corrupted)', () => {
  const before = normalize271(SAMPLES[1]!);
  for (let i = 0; i < 50; i++) readAll(SAMPLES[1]!.replace(/~/g, i % 2 ? '~\nLS*2120~' : '~III*ZZ*02~'));
  assert.deepEqual(normalize271(SAMPLES[1]!), before);
  assert.ok(before.ok && before.value.kind === 'coverage' && before.value.coverage.in_network?.copayment === 1000);
});
