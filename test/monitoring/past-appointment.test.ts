/**
 * A monitor whose appointments are all past has nothing to watch (issue 40, item 5): it was accepted,
 * checked once, then next_check_at null without a word. Now refused, naming the dates and today, in a
 * single create and in a bulk upload (JSON and CSV). docs/monitoring.md, "Schedule semantics".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, TEST_KEY, TEST_TODAY, type TestServer } from '../helpers/server.ts';

const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_session_cost: '15000' };
const MESSAGE = `2026-06-03 is before today (${TEST_TODAY}): a monitor checks before appointments to come; give the date of the next one`;

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('appointments all past are refused, naming them; one to come beside them, today, or every_days is accepted', async () => {
  const past = await server.post('/v1/monitors', { ...avery, schedule: { appointments: ['2026-06-03'] } });
  assert.equal(past.status, 400, JSON.stringify(past.body));
  assert.deepEqual(past.body.errors, [{ field: 'schedule.appointments', message: MESSAGE }]);
  for (const schedule of [{ appointments: ['2026-06-03', '2026-06-22'] }, { appointments: [TEST_TODAY] }, { appointments: ['2026-06-03'], every_days: 7 }]) {
    const ok = await server.post('/v1/monitors', { ...avery, schedule });
    assert.equal(ok.status, 201, JSON.stringify(schedule));
    assert.notEqual(ok.body.next_check_at, null);
  }
});

test('in a bulk upload: the JSON item and the CSV patient whose appointments are all past are named', async () => {
  const json = await server.post('/v1/monitors/bulk', {
    monitors: [
      { ...avery, schedule: { appointments: ['2026-06-22'] } },
      { ...avery, schedule: { appointments: ['2026-06-03'] } },
    ],
  });
  assert.equal(json.status, 400, JSON.stringify(json.body));
  assert.deepEqual(json.body.errors, [{ row: 2, field: 'schedule.appointments', message: MESSAGE }]);
  const csv = ['member_id,member_first_name,member_last_name,member_dob,appointment_date', '10010MHNA,Avery,Walsh,1988-03-14,06/03/2026'].join('\r\n');
  const res = await fetch(`${server.url}/v1/monitors/bulk`, { method: 'POST', headers: { apikey: TEST_KEY, 'content-type': 'text/csv' }, body: csv });
  const body = (await res.json()) as { errors: unknown[] };
  assert.equal(res.status, 400);
  assert.deepEqual(body.errors, [{ row: 2, field: 'appointment_date', message: MESSAGE }]);
});
