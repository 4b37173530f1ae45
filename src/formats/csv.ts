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
  const maxCells = limits.maxCells ?? Number.MAX_SAFE_INTEGER;
  const maxRecords = limits.maxRecords ?? Number.MAX_SAFE_INTEGER;
  const maxValue = limits.maxValueChars ?? Number.MAX_SAFE_INTEGER;
  const maxRecord = limits.maxRecordChars ?? Number.MAX_SAFE_INTEGER;
  const n = text.length;
  const comma = new NextOf(text, ',');
  const lf = new NextOf(text, '\n');
  const cr = new NextOf(text, '\r');
  const quote = new NextOf(text, '"');
  const records: CsvRecord[] = [];
  /** Records read, kept or not; and whether they are kept. */
  let count = 0;
  let keep = true;
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
    const start = line;
    const startRow = row;
    const recordStart = i;
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
      break;
    }
    if (cells.length > 1 || cells[0] !== '' || touched) {
      if (count >= maxRecords) throw new CsvError(start, `more than ${maxRecords} records`, true);
      count++;
      if (keep) {
        const record = { line: start, row: startRow, cells };
        records.push(record);
        if (count === 1 && keepAfter) keep = keepAfter(record);
      }
    }
    if (i < n) {
      i += text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      row++;
    }
  }
  return records;
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
