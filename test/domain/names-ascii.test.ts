/** transliterate's printable-ASCII shortcut gives what the full Unicode path gives. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { transliterate } from '../../src/domain/names.ts';

/** The full path without the shortcut: NFKC, upper case, NFD, marks removed (ASCII has no spelled-out letters). */
const fullPath = (value: string) => value.normalize('NFKC').toUpperCase().normalize('NFD').replace(/\p{M}/gu, '');

test('printable ASCII: the shortcut and the full path agree', () => {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
  fc.assert(fc.property(printable, (s) => transliterate(s) === fullPath(s)));
});

test('outside printable ASCII the full path still runs', () => {
  assert.equal(transliterate('José Ærø'), 'JOSE AERO');
  assert.equal(transliterate('ﬁne\tline'), 'FINE\tLINE');
});
