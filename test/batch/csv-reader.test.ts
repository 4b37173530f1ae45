/**
 * parseCsv against the character-by-character reader it replaced (issue 23, finding 2): the same
 * records, lines, rows and errors on random texts of quotes, commas, CR, LF, CRLF and a BOM; what
 * csvLine writes reads back; and the length limits refuse a long value or line, naming its row.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromCsv, MAX_CSV_RECORD_CHARS, MAX_CSV_VALUE_CHARS } from '../../src/formats/batch-input.ts';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { CsvError, csvLine, parseCsv, type CsvRecord } from '../../src/formats/csv.ts';
import { referenceParseCsv } from '../support/reference-csv.ts';

type Outcome = { records: CsvRecord[] } | { error: { line: number; message: string; tooLong: boolean } };

function outcome(parse: () => CsvRecord[]): Outcome {
  try {
    return { records: parse() };
  } catch (err) {
    assert.ok(err instanceof CsvError, String(err));
    return { error: { line: err.line, message: err.message, tooLong: err.tooLong } };
  }
}

/** Texts made mostly of the characters CSV gives meaning to. */
const csvText = fc
  .array(fc.constantFrom('a', 'b', ' ', ',', ',', '"', '"', '""', '\r', '\n', '\r\n', '\ufeff', 'é', '=', 'x\ny'), { maxLength: 60 })
  .map((parts) => parts.join(''));

test('on random texts the new reader gives what the old one gave: records, lines, rows, errors', () => {
  fc.assert(
    fc.property(
      fc.oneof(csvText, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })),
      fc.record({
        maxCells: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        maxRecords: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
      }),
      (text, { maxCells, maxRecords }) => {
        const limits = { ...(maxCells === undefined ? {} : { maxCells }), ...(maxRecords === undefined ? {} : { maxRecords }) };
        assert.deepEqual(
          outcome(() => parseCsv(text, limits)),
          outcome(() => referenceParseCsv(text, limits)),
        );
      },
    ),
    { numRuns: 5_000 },
  );
});

test('the same on fixed texts that reach every branch', () => {
  for (const text of [
    '',
    '\ufeff',
    '\ufeff\ufeffa',
    '"',
    '""',
    '"""',
    '""""',
    'a""b',
    '"a"b',
    '"a"\r',
    '"a\r\nb",c\r\n\r\n',
    'a\rb\r\nc\n\rd',
    ',',
    ',\n,',
    '\n\n\na',
    '"x\ny"z',
    'a,"b\n\n"\nc,"d',
    '"a"",""b"',
  ]) {
    for (const limits of [{}, { maxCells: 1 }, { maxCells: 2 }, { maxRecords: 1 }]) {
      assert.deepEqual(
        outcome(() => parseCsv(text, limits)),
        outcome(() => referenceParseCsv(text, limits)),
        JSON.stringify([text, limits]),
      );
    }
  }
});

/** What csvLine writes for a value: text a spreadsheet would run gets an apostrophe (not a lone string constant such as ="00123"). */
const written = (v: string) => (/^[=+\-@\t\r]/.test(v) && !/^="[0-9A-Za-z]+"$/.test(v) ? `'${v}` : v);
const value = fc.string({ unit: fc.constantFrom('a', 'Z', '9', ' ', ',', '"', '\r', '\n', '=', '+', '-', '@', '\t', "'", 'é', '\ufeff'), maxLength: 12 });

test('what csvLine writes, parseCsv reads back: one line, and lines joined by CRLF', () => {
  fc.assert(
    fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (rows) => {
      // A BOM opening the text is read as the mark, not as the value's (a spreadsheet writes no such value).
      fc.pre(!rows[0]![0]!.startsWith('\ufeff'));
      const blank = (r: string[]) => r.length === 1 && r[0] === '';
      const text = rows.map((r) => csvLine(r)).join('\r\n');
      assert.deepEqual(
        parseCsv(text).map((r) => r.cells),
        rows.filter((r) => !blank(r)).map((r) => r.map(written)),
      );
      if (!blank(rows[0]!)) assert.deepEqual(parseCsv(csvLine(rows[0]!))[0]!.cells, rows[0]!.map(written));
    }),
    { numRuns: 2_000 },
  );
});

test('a value or a line past its limit is refused, naming the spreadsheet row, before the rest is read', () => {
  const text = `a,b\r\n"two\nlines",x\r\nc,${'v'.repeat(11)}\r\n"${'q'.repeat(20)}"\r\n`;
  assert.equal(parseCsv(text, { maxValueChars: 20, maxRecordChars: 40 }).length, 4, 'exactly the limit is read');
  assert.throws(
    () => parseCsv(text, { maxValueChars: 10 }),
    (err: CsvError) => err.row === 3 && err.line === 4 && /^row 3 has a value longer than 10 characters$/.test(err.message),
  );
  assert.throws(
    () => parseCsv(text, { maxValueChars: 19 }),
    (err: CsvError) => err.row === 4 && /^row 4 has a value longer than 19 characters$/.test(err.message),
  );
  assert.throws(
    () => parseCsv(`a\n"${'""'.repeat(6)}"`, { maxValueChars: 5 }),
    (err: CsvError) => err.row === 2,
    'doubled quotes count once',
  );
  assert.doesNotThrow(() => parseCsv(`a\n"${'""'.repeat(5)}"`, { maxValueChars: 5 }));
  assert.throws(
    () => parseCsv(text, { maxRecordChars: 12 }),
    (err: CsvError) => err.row === 2 && /^row 2 is longer than 12 characters$/.test(err.message),
  );
  // Refused at the long value: the unclosed quote after it is never reached.
  assert.throws(() => parseCsv(`a\n${'x'.repeat(100)}\n"open`, { maxValueChars: 50 }), /row 2 has a value/);
});

test('a batch CSV with an 8 MB value, or a row past the line limit, is refused naming its row', () => {
  const validate = createCheckValidator();
  const huge = fromCsv(`member_id,member_first_name\n1MHNA,Ann\n1MHNA,"${'x'.repeat(8 * 1024 * 1024)}"\n`, validate);
  assert.ok(!huge.ok);
  assert.deepEqual(huge.errors, [{ row: 3, field: '(csv)', message: `row 3 has a value longer than ${MAX_CSV_VALUE_CHARS} characters` }]);
  assert.deepEqual(huge.invalidRows, [3]);
  const cells = Array.from({ length: 60 }, () => 'y'.repeat(Math.ceil(MAX_CSV_RECORD_CHARS / 60)));
  const wide = fromCsv(`member_id,member_first_name\n${cells.join(',')}\n`, validate);
  assert.ok(!wide.ok);
  assert.deepEqual(wide.errors, [{ row: 2, field: '(csv)', message: `row 2 is longer than ${MAX_CSV_RECORD_CHARS} characters` }]);
});
