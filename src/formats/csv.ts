/** RFC 4180 CSV: reading uploads (quotes, doubled quotes, CRLF or LF, a leading BOM) and writing results. */
import { runThrough, type Sliced } from './slices.ts';
import { EXCEL_TEXT_FORMULA } from './spreadsheet-cells.ts';

export class CsvError extends Error {
  /** tooLong: the text has more records than the limit allows (the message counts them). */
  constructor(
    readonly line: number,
    message: string,
    readonly tooLong = false,
    /** The spreadsheet row, when the error is a value or line past its length limit. */
    readonly row?: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  /**
   * 1-based row a spreadsheet shows it on: as line, except that line breaks inside quoted values
   * do not start rows (blank lines do).
   */
  row: number;
  cells: string[];
}

/** Bounds on what one upload may hold, so a hostile file costs no more than a real schedule. */
export interface CsvLimits {
  /** Values in one record; past it the whole text is refused. */
  maxCells?: number;
  /** Records (header included); past it the whole text is refused. */
  maxRecords?: number;
  /** Characters of one value (quotes undone); past it the whole text is refused, naming the row. */
  maxValueChars?: number;
  /** Characters of one record as written (its line break excluded); past it the whole text is refused, naming the row. */
  maxRecordChars?: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The position of the next occurrence of one character at or after a point, found with indexOf and
 * remembered, so a scan that asks again and again walks the text once per character sought.
 */
class NextOf {
  private at = -1;
  constructor(
    private readonly text: string,
    private readonly char: string,
  ) {}

  from(i: number): number {
    if (this.at < i && this.at !== Infinity) {
      const found = this.text.indexOf(this.char, i);
      this.at = found === -1 ? Infinity : found;
    }
    return this.at;
  }
}

/** Lines (records or blank) read between two yields of csvRecords, and characters. */
const LINES_PER_SLICE = 4_096;
const CHARS_PER_SLICE = 256 * 1024;

/**
 * The records of a CSV text; blank lines are skipped. Values are found with indexOf and cut out
 * with slice, and a value or record past its limit is refused as soon as its end is found, so an
 * upload costs time in proportion to its size whatever it holds.
 */
export function parseCsv(text: string, limits: CsvLimits = {}): CsvRecord[] {
  return runThrough(csvRecords(text, limits));
}

/**
 * parseCsv, yielding every few thousand lines (slices.ts): what a server reads an upload with.
 * `keepAfter`, given the first record (the header), says whether the records after it are wanted:
 * when it says no they are still read (every limit and error is as it would be) but not kept, so a
 * file refused for its header leaves no rows to the garbage collector.
 */
export function* csvRecords(text: string, limits: CsvLimits = {}, keepAfter?: (header: CsvRecord) => boolean): Sliced<CsvRecord[]> {
  const records: CsvRecord[] = [];
  let keep = true;
  yield* csvScan(text, limits, (record) => {
    if (!keep) return;
    records.push(record);
    if (records.length === 1 && keepAfter) keep = keepAfter(record);
  });
  return records;
}

/**
 * The reading of csvRecords, handing each record to `visit` as it is read, with the offset in the
 * text where it starts (csvRecordsAt reads it again from there), instead of keeping it: a caller
 * that keeps only offsets keeps no strings per row (docs/batch.md, "Uploads and other requests").
 * Every limit and error is csvRecords'.
 */
export function* csvScan(text: string, limits: CsvLimits, visit: (record: CsvRecord, start: number) => void): Sliced<void> {
  const maxRecords = limits.maxRecords ?? Number.MAX_SAFE_INTEGER;
  const reader = new RecordReader(text, limits);
  const n = text.length;
  /** Records read. */
  let count = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let row = 1;
  let lines = 0;
  let sliceStart = i;
  while (i < n) {
    if (++lines >= LINES_PER_SLICE || i - sliceStart >= CHARS_PER_SLICE) {
      lines = 0;
      sliceStart = i;
      yield;
    }
    const first = text.charCodeAt(i);
    if (first === LF || first === CR) {
      // A blank line: skipped without building a record (a file of nothing but line breaks is read quickly).
      i += first === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      row++;
      continue;
    }
    const start = i;
    const startLine = line;
    const { cells, touched, end, lines: more } = reader.read(i, line, row);
    i = end;
    line += more;
    if (cells.length > 1 || cells[0] !== '' || touched) {
      if (count >= maxRecords) throw new CsvError(startLine, `more than ${maxRecords} records`, true);
      count++;
      visit({ line: startLine, row, cells }, start);
    }
    if (i < n) {
      i += text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      row++;
    }
  }
}

/**
 * The cells of records csvScan read, again, from the offsets it gave, in increasing order: one
 * record at a time, so a caller builds what it needs of a few rows and lets them go. The text must
 * be the one scanned (its records were read within the limits then).
 */
export class CsvRecordsAt {
  private readonly reader: RecordReader;
  private last = -1;

