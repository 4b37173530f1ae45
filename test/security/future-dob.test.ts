/**
 * Issue 17 finding 10(b): a date of birth in the future was accepted and sent to payers. It is a
 * 400 INVALID_REQUEST naming member_dob on every check endpoint, judged by the server's clock
 * (the injected `today`, 2026-06-15 in the test server), and today itself is still a valid birth date.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildInquiry } from '../../src/operations/inquiry.ts';
import { ServiceError } from '../../src/domain/errors.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const NPI = '1234567893';
const bodies = (dob: string): [string, Record<string, unknown>][] => [
  [
    '/v1/estimate',
    { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: dob, provider_npi: NPI, provider_session_cost: '15000' },
  ],
  ['/v1/discover', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: dob, zip: '', payer_id: 'SBX-EVERGREEN' }],
  ['/v1/scan', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: dob, zip: '10001' }],
  ['/v1/medicaid', { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: dob, patient_state: 'NY' }],
];

test('a date of birth after today is 400 INVALID_REQUEST naming member_dob, on every check endpoint', async () => {
  for (const dob of ['2026-06-16', '2030-01-01', '9999-12-31']) {
    for (const [path, body] of bodies(dob)) {
      const res = await server.post(path, body);
      assert.equal(res.status, 400, `${path} ${dob}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
      assert.deepEqual(res.body.errors, [{ field: 'member_dob', message: 'must not be after today' }]);
      assert.doesNotMatch(res.body.message, new RegExp(dob), 'the date itself is not echoed');
    }
  }
});

test('a date of birth of today or before is not refused for its date', async () => {
  for (const [path, body] of bodies(TEST_TODAY)) {
    const res = await server.post(path, body);
    assert.ok(!(res.status === 400 && res.body.errors?.some((e: { field: string }) => e.field === 'member_dob')), `${path}: ${JSON.stringify(res.body)}`);
  }
  assert.equal((await server.post(...bodies('1988-03-14')[0]!)).status, 200);
});

test("the rule follows the clock it is given, not the machine's", () => {
  const fields = { payer_id: 'P', first_name: 'A', last_name: 'B', dob: '2001-02-03' };
  assert.throws(
    () => buildInquiry(fields, '2001-02-02'),
    (err) => err instanceof ServiceError && err.code === 'INVALID_REQUEST',
  );
  assert.equal(buildInquiry(fields, '2001-02-03').subscriber.dob, '2001-02-03');
});

test('a batch row with a date of birth after today is refused at upload, naming the row and the field', async () => {
  const [, estimate] = bodies('2030-01-01')[0]!;
  const [, fine] = bodies('1988-03-14')[0]!;
  const res = await server.post('/v1/batches', {
    checks: [
      { endpoint: 'estimate', request: { ...fine, payer_id: 'SBX-EVERGREEN' } },
      { endpoint: 'estimate', request: { ...estimate, payer_id: 'SBX-EVERGREEN' } },
    ],
  });
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'INVALID_REQUEST');
  assert.ok(JSON.stringify(res.body).includes('must not be after today'), JSON.stringify(res.body));
  assert.ok(!JSON.stringify(res.body).includes('2030-01-01'), 'the date itself is not echoed');
});
