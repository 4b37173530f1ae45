/**
 * PLAN_RESET_SOON says when (issue 40, item 7): in December every calendar-year plan carries it, and
 * the README's "no alerts" member did too without saying why. The alert names the reset day.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ today: '2026-12-06' });
});
after(() => server.close());

const reset = (body: { alerts: { code: string; message: string }[] }) => body.alerts.filter((a) => a.code === 'PLAN_RESET_SOON');

test("a calendar-year plan in December: the reset day and what starts over; a renewal's changes beside its day", async () => {
  const avery = await server.post('/v1/estimate', { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' });
  assert.equal(avery.status, 200);
  assert.deepEqual(reset(avery.body), [
    { code: 'PLAN_RESET_SOON', message: 'The plan year resets on 2027-01-01, within 30 days: deductible and out-of-pocket amounts start over' },
  ]);
  const raj = await server.post('/v1/estimate', { member_id: '10111MHDM', member_first_name: 'Raj', member_last_name: 'Malhotra', member_dob: '1978-03-03' });
  const [alert] = reset(raj.body);
  assert.equal(alert!.message, `The plan year resets on ${raj.body.reset_benefits.effective_date}, within 30 days and copay changes`);
});
