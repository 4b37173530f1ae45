/** payer_errors: AAA segments and clearinghouse JSON errors, in our words, with the loop and a category from one table. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stediPayerErrors } from '../../src/payers/vendors/stedi.ts';
import { aaaPayerErrors, payerError, payerErrorCategory } from '../../src/x12/payer-errors.ts';
import { body271, interchange } from '../x12/x12-fixtures.ts';

test('each AAA is listed with its loop: 2100C for the subscriber, 2110C beside a benefit', () => {
  const x12 = interchange('271', body271(['AAA*Y**72*C', 'EB*1**30', 'AAA*N**62*C']));
  const list = aaaPayerErrors(x12);
  assert.deepEqual(
    list.map((e) => [e.code, e.loop, e.category, e.followup]),
    [
      ['72', '2100C', 'member', 'Please correct and resubmit'],
      ['62', '2110C', 'input', 'Please correct and resubmit'],
    ],
  );
  assert.equal(list[0]!.description, 'Invalid/missing subscriber/insured ID');
});

test('no AAA, no list; text that is not X12 neither', () => {
  assert.deepEqual(aaaPayerErrors(interchange('271', body271(['EB*1**30']))), []);
  assert.deepEqual(aaaPayerErrors('AAA but not X12'), []);
});

test('categories: member, provider, route, input, else payer', () => {
  assert.deepEqual(['75', '51', '79', '42', '57', '04', 'ZZ'].map(payerErrorCategory), ['member', 'provider', 'route', 'route', 'input', 'payer', 'payer']);
});

test('a code that is not a code is not echoed (it could hold anything)', () => {
  const e = payerError('Jane Doe 1990', 'C', 'somewhere');
  assert.equal(e.code, '');
  assert.equal(e.loop, null);
  assert.equal(e.description, 'Unlisted reject reason');
});

test("Stedi's JSON errors: the code and the spelled-out follow-up are ours again, its prose is dropped", () => {
  const list = stediPayerErrors({
    errors: [
      {
        code: '79',
        description: 'Invalid Participant Identification for JANE DOE',
        followupAction: 'Please Correct and Resubmit',
        location: 'Loop 2100A',
        possibleResolutions: 'call us',
      },
    ],
  });
  assert.deepEqual(list, [
    { code: '79', description: 'Invalid participant identification', followup: 'Please correct and resubmit', loop: '2100A', category: 'route' },
  ]);
  assert.deepEqual(stediPayerErrors({ message: 'no errors array' }), []);
});
