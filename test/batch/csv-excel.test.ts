/**
 * Schedules as spreadsheets export them: dollars in a session_cost column ("$150.00", "150",
 * "1,250.00"), cents where the column says so, US and ISO dates, a BOM, CRLF, quoted values, and
 * errors numbered by the spreadsheet's rows (the header is row 1).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { fromCsv } from '../../src/formats/batch-input.ts';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { parseCsv } from '../../src/formats/csv.ts';
import { centsCell, dateCell, dollarsToCents, excelSafeId, uploadName } from '../../src/formats/spreadsheet-cells.ts';
import { csvLine } from '../../src/formats/csv.ts';
import { TEST_KEY } from '../helpers/server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitForBatch } from './helpers.ts';

const validate = createCheckValidator();
const crlf = (...lines: string[]) => `\uFEFF${lines.join('\r\n')}\r\n`;

test('an Excel "CSV UTF-8" export: BOM, CRLF, quoted dollars, US dates, TRUE/FALSE', () => {
  const input = fromCsv(
    crlf(
      'member_id,member_first_name,member_last_name,member_dob,session_cost,in_network',
      '10010MHNA,Avery,Walsh,03/14/1988,$150.00,TRUE',
      '10011MHDM,Marcus,Bell,11/2/1979,150,FALSE',
      '10012MHDM,Priya,Raman,1992-07-21,"$1,250.00",TRUE',
      '10013MHDM,Diego,"Alvarez Jr.",1/30/1985,150.5,',
    ),
    validate,
  );
  assert.ok(input.ok, JSON.stringify(input));
  assert.deepEqual(
    input.checks.map((c) => [c.request.member_dob, c.request.provider_session_cost, c.request.in_network, c.request.member_last_name]),
    [
      ['1988-03-14', '15000', true, 'Walsh'],
      ['1979-11-02', '15000', false, 'Bell'],
      ['1992-07-21', '125000', true, 'Raman'],
      ['1985-01-30', '15050', undefined, 'Alvarez Jr.'],
    ],
  );
});

test('cents stay cents where the column says so; dollars in a cents column are refused, not read 100 times too small', () => {
  const ok = fromCsv('member_id,member_dob,session_cost_cents\n1MHNA,1980-01-01,15000\n1MHNA,1980-01-01,"15,000"\n', validate);
  assert.ok(ok.ok);
  assert.deepEqual(
    ok.checks.map((c) => c.request.provider_session_cost),
    ['15000', '15000'],
  );
  const legacy = fromCsv('member_id,member_dob,provider_session_cost\n1MHNA,1980-01-01,15000\n', validate);
  assert.ok(legacy.ok);
  assert.equal(legacy.checks[0]!.request.provider_session_cost, '15000');

  const bad = fromCsv('member_id,member_dob,provider_session_cost\n1MHNA,1980-01-01,$150.00\n1MHNA,1980-01-01,150.00\n', validate);
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors, [
    {
      row: 2,
      field: 'provider_session_cost',
      message:
        '"$150.00" looks like dollars, but provider_session_cost is in cents (15000 is $150.00): write cents, or name the column session_cost to give dollars',
    },
    {
      row: 3,
      field: 'provider_session_cost',
      message:
        '"150.00" looks like dollars, but provider_session_cost is in cents (15000 is $150.00): write cents, or name the column session_cost to give dollars',
    },
  ]);
});

test('values that could be read two ways are refused with the reason, on their spreadsheet row', () => {
  const bad = fromCsv(
    [
      'member_id,member_dob,session_cost,provider_npi',
      '1MHNA,14/03/1988,150,1234567893',
      '1MHNA,3/14/88,"1,25",1234567893',
      '1MHNA,02/30/1979,150.001,1234567893',
      '1MHNA,1979-02-03,-5,1.23457E+09',
    ].join('\n'),
    validate,
  );
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors, [
    { row: 2, field: 'member_dob', message: '"14/03/1988" reads as day/month; write dates as MM/DD/YYYY or YYYY-MM-DD' },
    { row: 3, field: 'member_dob', message: '"3/14/88" has a two-digit year; write the year in full (MM/DD/YYYY or YYYY-MM-DD)' },
    { row: 3, field: 'session_cost', message: '"1,25" is not an amount in dollars such as 150, 150.00, $150.00 or 1,250.00' },
    { row: 4, field: 'member_dob', message: '"02/30/1979" is not a real calendar date' },
    { row: 4, field: 'session_cost', message: '"150.001" is not an amount in dollars such as 150, 150.00, $150.00 or 1,250.00' },
    {
      row: 5,
      field: 'provider_npi',
      message: '"1.23457E+09" is a number the spreadsheet shortened; format the provider_npi column as Text and export the file again',
    },
    { row: 5, field: 'session_cost', message: '"-5" is negative; a session cost is $0.00 or more' },
  ]);
  assert.deepEqual(bad.invalidRows, [2, 3, 4, 5]);
  const both = fromCsv('member_id,session_cost,provider_session_cost\n', validate);
  assert.deepEqual(!both.ok && both.errors, [
    { field: 'header', message: 'columns session_cost and provider_session_cost both give the session cost; keep one' },
  ]);
});

test("row numbers are the spreadsheet's: a line break inside quotes stays in its row, a blank line is a row", () => {
  const text = crlf('member_id,member_first_name,member_dob', '1MHNA,"Ann', 'Marie",1980-01-01', '', '1MHNA,Bob,02/30/1980');
  assert.deepEqual(
    parseCsv(text).map((r) => [r.row, r.line]),
    [
      [1, 1],
      [2, 2],
      [4, 5],
    ],
  );
  const input = fromCsv(text, validate);
  assert.ok(!input.ok);
  assert.deepEqual(input.errors, [
    { row: 2, field: 'member_first_name', message: 'may contain letters, spaces, apostrophes, periods, commas and hyphens only' },
    { row: 4, field: 'member_dob', message: '"02/30/1980" is not a real calendar date' },
  ]);
});

test('any amount in cents reads back from the ways a spreadsheet writes dollars', () => {
  const grouped = (n: bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 999_999_999 }), (cents) => {
      const whole = BigInt(Math.floor(cents / 100));
      const frac = String(cents % 100).padStart(2, '0');
      const forms = [`$${grouped(whole)}.${frac}`, `${whole}.${frac}`, `${grouped(whole)}.${frac}`, ` $ ${whole}.${frac} `];
      if (frac === '00') forms.push(`${whole}`, `$${grouped(whole)}`);
      else if (frac.endsWith('0')) forms.push(`${whole}.${frac[0]}`);
      for (const form of forms) assert.deepEqual(dollarsToCents(form), { ok: true, value: String(cents) }, form);
      assert.deepEqual(centsCell(grouped(BigInt(cents)), 'session_cost_cents'), { ok: true, value: String(cents) });
    }),
  );
});

test('any calendar date reads the same as MM/DD/YYYY, M/D/YYYY and YYYY-MM-DD', () => {
  fc.assert(
    fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
      const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
      const iso = `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      for (const form of [iso, `${String(m).padStart(2, '0')}/${String(day).padStart(2, '0')}/${y}`, `${m}/${day}/${y}`]) {
        assert.deepEqual(dateCell(form), { ok: true, value: iso }, form);
      }
    }),
  );
});

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

test('the API: the example schedule is accepted, and a refusal names spreadsheet rows', async () => {
  const example = readFileSync(new URL('../../examples/schedule.csv', import.meta.url), 'utf8');
  const accepted = await server.post('/v1/batches', example, { 'content-type': 'text/csv' });
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  assert.equal(accepted.body.total, example.trimEnd().split('\n').length - 1);

  const refused = await server.post(
    '/v1/batches',
    crlf('member_id,member_dob,session_cost', '1MHNA,03/14/1988,$150.00', '1MHNA,03/14/1988,$150.00', '1MHNA,14/03/1988,$150.00'),
    { 'content-type': 'text/csv' },
  );
  assert.equal(refused.status, 400);
  assert.equal(refused.body.message, '1 row is invalid (row 4); nothing was queued');
  assert.deepEqual(refused.body.errors, [{ row: 4, field: 'member_dob', message: '"14/03/1988" reads as day/month; write dates as MM/DD/YYYY or YYYY-MM-DD' }]);
});

test('rows of bare commas that Excel leaves below a schedule are skipped, not refused', () => {
  const input = fromCsv(crlf('member_id,member_dob,session_cost', '10010MHNA,03/14/1988,150', ',,', ',,', ' , ,'), validate);
  assert.ok(input.ok, JSON.stringify(input));
  assert.equal(input.checks.length, 1);
  assert.deepEqual(
    input.rows?.map((r) => r.row),
    [2],
  );
  const only = fromCsv(crlf('member_id,member_dob', ',', ','), validate);
  assert.ok(!only.ok);
  assert.deepEqual(only.errors, [{ field: '(csv)', message: 'must hold at least one check' }]);
});

test('a blank date in a filled row names both forms a spreadsheet may use', () => {
  const input = fromCsv(crlf('member_id,member_dob', '10010MHNA,'), validate);
  assert.ok(!input.ok);
  assert.deepEqual(input.errors, [{ row: 2, field: 'member_dob', message: 'must be a real calendar date, MM/DD/YYYY or YYYY-MM-DD' }]);
});

test('names as people write them: a quoted comma, Jr., III, apostrophes (typed or typographic), hyphens; a script X12 cannot carry is refused on its row', () => {
  const input = fromCsv(
    crlf(
      'member_id,member_first_name,member_last_name,member_dob',
      '10011MHDM,Marcus,"Bell, Jr.",11/2/1979',
      '10011MHDM,Anne-Marie,O’Brien III,11/2/1979',
      "10011MHDM,D'Arcy,Smith-Jones,11/2/1979",
    ),
    validate,
  );
  assert.ok(input.ok, JSON.stringify(input));
  assert.deepEqual(
    input.checks.map((c) => c.request.member_last_name),
    ['Bell, Jr.', 'O’Brien III', 'Smith-Jones'],
  );
  const refused = fromCsv(
    crlf('member_id,member_first_name,member_last_name,member_dob', '10011MHDM,Marcus,Bell,11/2/1979', '10011MHDM,伟,Li,11/2/1979'),
    validate,
  );
  assert.ok(!refused.ok);
  assert.deepEqual(refused.errors, [
    { row: 3, field: 'member_first_name', message: 'must be written in Latin letters (payers receive names in the X12 basic character set)' },
  ]);
});

test('member IDs Excel would turn into numbers are written as text formulas; nothing else is', () => {
  assert.equal(csvLine([excelSafeId('00123')]), '"=""00123"""');
  assert.equal(csvLine([excelSafeId('123456789012345678')]), '"=""123456789012345678"""');
  assert.equal(csvLine([excelSafeId('12E45')]), '"=""12E45"""');
  for (const kept of ['10010MHNA', '12345', 'W00123', null]) assert.equal(excelSafeId(kept), kept);
  assert.equal(csvLine(['="1"+cmd']), `"'=""1""+cmd"`, 'any other formula is still defused');
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,19}$/), (id) => {
      const cell = parseCsv(csvLine([excelSafeId(id)]))[0]!.cells[0]!;
      assert.equal(cell === id || cell === `="${id}"`, true);
    }),
  );
});

test('upload names become download names: folders and extension dropped, odd characters folded', () => {
  assert.equal(uploadName('schedule.csv'), 'schedule');
  assert.equal(uploadName('C:\\fakepath\\Nov schedule (final).csv'), 'Nov-schedule-final');
  assert.equal(uploadName('../../etc/passwd'), 'passwd');
  assert.equal(uploadName('.csv'), null);
  assert.equal(uploadName(undefined), null);
});

test('the API: the results download opens in Excel as written (BOM, protected IDs) and is named after the upload and its day', async () => {
  const created = await server.post(
    '/v1/batches?filename=Nov%20schedule.csv',
    crlf('member_id,member_first_name,member_last_name,member_dob', '00123,Marcus,"Bell, Jr.",11/2/1979', ',,,'),
    { 'content-type': 'text/csv' },
  );
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.equal(created.body.total, 1);
  await waitForBatch(server.url, TEST_KEY, created.body.id);
  const res = await fetch(`${server.url}/v1/batches/${created.body.id}/results`, { headers: { apikey: TEST_KEY, accept: 'text/csv' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte-order mark');
  const day = String(created.body.created_at).slice(0, 10);
  assert.equal(res.headers.get('content-disposition'), `attachment; filename="Nov-schedule-${day}-results.csv"`);
  const [header, row] = parseCsv(bytes.toString('utf8')).map((r) => r.cells);
  assert.equal(row![header!.indexOf('member_id')], '="00123"');
  assert.equal(row![header!.indexOf('member_last_name')], 'Bell, Jr.');
});
