/** The encounter's pure rules: the date-of-service window, the request's encounter, a monitor's appointment, the inquiry. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { requestedEncounter, serviceDateProblem, serviceDateWindow } from '../../src/domain/encounter.ts';
import { appointmentServiceDate } from '../../src/domain/monitoring/schedule.ts';
import { ServiceError } from '../../src/domain/errors.ts';
import { buildInquiry } from '../../src/operations/inquiry.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);
const day = fc.integer({ min: ms('1990-01-01') / DAY, max: ms('2090-12-31') / DAY }).map((d) => iso(d * DAY));

test('the window: 12 months back (clamped to the month) through the last day of next month', () => {
  fc.assert(
    fc.property(day, (today) => {
      const { earliest, latest } = serviceDateWindow(today);
      const [y, m, d] = today.split('-').map(Number) as [number, number, number];
      // 12 months back: the same day of the month a year before, or that month's last day.
      assert.equal(earliest.slice(0, 7), `${y - 1}-${String(m).padStart(2, '0')}`);
      assert.equal(Number(earliest.slice(8)), Math.min(d, new Date(Date.UTC(y - 1, m, 0)).getUTCDate()));
      // The last day of next month: the day after it is the first of the month after.
      assert.equal(iso(ms(latest) + DAY).slice(8), '01');
      const months = (Number(latest.slice(0, 4)) - y) * 12 + Number(latest.slice(5, 7)) - m;
      assert.equal(months, 1);
      assert.equal(serviceDateProblem(today, today), null);
      assert.equal(serviceDateProblem(earliest, today), null);
      assert.equal(serviceDateProblem(latest, today), null);
      assert.notEqual(serviceDateProblem(iso(ms(earliest) - DAY), today), null);
      assert.notEqual(serviceDateProblem(iso(ms(latest) + DAY), today), null);
    }),
    { numRuns: 500 },
  );
});

test("a request's encounter: its fields over today, no procedure and the office", () => {
  assert.deepEqual(requestedEncounter({}, '2026-06-15'), { date_of_service: '2026-06-15', procedure_code: null, place_of_service: '11' });
  assert.deepEqual(requestedEncounter({ date_of_service: '2026-06-01', procedure_code: 'g0410', place_of_service: '02' }, '2026-06-15'), {
    date_of_service: '2026-06-01',
    procedure_code: 'G0410',
    place_of_service: '02',
  });
});

test("a monitor's check prices its next appointment inside the window, else today", () => {
  const schedule = { appointments: ['2026-09-01', '2026-06-20', '2026-06-10'] };
  assert.equal(appointmentServiceDate(schedule, '2026-06-15'), '2026-06-20');
  assert.equal(appointmentServiceDate(schedule, '2026-06-20'), '2026-06-20', 'the day itself');
  assert.equal(appointmentServiceDate(schedule, '2026-06-21'), null, 'September is past the end of next month');
  assert.equal(appointmentServiceDate(schedule, '2026-08-02'), '2026-09-01');
  assert.equal(appointmentServiceDate({ every_days: 7 }, '2026-06-15'), null);
});

const fields = { payer_id: 'SBX-EVERGREEN', member_id: 'M1', first_name: 'A', last_name: 'B', dob: '1980-01-01' };

test('buildInquiry asks about the encounter: DTP*291 date, procedure and place; other operations ask about today', () => {
  const inquiry = buildInquiry(fields, '2026-06-15', { date_of_service: '2026-07-31', procedure_code: '90837', place_of_service: '10' });
  assert.equal(inquiry.date, '2026-07-31');
  assert.equal(inquiry.procedure_code, '90837');
  assert.equal(inquiry.place_of_service, '10');
  const plain = buildInquiry(fields, '2026-06-15');
  assert.equal(plain.date, '2026-06-15');
  assert.equal('procedure_code' in plain || 'place_of_service' in plain, false);
});

test('buildInquiry refuses a date of service outside the window or before birth, naming the field and not the date', () => {
  for (const [date, message] of [
    ['2026-08-01', 'must be from 2025-06-15 (12 months ago) through 2026-07-31 (the end of next month)'],
    ['2025-06-14', 'must be from 2025-06-15 (12 months ago) through 2026-07-31 (the end of next month)'],
  ] as const) {
    assert.throws(
      () => buildInquiry(fields, '2026-06-15', { date_of_service: date, procedure_code: null, place_of_service: '11' }),
      (err: unknown) =>
        err instanceof ServiceError && err.code === 'INVALID_REQUEST' && JSON.stringify(err.details).includes(message) && !err.message.includes(date),
    );
  }
  assert.throws(
    () => buildInquiry({ ...fields, dob: '2026-01-02' }, '2026-06-15', { date_of_service: '2026-01-01', procedure_code: null, place_of_service: '11' }),
    (err: unknown) => err instanceof ServiceError && JSON.stringify(err.details).includes('must not be before member_dob'),
  );
});
