/**
 * The CSV reader as it was before issue 23 (src/http/csv.ts at 8b52e0c): one character at a time.
 * Kept as the oracle the rewrite is compared with (test/batch/csv-reader.test.ts) and as the
 * reference of bench/csv-stall.ts.
 */
import { CsvError, type CsvLimits, type CsvRecord } from '../../src/formats/csv.ts';

export function referenceParseCsv(text: string, limits: Pick<CsvLimits, 'maxCells' | 'maxRecords'> = {}): CsvRecord[] {
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
