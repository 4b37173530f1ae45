/** CSV reading and writing, and how CSV rows become check bodies. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_COLUMNS, fromCsv, fromJson, MAX_COLUMNS, MAX_ERROR_TEXT, MAX_HEADER_CHARS, MAX_LISTED_ERRORS } from '../../src/formats/batch-input.ts';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { csvLine, parseCsv } from '../../src/formats/csv.ts';

const cells = (text: string) => parseCsv(text).map((r) => r.cells);

test('reads quotes, doubled quotes, embedded line breaks, CRLF, a BOM, and skips blank lines', () => {
  assert.deepEqual(cells('\ufeffa,b\r\n"x, y","say ""hi"""\r\n\r\n"two\nlines",\n'), [
    ['a', 'b'],
    ['x, y', 'say "hi"'],
    ['two\nlines', ''],
  ]);
  assert.deepEqual(
    parseCsv('a\n"b\nc"\nd').map((r) => r.line),
    [1, 2, 4],
    'each record knows its first line',
  );
  assert.deepEqual(cells('a,b'), [['a', 'b']], 'no final line break');
  assert.deepEqual(cells(',\n'), [['', '']]);
});

test('refuses an unclosed quote and text after a closing quote, naming the line', () => {
  assert.throws(() => parseCsv('a\n"b,c\n'), /line 2: a quoted value is not closed/);
  assert.throws(() => parseCsv('a\n"b"c\n'), /line 2: unexpected character after a closing quote/);
});

test('writes quotes where needed and defuses spreadsheet formulas', () => {
  assert.equal(csvLine(['a', 'b,c', 'say "hi"', 'x\ny', null, 5, true]), 'a,"b,c","say ""hi""","x\ny",,5,true');
  assert.equal(csvLine(['=HYPERLINK("http://x")', '+1', '-2', '@A1']), `"'=HYPERLINK(""http://x"")",'+1,'-2,'@A1`);
  const line = csvLine(['a,b', '"', '=1']);
  assert.deepEqual(cells(line)[0], ['a,b', '"', "'=1"], 'what is written reads back');
});

test('rows become the endpoint body: blank optional cells left out, yes/no for in_network, blank endpoint is estimate', () => {
  const validate = createCheckValidator();
  const input = fromCsv(
    [
      'Member_ID , member_dob,in_network,endpoint,zip,payer_id,member_first_name,member_last_name,patient_state',
      '1MHNA,1980-01-01,no,,,,,,NY',
      ',1980-01-01,,discover,,,Ann,Lee,',
      ',1980-01-01,,SCAN,10001,SBX-HARBOR,Ann,Lee,',
    ].join('\n'),
    validate,
  );
  assert.ok(input.ok, JSON.stringify(input));
  assert.deepEqual(input.checks, [
    { endpoint: 'estimate', request: { member_id: '1MHNA', member_first_name: '', member_last_name: '', member_dob: '1980-01-01', in_network: false } },
    { endpoint: 'discover', request: { member_first_name: 'Ann', member_last_name: 'Lee', member_dob: '1980-01-01', zip: '', payer_id: '' } },
    { endpoint: 'scan', request: { member_first_name: 'Ann', member_last_name: 'Lee', member_dob: '1980-01-01', zip: '10001' } },
  ]);
});

test('a bad value, too many cells or an unknown column is an error of its row or of the header', () => {
  const validate = createCheckValidator();
  const bad = fromCsv('member_id,member_dob,in_network,provider_session_cost\n1MHNA,1980-01-01,maybe,150.00\n1MHNA,1980-01-01,yes,1,extra\n', validate);
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && [...bad.errors].sort((a, b) => a.row! - b.row! || a.field.localeCompare(b.field)), [
    { row: 2, field: 'in_network', message: 'must be a boolean' },
    {
      row: 2,
      field: 'provider_session_cost',
      message:
        '"150.00" looks like dollars, but provider_session_cost is in cents (15000 is $150.00): write cents, or name the column session_cost to give dollars',
    },
    { row: 3, field: '(csv)', message: 'row 3 has 5 values; the header has 4 columns' },
  ]);
  assert.deepEqual(!bad.ok && bad.invalidRows, [2, 3], 'spreadsheet rows: the header is row 1');
  assert.deepEqual(CSV_COLUMNS.slice(0, 5), ['endpoint', 'member_id', 'member_first_name', 'member_last_name', 'member_dob']);
  // A course of care (docs/course-of-care.md) is an object no cell holds: JSON rows only.
  assert.equal(CSV_COLUMNS.includes('course'), false);
  const course = fromCsv('member_id,course\n1MHNA,12\n', validate);
  assert.match(!course.ok ? course.errors[0]!.message : '', /^column 2 "course" is not one of endpoint, /);
  const header = fromCsv('member_id,member_id\n', validate);
  assert.deepEqual(!header.ok && header.errors, [{ field: 'header', message: 'column "member_id" appears twice' }]);
  const empty = fromCsv('', validate);
  assert.equal(!empty.ok && empty.errors[0]!.field, '(csv)');
});

test('parseCsv stops at its limits instead of reading on', () => {
  assert.throws(() => parseCsv('a,b,c,d\n', { maxCells: 3 }), /line 1 has more than 3 values/);
  assert.deepEqual(cells('a,b,c\n'), [['a', 'b', 'c']]);
  assert.equal(parseCsv('a,b,c\n', { maxCells: 3 }).length, 1, 'exactly the limit is read');
  assert.throws(
    () => parseCsv('a\nb\nc\n', { maxRecords: 2 }),
    (err: any) => err.tooLong === true,
  );
  assert.equal(parseCsv('a\nb\n\n\n', { maxRecords: 2 }).length, 2, 'blank lines do not count');
});

test('a refusal stays small whatever was sent: errors capped and counted, names and messages clipped', () => {
  const validate = createCheckValidator();
  const size = (input: ReturnType<typeof fromCsv>) => JSON.stringify(input).length;

  // A 7 MB header of unknown columns: refused from its first line alone.
  const huge = fromCsv(`${Array.from({ length: 700_000 }, (_, i) => `c${i}`).join(',')}\n1MHNA\n`, validate);
  assert.ok(!huge.ok);
  assert.deepEqual(huge.errors, [
    { field: 'header', message: `the header line is longer than ${MAX_HEADER_CHARS} characters; it names the columns (docs/batch.md)` },
  ]);
  assert.ok(size(huge) < 1000);

  const manyColumns = fromCsv(`${'x,'.repeat(500)}x\n`, validate);
  assert.deepEqual(!manyColumns.ok && manyColumns.errors, [{ field: 'header', message: `the header has 501 columns; at most ${MAX_COLUMNS}` }]);

  // Within the limits, unknown columns each get an error, the column list once, long names clipped.
  const names = Array.from({ length: MAX_COLUMNS }, (_, i) => `${'n'.repeat(50)}${i}`);
  const unknown = fromCsv(`${names.join(',')}\n`, validate);
  assert.ok(!unknown.ok);
  assert.equal(unknown.errors.length, MAX_COLUMNS);
  assert.match(unknown.errors[0]!.message, /^column 1 "n{39}…" is not one of endpoint, member_id/);
  assert.match(unknown.errors[1]!.message, /^column 2 "n{39}…" is not a known column$/);
  assert.ok(size(unknown) < 10_000, `${size(unknown)} characters`);

  const wideRow = fromCsv(`member_id,member_dob\n1MHNA,${','.repeat(100_000)}\n`, validate);
  assert.deepEqual(!wideRow.ok && wideRow.errors, [{ field: '(csv)', message: `line 2 has more than ${MAX_COLUMNS} values` }]);

  const longFile = fromCsv(`member_id,member_dob\n${'1MHNA,1980-01-01\n'.repeat(20_000)}`, validate);
  assert.deepEqual(!longFile.ok && longFile.errors, [{ field: '(csv)', message: 'must hold at most 10000 checks' }]);

  // JSON: a body of 100,000 unknown fields, and rows with fields named by megabytes.
  const keys = fromJson(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 1])), validate);
  assert.ok(!keys.ok);
  assert.equal(keys.errors.length, MAX_LISTED_ERRORS);
  assert.equal(keys.errorCount, 100_000);
  const long = 'f'.repeat(1_000_000);
  const rows = fromJson({ checks: Array.from({ length: 500 }, () => ({ endpoint: 'estimate', request: {}, [long]: 1 })) }, validate);
  assert.ok(!rows.ok);
  assert.equal(rows.errors.length, MAX_LISTED_ERRORS);
  assert.equal(rows.invalidRows.length, 500);
  assert.ok(rows.errors.every((e) => e.field.length <= 40 && e.message.length <= MAX_ERROR_TEXT));
  assert.ok(size(rows) < 20_000, `${size(rows)} characters`);
});
