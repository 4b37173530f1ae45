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
import { AvailitySimulator } from '../../src/payers/simulator/vendors/availity.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

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

test('over the wire: Availity refusing a request without names is 400 naming the fields; not retried, no failover, no breaker', async () => {
  const availity = await AvailitySimulator.start({ clock: onDay(TEST_TODAY), pendingPolls: 0 });
  const stedi = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
  const directory = vendorDirectory([
    { name: 'availity', sim: availity },
    { name: 'stedi', sim: stedi },
  ]);
  for (const c of directory.connections!) {
    c.retry = { max_attempts: 2, initial_delay_ms: 1 };
    c.circuit_breaker = { consecutive_failures: 2, half_open_after_ms: 60_000 };
    c.poll_initial_ms = 20;
  }
  const server = await serveDirectory(directory);
  try {
    const nameless = estimateFor('SBX-EVERGREEN', '10010MHNA', '', '', '1988-03-14');
    for (let i = 0; i < 3; i++) {
      const res = await server.post('/v1/estimate', nameless);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
      assert.equal(res.body.message, "This payer's route needs member_first_name and member_last_name");
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        ['member_first_name', 'member_last_name'],
      );
    }
    assert.equal(availity.stats.requests, 3, 'each refused once, never retried');
    assert.equal(stedi.stats.requests, 0, 'the next route would get the same request: not asked');
    const named = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.equal(named.body.route, 'availity', 'three refusals did not open the breaker');
  } finally {
    await server.close();
    await Promise.all([availity.close(), stedi.close()]);
  }
});
