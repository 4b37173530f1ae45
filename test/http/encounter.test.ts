/** The encounter of /v1/estimate: date_of_service, procedure_code, place_of_service (docs/estimates.md, "The encounter"). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { serviceDateWindow } from '../../src/domain/encounter.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const estimate = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', provider_npi: VALID_NPI };

async function refused(body: Record<string, unknown>, field: string): Promise<string> {
  const res = await server.post('/v1/estimate', body);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'INVALID_REQUEST');
  assert.deepEqual(
    res.body.errors.map((e: { field: string }) => e.field),
    [field],
  );
  return res.body.errors[0].message as string;
}

describe('the encounter echoed', () => {
  test('without the fields: an office psychotherapy visit today, no procedure', async () => {
    const res = await server.post('/v1/estimate', estimate);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.encounter, { date_of_service: TEST_TODAY, procedure_code: null, place_of_service: '11' });
  });

  test('with them: the date, the procedure (upper-cased) and the place priced', async () => {
    const res = await server.post('/v1/estimate', { ...estimate, date_of_service: '2026-06-22', procedure_code: 'h0031', place_of_service: '10' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.encounter, { date_of_service: '2026-06-22', procedure_code: 'H0031', place_of_service: '10' });
  });

  test('an encounter the sandbox prices as the default one gives the same figures', async () => {
    const plain = await server.post('/v1/estimate', { ...estimate, provider_session_cost: 15000 });
    const same = await server.post('/v1/estimate', { ...estimate, provider_session_cost: 15000, date_of_service: TEST_TODAY, place_of_service: '11' });
    assert.equal(same.body.member_obligation, plain.body.member_obligation);
    assert.equal(same.body.copayment, plain.body.copayment);
  });
});

describe('shapes', () => {
  for (const date of ['2026-02-30', '26-06-15', '2026-6-15', '', 20260615, '06/15/2026']) {
    test(`date_of_service ${JSON.stringify(date)} is refused`, async () => {
      const message = await refused({ ...estimate, date_of_service: date }, 'date_of_service');
      if (typeof date === 'string') assert.match(message, /calendar date in YYYY-MM-DD/);
    });
  }
  for (const code of ['9083', '908377', 'HH031', '90837-95', 'H003', '', 90837]) {
    test(`procedure_code ${JSON.stringify(code)} is refused`, async () => {
      const message = await refused({ ...estimate, procedure_code: code }, 'procedure_code');
      if (typeof code === 'string') assert.match(message, /CPT or HCPCS/);
    });
  }
  for (const code of ['90791', '90834', '90837', 'G0410', '0362T', '99213']) {
    test(`procedure_code ${code} is a CPT/HCPCS shape`, async () => {
      assert.equal((await server.post('/v1/estimate', { ...estimate, procedure_code: code })).status, 200);
    });
  }
  for (const place of ['2', '011', 'OF', '', 11]) {
    test(`place_of_service ${JSON.stringify(place)} is refused`, async () => {
      const message = await refused({ ...estimate, place_of_service: place }, 'place_of_service');
      if (typeof place === 'string') assert.match(message, /two-digit CMS place-of-service code/);
    });
  }
});

describe('the date-of-service window', () => {
  const { earliest, latest } = serviceDateWindow(TEST_TODAY);
  const shift = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  test('12 months back through the end of next month', () => {
    assert.deepEqual(serviceDateWindow(TEST_TODAY), { earliest: '2025-06-15', latest: '2026-07-31' });
    assert.deepEqual(serviceDateWindow('2028-02-29'), { earliest: '2027-02-28', latest: '2028-03-31' });
    assert.deepEqual(serviceDateWindow('2026-12-31'), { earliest: '2025-12-31', latest: '2027-01-31' });
  });

  test('a window kept for the last day asked is the one computed for the day asked, whatever came before', () => {
    // By calendar arithmetic: 12 months back (the day clamped to that month's end), through the end of next month.
    const expected = (iso: string) => {
      const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
      const end = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 0)).getUTCDate();
      const back = new Date(Date.UTC(y - 1, m - 1, 1));
      const ahead = new Date(Date.UTC(y, m, 1));
      const ymd = (t: Date, day: number) => `${t.toISOString().slice(0, 8)}${String(day).padStart(2, '0')}`;
      return {
        earliest: ymd(back, Math.min(d, end(back.getUTCFullYear(), back.getUTCMonth() + 1))),
        latest: ymd(ahead, end(ahead.getUTCFullYear(), ahead.getUTCMonth() + 1)),
      };
    };
    const day = fc
      .date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2098-12-31T00:00:00Z'), noInvalidDate: true })
      .map((t) => t.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.array(day, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(7), { maxLength: 8 }), (days, repeats) => {
        for (const i of [...days.keys(), ...repeats.filter((r) => r < days.length)]) assert.deepEqual(serviceDateWindow(days[i]!), expected(days[i]!));
      }),
      { numRuns: 500 },
    );
  });

  for (const [name, date] of [
    ['the first day', earliest],
    ['the last day', latest],
  ] as const) {
    test(`${name} of the window is asked about`, async () => {
      const res = await server.post('/v1/estimate', { ...estimate, date_of_service: date });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.encounter.date_of_service, date);
    });
  }
  for (const [name, date] of [
    ['the day before the window', shift(earliest, -1)],
    ['the day after it', shift(latest, 1)],
  ] as const) {
    test(`${name} is refused with the window, not the date`, async () => {
      const message = await refused({ ...estimate, date_of_service: date }, 'date_of_service');
      assert.equal(message, `must be from ${earliest} (12 months ago) through ${latest} (the end of next month)`);
      assert.ok(!message.includes(date));
    });
  }
  test('a date of service before the date of birth is refused', async () => {
    const message = await refused({ ...estimate, member_dob: '2026-01-10', member_id: '1MHNA', date_of_service: '2025-12-01' }, 'date_of_service');
    assert.equal(message, 'must not be before member_dob');
  });
  test('the date of birth is still checked against today, not the date of service', async () => {
    const message = await refused({ ...estimate, member_dob: shift(TEST_TODAY, 1), date_of_service: latest }, 'member_dob');
    assert.equal(message, 'must not be after today');
  });
});
