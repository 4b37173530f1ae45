/** POST /v1/estimate with a course (docs/course-of-care.md): through the whole service, answers checked against the OpenAPI document. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addDays } from '../../src/domain/estimate/course-sessions.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const osei = { member_id: '10125MHDM', member_first_name: 'Nadia', member_last_name: 'Osei', member_dob: '1991-05-20', provider_npi: VALID_NPI };
const walsh = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_npi: VALID_NPI };

async function refused(body: Record<string, unknown>, field: string): Promise<void> {
  const res = await server.post('/v1/estimate', body);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'INVALID_REQUEST');
  assert.ok(
    res.body.errors.some((e: { field: string }) => e.field.startsWith(field)),
    JSON.stringify(res.body.errors),
  );
}

describe('a 12-session weekly course crossing the plan-year reset (sandbox 10125MHDM)', () => {
  let body: any;
  before(async () => {
    const res = await server.post('/v1/estimate', { ...osei, provider_session_cost: 15000, course: { sessions: 12, every_days: 7 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    body = res.body;
  });

  test('each session priced by hand: three $30 copays, then the next year’s $500 deductible, then 20 %', () => {
    assert.deepEqual(
      body.course.lines.map((l: any) => [l.date_of_service, l.plan_year, l.member_obligation, l.payer_obligation, l.phase]),
      [
        [TEST_TODAY, 'current', 3000, 12000, 'cost_share'],
        [addDays(TEST_TODAY, 7), 'current', 3000, 12000, 'cost_share'],
        [addDays(TEST_TODAY, 14), 'current', 3000, 12000, 'cost_share'],
        [addDays(TEST_TODAY, 21), 'next', 15000, 0, 'deductible'],
        [addDays(TEST_TODAY, 28), 'next', 15000, 0, 'deductible'],
        [addDays(TEST_TODAY, 35), 'next', 15000, 0, 'deductible'],
        [addDays(TEST_TODAY, 42), 'next', 7000, 8000, 'deductible_met'],
        ...[49, 56, 63, 70, 77].map((d) => [addDays(TEST_TODAY, d), 'next', 3000, 12000, 'cost_share']),
      ],
    );
    assert.deepEqual([body.course.member_obligation, body.course.payer_obligation, body.course.unknown_sessions], [76000, 12 * 15000 - 76000, 0]);
  });

  test('the accumulators carried: next year’s deductible and OOP max start at their totals and fall with each share', () => {
    assert.deepEqual(
      body.course.lines.slice(3, 8).map((l: any) => [l.remaining_deductible, l.remaining_oop_max]),
      [
        [35000, 285000],
        [20000, 270000],
        [5000, 255000],
        [0, 248000],
        [0, 245000],
      ],
    );
  });

  test('the first line equals the single estimate for that date', async () => {
    const single = await server.post('/v1/estimate', { ...osei, provider_session_cost: 15000 });
    assert.equal(single.status, 200);
    assert.equal(body.course.lines[0].member_obligation, single.body.member_obligation);
    assert.equal(body.course.lines[0].remaining_oop_max, single.body.remaining_oop_max - single.body.member_obligation);
    assert.equal(body.member_obligation, single.body.member_obligation);
    assert.equal(single.body.course, undefined);
  });
});

describe('the course request', () => {
  test('dates with their own place: a telehealth session priced from the payer’s telehealth answer', async () => {
    const dates = [
      { date_of_service: TEST_TODAY },
      { date_of_service: addDays(TEST_TODAY, 7), place_of_service: '02' },
      { date_of_service: addDays(TEST_TODAY, 14), provider_session_cost: 20000 },
    ];
    const res = await server.post('/v1/estimate', { ...walsh, provider_session_cost: 15000, course: { dates } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const tele = await server.post('/v1/estimate', { ...walsh, provider_session_cost: 15000, place_of_service: '02', date_of_service: addDays(TEST_TODAY, 7) });
    assert.deepEqual(
      res.body.course.lines.map((l: any) => [l.place_of_service, l.provider_session_cost]),
      [
        ['11', 15000],
        ['02', 15000],
        ['11', 20000],
      ],
    );
    assert.equal(res.body.course.lines[1].member_obligation, tele.body.member_obligation);
  });

  test('a plan year the payer does not renew: the later sessions unknown with the reason, a 206', async () => {
    // Avery Walsh's calendar-year plan ends 2026-12-31 and no next year is reported; 12 sessions three weeks apart cross it.
    const first = '2026-07-27';
    const res = await server.post('/v1/estimate', { ...walsh, provider_session_cost: 15000, date_of_service: first, course: { sessions: 12, every_days: 21 } });
    assert.equal(res.status, 206, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'UNKNOWN_COSTSHARE');
    const after = res.body.course.lines.filter((l: any) => l.date_of_service > '2026-12-31');
    assert.ok(after.length > 0);
    for (const l of after) {
      assert.deepEqual([l.member_obligation, l.error_code, l.plan_year], [null, 'UNKNOWN_COSTSHARE', 'next']);
      assert.match(l.reason, /does not report the next one/);
    }
    assert.equal(res.body.course.member_obligation, null);
    assert.equal(res.body.course.unknown_sessions, after.length);
  });

  test('refused: too many sessions, dates out of order, a course longer than a year, no session cost, not one of sessions and dates', async () => {
    await refused({ ...walsh, provider_session_cost: 15000, course: { sessions: 53 } }, 'course');
    await refused(
      { ...walsh, provider_session_cost: 15000, course: { dates: [{ date_of_service: addDays(TEST_TODAY, 7) }, { date_of_service: TEST_TODAY }] } },
      'course.dates',
    );
    await refused({ ...walsh, provider_session_cost: 15000, course: { sessions: 52, every_days: 8 } }, 'course');
    await refused({ ...walsh, course: { sessions: 4 } }, 'provider_session_cost');
    await refused({ ...walsh, provider_session_cost: 15000, course: {} }, 'course');
    const fiveEncounters = ['90791', '90832', '90834', '90837', '90847'].map((code, i) => ({ date_of_service: addDays(TEST_TODAY, i), procedure_code: code }));
    await refused({ ...walsh, provider_session_cost: 15000, course: { dates: fiveEncounters } }, 'course.dates');
    await refused({ ...walsh, provider_session_cost: 15000, course: { sessions: 2, dates: [{ date_of_service: TEST_TODAY }] } }, 'course');
    await refused({ ...walsh, provider_session_cost: 15000, course: { every_days: 7, dates: [{ date_of_service: TEST_TODAY }] } }, 'course.every_days');
    await refused(
      { ...walsh, provider_session_cost: 15000, date_of_service: TEST_TODAY, course: { dates: [{ date_of_service: addDays(TEST_TODAY, 1) }] } },
      'course.dates',
    );
  });
});
