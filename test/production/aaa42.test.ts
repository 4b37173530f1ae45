/** answersAaa42 finds a transient AAA (42 or 80) anywhere in an answer, and nothing in answers without one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { answersAaa42 } from '../../src/payers/production/aaa42.ts';
import { build271 } from '../../src/x12/index.ts';

const inquiry: Inquiry = {
  trace_number: 'T1',
  payer: { id: 'SBX-HARBOR', name: 'HARBOR' },
  provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'CLINIC' },
  subscriber: { member_id: 'M1', first_name: 'PAT', last_name: 'LEE', dob: '1980-01-01', zip: null },
  dependent: null,
  service_types: ['MH'],
  date: '2026-06-15',
};
const reject = (reason_code: string, level: 'payer' | 'subscriber') => build271(inquiry, { kind: 'reject', level, reason_code, followup: 'R' });

test('a transient AAA at any level is found; other reasons and no AAA are not', () => {
  for (const level of ['payer', 'subscriber'] as const) {
    assert.equal(answersAaa42(reject('42', level)), true, `42 at ${level}`);
    assert.equal(answersAaa42(reject('80', level)), true, `80 at ${level}`);
    assert.equal(answersAaa42(reject('75', level)), false, `75 at ${level}`);
  }
  assert.equal(answersAaa42(reject('72', 'subscriber').replaceAll('~\n', '~')), false, 'no line breaks');
  assert.equal(answersAaa42(reject('42', 'subscriber').replaceAll('~\n', '~')), true, 'no line breaks');
  assert.equal(answersAaa42('not x12'), false);
});
