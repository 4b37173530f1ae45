/**
 * Names as people type them reach the 270 safely: a generational suffix typed in the last-name
 * cell ("Bell, Jr.") goes to NM107 (Name Suffix), a comma elsewhere stays, a typographic
 * apostrophe becomes the X12 one, and no delimiter from a name can break the document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { splitSuffix, x12Name } from '../../src/domain/names.ts';
import { build270 } from '../../src/x12/index.ts';

const inquiry = (last_name: string, first_name = 'MARCUS'): Inquiry => ({
  trace_number: 'T1',
  payer: { id: '60054', name: 'AETNA' },
  provider: { npi: '1999999984', first_name: 'ANNA', last_name: 'FREUD', organization_name: null },
  subscriber: { member_id: 'AETNA12345', first_name, last_name, dob: '1979-11-02', zip: null },
  dependent: null,
  service_types: ['MH'],
  date: '2026-12-03',
});
const subscriber = (x12: string) =>
  x12
    .split('~')
    .map((s) => s.trim())
    .find((s) => s.startsWith('NM1*IL'));

test('a suffix typed with the last name is sent in NM107', () => {
  assert.equal(subscriber(build270(inquiry('Bell, Jr.'))), 'NM1*IL*1*BELL*MARCUS***JR*MI*AETNA12345');
  assert.equal(subscriber(build270(inquiry('Walsh III'))), 'NM1*IL*1*WALSH*MARCUS***III*MI*AETNA12345');
  assert.equal(subscriber(build270(inquiry('O’Brien', 'D’Arcy'))), "NM1*IL*1*O'BRIEN*D'ARCY****MI*AETNA12345");
  assert.equal(subscriber(build270(inquiry('Smith-Jones'))), 'NM1*IL*1*SMITH-JONES*MARCUS****MI*AETNA12345');
});

test('a last name that is only a suffix-like word, or has one inside it, is left whole', () => {
  assert.deepEqual(splitSuffix('IV'), { last: 'IV', suffix: '' });
  assert.deepEqual(splitSuffix('JRAVES'), { last: 'JRAVES', suffix: '' });
  assert.deepEqual(splitSuffix('DE LA CRUZ, SR'), { last: 'DE LA CRUZ', suffix: 'SR' });
});

test('the names the request schemas accept are the names x12Name writes', () => {
  assert.equal(x12Name('Bell, Jr.'), 'BELL, JR.');
  assert.equal(x12Name('José'), 'JOSE');
  assert.equal(x12Name('李'), null);
  assert.equal(x12Name('Bell*Jr'), null, 'an X12 delimiter is not a name character');
});
