/** The demographic mismatch alert compares names as a 270 writes them (src/operations/present.ts; docs/interface.md). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Person } from '../../src/domain/coverage.ts';
import { demographicDifferences } from '../../src/operations/present.ts';

const payer = { first_name: 'LENA', last_name: 'GRUNEWALD-ASANTE', dob: '1990-04-02' } as Person;

test('a name differing only by the diacritics a payer or a vendor reader removed is no mismatch (vendor-review-7 11)', () => {
  assert.deepEqual(demographicDifferences({ first_name: 'Lena', last_name: 'Grünewald-Asante', dob: '1990-04-02' }, payer), {});
  assert.deepEqual(demographicDifferences({ first_name: ' lena ', last_name: 'grunewald-asante' }, payer), {});
});

test('another name or date of birth still is', () => {
  assert.deepEqual(demographicDifferences({ first_name: 'Lina', last_name: 'Grünewald', dob: '1990-04-03' }, payer), {
    first_name: 'LENA',
    last_name: 'GRUNEWALD-ASANTE',
    dob: '1990-04-02',
  });
});