  constructor(text: string) {
    this.reader = new RecordReader(text, {});
  }

  cells(start: number): string[] {
    if (start <= this.last) throw new Error('CSV records are read again in increasing order');
    this.last = start;
    return this.reader.read(start, 1, 1).cells;
  }
}

/** Reads one record (not a blank line) from where it starts: its values, up to the line break after it or the end of the text. */
class RecordReader {
  private readonly maxCells: number;
  private readonly maxValue: number;
  private readonly maxRecord: number;
  private readonly comma: NextOf;
  private readonly lf: NextOf;
  private readonly cr: NextOf;
  private readonly quote: NextOf;

  constructor(
    private readonly text: string,
    limits: CsvLimits,
  ) {
    this.maxCells = limits.maxCells ?? Number.MAX_SAFE_INTEGER;
    this.maxValue = limits.maxValueChars ?? Number.MAX_SAFE_INTEGER;
    this.maxRecord = limits.maxRecordChars ?? Number.MAX_SAFE_INTEGER;
    this.comma = new NextOf(text, ',');
    this.lf = new NextOf(text, '\n');
    this.cr = new NextOf(text, '\r');
    this.quote = new NextOf(text, '"');
  }

  /**
   * `start` and `startRow` (the line and row where the record starts) name it in errors. Answers its
   * cells, whether it held a quote or a comma (one empty value without either is no record), the
   * offset of its end (its line break, or the end of the text) and the line breaks inside its quoted
   * values.
   */
  read(recordStart: number, start: number, startRow: number): { cells: string[]; touched: boolean; end: number; lines: number } {
    const { text, maxCells, maxValue, maxRecord, comma, lf, cr, quote } = this;
    const n = text.length;
    let line = start;
    let i = recordStart;
    const cells: string[] = [];
    let touched = false;
    // One value per turn, up to the comma or line break after it (or the end of the text).
    for (;;) {
      let cell: string;
      if (text.charCodeAt(i) === QUOTE) {
        touched = true;
        const parts: string[] = [];
        let length = 0;
        let j = i + 1;
        for (;;) {
          const q = quote.from(j);
          if (q === Infinity) throw new CsvError(start, `line ${start}: a quoted value is not closed`);
          const doubled = text.charCodeAt(q + 1) === QUOTE;
          length += q - j + (doubled ? 1 : 0);
          // Before the line breaks inside are counted: a value past its limit is refused without walking it.
          if (length > maxValue) throw valueTooLong(start, startRow, maxValue);
          if (q - recordStart > maxRecord) throw recordTooLong(start, startRow, maxRecord);
          for (let k = lf.from(j); k < q; k = lf.from(k + 1)) line++;
          parts.push(text.slice(j, doubled ? q + 1 : q));
          j = q + (doubled ? 2 : 1);
          if (!doubled) break;
        }
        cell = parts.length === 1 ? parts[0]! : parts.join('');
        i = j;
        const next = text.charCodeAt(i);
        if (i < n && next !== COMMA && next !== LF && next !== CR) throw new CsvError(line, `line ${line}: unexpected character after a closing quote`);
      } else {
        const end = Math.min(comma.from(i), lf.from(i), cr.from(i), n);
        if (end - i > maxValue) throw valueTooLong(start, startRow, maxValue);
        if (end - recordStart > maxRecord) throw recordTooLong(start, startRow, maxRecord);
        cell = text.slice(i, end);
        i = end;
      }
      const ch = text.charCodeAt(i);
      if (ch === COMMA) {
        if (cells.length + 1 >= maxCells) throw new CsvError(start, `line ${start} has more than ${maxCells} values`);
        cells.push(cell);
        touched = true;
        i++;
        continue;
      }
      cells.push(cell);
      return { cells, touched, end: i, lines: line - start };
    }
  }
}

const valueTooLong = (line: number, row: number, max: number) => new CsvError(line, `row ${row} has a value longer than ${max} characters`, false, row);
const recordTooLong = (line: number, row: number, max: number) => new CsvError(line, `row ${row} is longer than ${max} characters`, false, row);

/**
 * One CSV line. Text that a spreadsheet would run as a formula (=, +, -, @, tab or CR first) gets a
 * leading apostrophe: result files are opened in spreadsheets, and payer-supplied text is not ours.
 */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return values
    .map((v) => {
      if (v === null || v === undefined) return '';
      if (typeof v !== 'string') return String(v);
      // excelSafeId's ="00123" is one string constant: it runs nothing, and keeps a member ID's zeros.
      const safe = /^[=+\-@\t\r]/.test(v) && !EXCEL_TEXT_FORMULA.test(v) ? `'${v}` : v;
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(',');
}
