/**
 * stedi-read.ts text(): a Stedi value as an element of the 271 we write for our own reader. Its fast
 * path (a value that needs no rewriting comes back as it is) must agree with the rule it shortcuts:
 * delimiters and control characters become spaces, whitespace runs one space, trimmed, cut to length.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { text } from '../../src/payers/vendors/stedi-read.ts';
import { DEFAULT_DELIMITERS, type Delimiters } from '../../src/x12/delimiters.ts';

function rule(value: string | null | undefined, d: Delimiters, max: number): string {
  if (!value) return '';
  let out = '';
  for (const ch of value) out += ch === d.element || ch === d.component || ch === d.segment || ch === d.repetition || ch < ' ' ? ' ' : ch;
  return out.replace(/\s+/g, ' ').trim().slice(0, max);
}

const pieces = fc.constantFrom(
  'A',
  'b',
  '9',
  ' ',
  '  ',
  '*',
  ':',
  '~',
  '^',
  '|',
  '\t',
  '\n',
  '\u0001',
  '\u007f',
  '\u00a0',
  '\u2003',
  'É',
  '😀',
  '\ufeff',
  '-',
  '.',
);
const value = fc.oneof(
  fc.array(pieces, { maxLength: 12 }).map((xs) => xs.join('')),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);
const delimiters = fc.constantFrom<Delimiters>(
  DEFAULT_DELIMITERS,
  { element: '|', component: '>', segment: '\n', repetition: null },
  { element: ' ', component: ':', segment: '~', repetition: '^' },
);

test('text() answers as its rule on any value, delimiters and length', () => {
  fc.assert(
    fc.property(value, delimiters, fc.integer({ min: 1, max: 40 }), (v, d, max) => {
      assert.equal(text(v, d, max), rule(v, d, max));
    }),
    { numRuns: 3000 },
  );
  assert.equal(text('MENTAL HEALTH', DEFAULT_DELIMITERS, 5), 'MENTA');
  assert.equal(text(' A*B  C ', DEFAULT_DELIMITERS, 50), 'A B C');
  assert.equal(text(null, DEFAULT_DELIMITERS, 5), '');
});
