/**
 * "Our fault is not the payer's": a vendor refusing OUR request (validation, missing fields, a 270 it
 * cannot parse) is RequestRefused, which the caller gets as 400 INVALID_REQUEST naming what the route
 * needs, and which neither trips the breaker nor is retried.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { payerErrorToServiceError } from '../../src/operations/ask-payer.ts';
import { PayerError } from '../../src/payers/network.ts';
import { RequestRefused, RouteRefused, isBreakerFailure, isRetryable } from '../../src/payers/production/errors.ts';

test('a refused request is not a breaker failure and is not retried; a payer failure still is', () => {
  const refused = new RequestRefused('availity', 'HTTP 400 validation', ['member_first_name']);
  assert.equal(refused instanceof PayerError, true);
  assert.equal(refused.kind, 'refused');
  assert.equal(isBreakerFailure(refused), false);
  assert.equal(isRetryable(refused), false);
  assert.equal(isBreakerFailure(new PayerError('failure', 'availity', 'HTTP 500')), true);
  assert.equal(isBreakerFailure(new RouteRefused('availity', 'HTTP 403')), false);
});

test('it answers 400 INVALID_REQUEST listing the fields by our API names', () => {
  const e = payerErrorToServiceError(new RequestRefused('availity', 'HTTP 400 validation', ['member_first_name', 'member_last_name']));
  assert.equal(e.code, 'INVALID_REQUEST');
  assert.equal(e.status, 400);
  assert.equal(e.message, "This payer's route needs member_first_name and member_last_name");
  assert.deepEqual(
    e.details.errors?.map((f) => f.field),
    ['member_first_name', 'member_last_name'],
  );
  assert.equal(e.details.reason, 'refused: HTTP 400 validation');
});

test('without fields it is still the caller’s 400, never 502', () => {
  const e = payerErrorToServiceError(new RequestRefused('stedi', '270 not parsed (HTTP 400)'));
  assert.equal(e.status, 400);
  assert.equal(e.details.errors, undefined);
});

test('the caller-facing message is made of the field names only, whatever the reason says', () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.subarray(['member_id', 'member_first_name', 'member_last_name', 'member_dob', 'provider_npi', 'zip'], { minLength: 1 }),
      (reason, fields) => {
        const e = payerErrorToServiceError(new RequestRefused('c', reason, fields));
        const named = e.message.replace("This payer's route needs ", '').split(/, | and /);
        assert.deepEqual(named, fields);
      },
    ),
  );
});
