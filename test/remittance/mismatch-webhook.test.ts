/**
 * The estimate.mismatch webhook event (docs/remittances.md 'Webhook event'): one per remittance line
 * collected too little or too much, to the owner's webhooks that ask for it, signed per Standard
 * Webhooks (verified with the standardwebhooks package), without member data.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { eventChecker, startReceiver, verifySignature, type Receiver } from '../monitoring/receiver.ts';
import { eventually } from '../helpers/eventually.ts';

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

let server: TestServer;
let receiver: Receiver;
let otherKey: string;
before(async () => {
  server = await startTestServer({ env: { COVERAGE_WEBHOOK_ALLOW_INSECURE: '1', COVERAGE_WEBHOOK_POLL_MS: '50' } });
  receiver = await startReceiver();
  otherKey = (await server.runtime.keys.create({ name: 'another practice', env: 'sandbox' })).secret;
});
after(async () => {
  await server.close();
  await receiver.close();
});

test('a line under-collected sends one signed estimate.mismatch to the webhook that asked, ids and amounts only', async () => {
  const mismatch = await server.post('/v1/webhooks', { url: `${receiver.url}?mismatch`, events: ['estimate.mismatch'] });
  assert.equal(mismatch.status, 201, JSON.stringify(mismatch.body));
  const batches = await server.post('/v1/webhooks', { url: `${receiver.url}?batches`, events: ['batch.completed'] });
  // Another owner's webhook asking for the event hears nothing of this owner's remittances.
  const elsewhere = await server.post('/v1/webhooks', { url: `${receiver.url}?elsewhere`, events: ['estimate.mismatch'] }, { apikey: otherKey });
  assert.equal(elsewhere.status, 201);

  const est = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' });
  assert.equal(est.status, 200);
  assert.equal(est.body.copayment, 3000);
  const file = remittance835(est.body.payer_id, [
    claimOf('PCN-AVERY-0077', AVERY, [serviceLine('90837', 15000, 12000, [PR('3', 3000)], 15000)]),
    claimOf('PCN-AVERY-0078', AVERY, [serviceLine('90837', 15000, 11000, [PR('3', 4000)], 15000)]),
  ]);
  const r = await server.post('/v1/remittances', file, { 'content-type': 'application/edi-x12' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(
    r.body.lines.map((l: { comparison: { verdict: string } }) => l.comparison.verdict),
    ['exact', 'under_collected'],
  );

  const got = await eventually('the estimate.mismatch delivery', () => receiver.received.find((d) => JSON.parse(d.body).type === 'estimate.mismatch'));
  // Verified by the specification's own library, and by hand.
  const event = new Webhook(mismatch.body.secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
  assert.ok(verifySignature(mismatch.body.secret, got));
  (await eventChecker(server.url))(got.body);
  assert.equal(event.type, 'estimate.mismatch');
  assert.deepEqual(event.data, {
    remittance_id: r.body.id,
    line: 2,
    estimate_id: r.body.lines[1].estimate_id,
    payer_id: est.body.payer_id,
    group_id: est.body.group_id,
    benefit_structure: est.body.benefit_structure,
    verdict: 'under_collected',
    difference: 1000,
    member_share: 4000,
    estimated_member: 3000,
    payer_paid: 11000,
    estimated_payer: 12000,
    cause: 'copay differs',
    causes: ['copay differs'],
    received_at: r.body.created_at,
  });
  // No member data: no name, member ID, date of service nor the claim's numbers.
  assert.doesNotMatch(got.body, /10010MHNA|avery|walsh|PCN-AVERY|1988-03-14/i);
  assert.ok(!got.body.includes(TEST_TODAY), 'no date of service');

  // Everything queued has gone out: exactly one mismatch, to the one webhook that asked for it.
  await server.runtime.monitoring.idle();
  const deliveries = await server.runtime.db.kysely.selectFrom('webhook_deliveries').select(['webhook_id', 'event_type', 'state']).execute();
  assert.deepEqual(deliveries, [{ webhook_id: mismatch.body.id, event_type: 'estimate.mismatch', state: 'delivered' }]);
  assert.equal(receiver.received.length, 1);

  // The same file again is another remittance: its own event, under its own id.
  const again = await server.post('/v1/remittances', file, { 'content-type': 'application/edi-x12' });
  await eventually('the second delivery', () => receiver.received.length === 2);
  assert.equal(JSON.parse(receiver.received[1]!.body).data.remittance_id, again.body.id);
  for (const hook of [mismatch, batches]) await server.delete(`/v1/webhooks/${hook.body.id}`);
  await server.delete(`/v1/webhooks/${elsewhere.body.id}`, { apikey: otherKey });
});
