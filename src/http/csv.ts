/** RFC 4180 CSV: reading uploads (quotes, doubled quotes, CRLF or LF, a leading BOM) and writing results. */

export class CsvError extends Error {
  /** tooLong: the text has more records than the limit allows (the message counts them). */
  constructor(
    readonly line: number,
    message: string,
    readonly tooLong = false,
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
}

/** The records of a CSV text; blank lines are skipped. */
export function parseCsv(text: string, limits: CsvLimits = {}): CsvRecord[] {
  const maxCells = limits.maxCells ?? Number.MAX_SAFE_INTEGER;
  const maxRecords = limits.maxRecords ?? Number.MAX_SAFE_INTEGER;
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let row = 1;
  let cells: string[] = [];
  let cell = '';
  let start = line;
  let startRow = row;
  let quoted = false;
  let touched = false;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '' || touched) {
      if (records.length >= maxRecords) throw new CsvError(start, `more than ${maxRecords} records`, true);
      records.push({ line: start, row: startRow, cells });
    }
    cells = [];
    cell = '';
    touched = false;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvError(line, `line ${line}: unexpected character after a closing quote`);
        }
        continue;
      }
      if (ch === '\n') line++;
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      touched = true;
      i++;
    } else if (ch === ',') {
      if (cells.length + 1 >= maxCells) throw new CsvError(start, `line ${start} has more than ${maxCells} values`);
      cells.push(cell);
      cell = '';
      touched = true;
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      row++;
      start = line;
      startRow = row;
    } else {
      cell += ch;
      i++;
    }
  }
  if (quoted) throw new CsvError(start, `line ${start}: a quoted value is not closed`);
  if (cell !== '' || cells.length > 0 || touched) endRecord();
  return records;
}

/**
 * One CSV line. Text that a spreadsheet would run as a formula (=, +, -, @, tab or CR first) gets a
 * leading apostrophe: result files are opened in spreadsheets, and payer-supplied text is not ours.
 */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return values
    .map((v) => {
      if (v === null || v === undefined) return '';
      if (typeof v !== 'string') return String(v);
      const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(',');
}
