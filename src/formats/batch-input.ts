/**
 * The rows of POST /v1/batches, from JSON ({"checks": [...]}) or CSV (docs/batch.md), validated
 * up front: a batch with any invalid row is refused whole, each error naming its row and field.
 */
import { MAX_BATCH_ROWS, type BatchCheck } from '../domain/batch.ts';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, OPERATIONS, ScanRequest, type OperationName } from '../domain/schemas/requests.ts';
import type { FieldError } from '../domain/errors.ts';
import { CsvError, CsvRecordsAt, csvScan, type CsvRecord } from './csv.ts';
import { runThrough, type Sliced } from './slices.ts';
import { trimFields } from '../domain/trim-fields.ts';
import { centsCell, dateCell, dollarsToCents, looksShortenedByExcel, type Cell } from './spreadsheet-cells.ts';

/** Validates one check's body as its real-time endpoint would (http/check-validator.ts makes the server's). */
export type CheckValidator = (endpoint: OperationName, body: unknown) => FieldError[];

export interface RowError {
  /**
   * The row: in a CSV upload the spreadsheet's row (the header is row 1), in JSON the 1-based
   * check; absent when the error is about the whole upload.
   */
  row?: number;
  field: string;
  message: string;
}

export type BatchInput =
  | {
      ok: true;
      checks: BatchCheck[];
      /** CSV only, one per check: its spreadsheet row, and the cells of the extra columns asked for (monitor schedules' appointment_date). */
      rows?: { row: number; extras: Record<string, string> }[];
    }
  | {
      ok: false;
      /** The first MAX_LISTED_ERRORS errors, each text clipped to MAX_ERROR_TEXT characters. */
      errors: RowError[];
      /** All errors found, listed or not. */
      errorCount: number;
      invalidRows: number[];
    };

/** An upload refused: its errors. */
export type Refusal = Extract<BatchInput, { ok: false }>;

/**
 * Limits that keep a refusal small and quick whatever was sent: an answer lists at most this many
 * errors and clips each text, and a CSV header is checked on its own before the body is read.
 */
export const MAX_LISTED_ERRORS = 100;
export const MAX_ERROR_TEXT = 300;
/** Characters of an echoed column or field name. */
const MAX_NAME_TEXT = 40;
/** The header line of a CSV upload; the full header of every column is under 200. */
export const MAX_HEADER_CHARS = 4096;
/** Columns of a CSV upload, and values of any of its lines. */
export const MAX_COLUMNS = 64;
/** Characters of one CSV value, and of one line; the longest field a check or a schedule takes is 100. */
export const MAX_CSV_VALUE_CHARS = 256;
export const MAX_CSV_RECORD_CHARS = 8_192;

const SCHEMAS: Record<OperationName, { properties: Record<string, unknown>; required?: readonly string[] }> = {
  estimate: EstimateRequest,
  discover: DiscoverRequest,
  scan: ScanRequest,
  medicaid: MedicaidRequest,
};

/**
 * Columns that give the session cost, and the unit each is read in: the API's field is cents,
 * a spreadsheet is usually typed in dollars. One of them per file.
 */
const COST_COLUMNS: Record<string, 'cents' | 'dollars'> = {
  provider_session_cost: 'cents',
  session_cost_cents: 'cents',
  session_cost: 'dollars',
  session_cost_dollars: 'dollars',
};

/** The CSV columns: the endpoint, every field any endpoint takes that a cell can hold (not a course's object), and the other ways to give the session cost. */
export const CSV_COLUMNS: readonly string[] = [
  'endpoint',
  ...new Set([
    ...OPERATIONS.flatMap((op) =>
      Object.entries(SCHEMAS[op].properties)
        .filter(([, schema]) => (schema as { type?: unknown }).type !== 'object')
        .map(([name]) => name),
    ),
    ...Object.keys(COST_COLUMNS),
  ]),
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOperation = (v: unknown): v is OperationName => typeof v === 'string' && (OPERATIONS as readonly string[]).includes(v);
const ENDPOINT_MESSAGE = `must be one of ${OPERATIONS.join(', ')}`;

export const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Collects errors: counts them all, keeps the first few (clipped), and the rows they belong to. */
class Errors {
  readonly listed: RowError[] = [];
  count = 0;
  private readonly rows = new Set<number>();

  add(e: RowError): void {
    this.count++;
    if (e.row !== undefined) this.rows.add(e.row);
    if (this.listed.length < MAX_LISTED_ERRORS) {
      this.listed.push({ ...(e.row === undefined ? {} : { row: e.row }), field: clip(e.field, MAX_NAME_TEXT), message: clip(e.message, MAX_ERROR_TEXT) });
    }
  }

  refuse(): Refusal {
    return { ok: false, errors: this.listed, errorCount: this.count, invalidRows: [...this.rows].sort((a, b) => a - b) };
  }
}

function refuse(errors: RowError[]): Refusal {
  const list = new Errors();
  for (const e of errors) list.add(e);
  return list.refuse();
}

function countLimit(count: number, field: string): RowError | null {
  if (count === 0) return { field, message: 'must hold at least one check' };
  if (count > MAX_BATCH_ROWS) return { field, message: `must hold at most ${MAX_BATCH_ROWS} checks, got ${count}` };
  return null;
}

/** Rows validated between two yields of jsonBatch and csvBatch. */
const ROWS_PER_SLICE = 250;

export function fromJson(body: unknown, validate: CheckValidator): BatchInput {
  return runThrough(jsonBatch(body, validate));
}

/** fromJson, yielding every few hundred rows (slices.ts). */
export function* jsonBatch(body: unknown, validate: CheckValidator): Sliced<BatchInput> {
  if (!isObject(body)) return refuse([{ field: '(body)', message: 'must be a JSON object with a checks array, or CSV sent as text/csv' }]);
  const extra = Object.keys(body).filter((k) => k !== 'checks');
  if (extra.length > 0) return refuse(extra.map((field) => ({ field, message: 'is not a field of a batch' })));
  if (!Array.isArray(body.checks)) return refuse([{ field: 'checks', message: 'must be an array of {endpoint, request}' }]);
  const limit = countLimit(body.checks.length, 'checks');
  if (limit) return refuse([limit]);
  const errors = new Errors();
  const checks: BatchCheck[] = [];
  const items: unknown[] = body.checks;
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % ROWS_PER_SLICE === 0) yield;
    const item = items[i];
    const row = i + 1;
    if (!isObject(item)) {
      errors.add({ row, field: '(check)', message: 'must be an object with endpoint and request' });
      continue;
    }
    const before = errors.count;
    for (const key of Object.keys(item)) {
      if (key !== 'endpoint' && key !== 'request') errors.add({ row, field: key, message: 'is not a field of a batch check' });
    }
    if (!isOperation(item.endpoint)) errors.add({ row, field: 'endpoint', message: ENDPOINT_MESSAGE });
    if (!isObject(item.request)) errors.add({ row, field: 'request', message: 'must be a JSON object: the body of the endpoint' });
    if (errors.count > before || !isOperation(item.endpoint) || !isObject(item.request)) continue;
    trimFields(item.request);
    for (const e of validate(item.endpoint, item.request)) errors.add({ row, ...e });
    checks.push({ endpoint: item.endpoint, request: item.request });
  }
  return errors.count > 0 ? errors.refuse() : { ok: true, checks };
}

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** Fields a spreadsheet turns into numbers: past 11 digits Excel shows them as 1.23457E+09 and exports that. */
const TEXT_NUMBER_FIELDS = new Set(['member_id', 'provider_npi', 'zip']);

/** A cell as the API's value, or why it cannot be read; undefined when the value goes through as typed. */
function readCell(field: string, column: string, value: string): Cell<string> | undefined {
  if (field === 'member_dob' || field === 'date_of_service') return dateCell(value);
  // A spreadsheet reads the place-of-service code 02 as the number 2: the code is always two digits.
  if (field === 'place_of_service' && /^[0-9]$/.test(value)) return { ok: true, value: `0${value}` };
  if (field === 'provider_session_cost') return COST_COLUMNS[column] === 'dollars' ? dollarsToCents(value) : centsCell(value, column);
  if (TEXT_NUMBER_FIELDS.has(field) && looksShortenedByExcel(value)) {
    return { ok: false, message: `"${value}" is a number the spreadsheet shortened; format the ${column} column as Text and export the file again` };
  }
  return undefined;
}

/**
 * A CSV row as the endpoint's JSON body: blank cells of optional fields are left out, cells of
 * other endpoints' fields ignored, dates and amounts read as a spreadsheet writes them.
 * `errors` name the cells that could not be read (the validator is not asked about those fields).
 */
function requestFromCells(
  endpoint: OperationName,
  values: Map<string, string>,
  costColumn: string,
): { request: Record<string, unknown>; errors: { field: string; message: string }[] } {
  const schema = SCHEMAS[endpoint];
  const required = new Set(schema.required ?? []);
  const request: Record<string, unknown> = {};
  const errors: { field: string; message: string }[] = [];
  for (const field of Object.keys(schema.properties)) {
    const column = field === 'provider_session_cost' ? costColumn : field;
    const value = values.get(column) ?? '';
    if (value === '') {
      if (required.has(field)) request[field] = '';
      continue;
    }
    if (field === 'in_network') {
      const lower = value.toLowerCase();
      request[field] = TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
      continue;
    }
    const cell = readCell(field, column, value);
    if (cell && !cell.ok) errors.push({ field: column, message: cell.message });
    request[field] = cell?.ok ? cell.value : value;
  }
  return { request, errors };
}

/** A validator error as a spreadsheet user reads it: a CSV date cell takes MM/DD/YYYY as well as the API's YYYY-MM-DD. */
function spreadsheetWords(e: { field: string; message: string }): { field: string; message: string } {
  if ((e.field === 'member_dob' || e.field === 'date_of_service') && e.message.startsWith('must be a real calendar date in YYYY-MM-DD')) {
    return { field: e.field, message: 'must be a real calendar date, MM/DD/YYYY or YYYY-MM-DD' };
  }
  return e;
}

/** The header line alone, checked before the rest of the text is read: an absurd header costs nothing. */
function headerProblem(text: string): RowError | null {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const head = text.slice(start, start + MAX_HEADER_CHARS + 1);
  const end = head.search(/[\r\n]/);
  if ((end === -1 ? head.length : end) > MAX_HEADER_CHARS) {
    return { field: 'header', message: `the header line is longer than ${MAX_HEADER_CHARS} characters; it names the columns (docs/batch.md)` };
  }
  const columns = head.slice(0, end === -1 ? head.length : end).split(',').length;
  if (columns > MAX_COLUMNS) return { field: 'header', message: `the header has ${columns} columns; at most ${MAX_COLUMNS}` };
  return null;
}

const columnsOf = (header: CsvRecord) => header.cells.map((c) => c.trim().toLowerCase());

function headerErrors(columns: readonly string[], errors: Errors, extraColumns: readonly string[]): void {
  let listedColumns = false;
  const known = [...extraColumns, ...CSV_COLUMNS];
  columns.forEach((name, i) => {
    const quoted = `"${clip(name, MAX_NAME_TEXT)}"`;
    if (!known.includes(name)) {
      // The list of columns is given once, not with every unknown column.
      errors.add({ field: 'header', message: `column ${i + 1} ${quoted} is not ${listedColumns ? 'a known column' : `one of ${known.join(', ')}`}` });
      listedColumns = true;
    } else if (columns.indexOf(name) !== i) errors.add({ field: 'header', message: `column ${quoted} appears twice` });
  });
  const costs = columns.filter((name) => name in COST_COLUMNS);
  if (costs.length > 1) errors.add({ field: 'header', message: `columns ${costs.join(' and ')} both give the session cost; keep one` });
}

export function fromCsv(text: string, validate: CheckValidator, extraColumns: readonly string[] = []): BatchInput {
  return runThrough(csvBatch(text, validate, extraColumns));
}

/** fromCsv, yielding every few thousand lines read and every few hundred rows validated or built (slices.ts). */
export function* csvBatch(text: string, validate: CheckValidator, extraColumns: readonly string[] = []): Sliced<BatchInput> {
  const read = yield* readCsv(text, validate, extraColumns);
  if (!read.ok) return read;
  const checks: BatchCheck[] = [];
  const rows: { row: number; extras: Record<string, string> }[] = [];
  let n = 0;
  for (const { check, row, values } of csvRows(read)) {
    if (n > 0 && n % ROWS_PER_SLICE === 0) yield;
    n++;
    checks.push(check);
    rows.push({ row, extras: Object.fromEntries(extraColumns.map((name) => [name, values.get(name) ?? ''])) });
  }
  return { ok: true, checks, rows };
}

/**
 * A valid upload as POST /v1/batches stores it: how many checks, and the checks themselves one at a
 * time, to be stored a slice at a time (store/batches.ts createFrom) and let go. A CSV upload's are
 * built again from the text (csvUpload); nothing per row is kept in between.
 */
export type BatchUpload = { ok: true; total: number; checks: () => Iterable<BatchCheck> } | Refusal;

/** jsonBatch as a BatchUpload: the checks are the body's own objects, already in memory. */
export function* jsonUpload(body: unknown, validate: CheckValidator): Sliced<BatchUpload> {
  const input = yield* jsonBatch(body, validate);
  if (!input.ok) return input;
  const { checks } = input;
  return { ok: true, total: checks.length, checks: () => checks };
}

/**
 * csvBatch as a BatchUpload, with the same errors: read and validated in slices keeping only where
 * each row starts in the text and its spreadsheet row (two numbers a row, no strings or objects),
 * so 10,000 validated rows are not held (and copied by the young generation's collections) until
 * they are stored; each row's check is built again from the text when it is stored.
 */
export function* csvUpload(text: string, validate: CheckValidator): Sliced<BatchUpload> {
  const read = yield* readCsv(text, validate, []);
  if (!read.ok) return read;
  return {
    ok: true,
    total: read.count,
    checks: function* () {
      for (const { check } of csvRows(read)) yield check;
    },
  };
}

/** Where each row of a CSV upload starts in its text, and its spreadsheet row: what is kept of a row between reading and storing. */
class RowOffsets {
  starts = new Int32Array(1024);
  rows = new Int32Array(1024);
  count = 0;

  push(start: number, row: number): void {
    if (this.count === this.starts.length) {
      const grow = (a: Int32Array) => {
        const bigger = new Int32Array(a.length * 2);
        bigger.set(a);
        return bigger;
      };
      this.starts = grow(this.starts);
      this.rows = grow(this.rows);
    }
    this.starts[this.count] = start;
    this.rows[this.count] = row;
    this.count++;
  }
}

/** A CSV upload read and validated: its columns, and where each of its rows starts. */
interface CsvRead {
  ok: true;
  text: string;
  columns: string[];
  costColumn: string;
  offsets: RowOffsets;
  count: number;
}

/**
 * Reads a CSV upload (csvScan, keeping the header and the offsets of the rows that are not blank),
 * then validates each row, read again from its offset, in slices; the checks built to validate are
 * let go. The errors are those of reading every row and then validating each: a reader's error (an
 * unclosed quote, a value too long, too many rows) refuses the upload before any row is validated.
 */
function* readCsv(text: string, validate: CheckValidator, extraColumns: readonly string[]): Sliced<CsvRead | Refusal> {
  const early = headerProblem(text);
  if (early) return refuse([early]);
  let header: CsvRecord | undefined;
  let keep = true;
  const offsets = new RowOffsets();
  try {
    yield* csvScan(
      text,
      {
        maxCells: MAX_COLUMNS,
        maxRecords: MAX_BATCH_ROWS + 1,
        maxValueChars: MAX_CSV_VALUE_CHARS,
        maxRecordChars: MAX_CSV_RECORD_CHARS,
      },
      (record, start) => {
        if (!header) {
          header = record;
          // A header with errors refuses the upload whatever its rows hold: they are read for the reader's own errors, not kept.
          const errors = new Errors();
          headerErrors(columnsOf(header), errors, extraColumns);
          keep = errors.count === 0;
          return;
        }
        // Excel leaves rows of bare commas (",,,,") below a schedule: empty rows, skipped like blank lines.
        if (keep && record.cells.some((c) => c.trim() !== '')) offsets.push(start, record.row);
      },
    );
  } catch (err) {
    if (err instanceof CsvError)
      return refuse([
        err.tooLong
          ? { field: '(csv)', message: `must hold at most ${MAX_BATCH_ROWS} checks` }
          : { ...(err.row === undefined ? {} : { row: err.row }), field: '(csv)', message: err.message },
      ]);
    throw err;
  }
  if (!header) return refuse([{ field: '(csv)', message: 'is empty; the first line must be the header (docs/batch.md)' }]);
  const columns = columnsOf(header);
  const errors = new Errors();
  headerErrors(columns, errors, extraColumns);
  if (errors.count > 0) return errors.refuse();
  const limit = countLimit(offsets.count, '(csv)');
  if (limit) return refuse([limit]);
  const costColumn = columns.find((name) => name in COST_COLUMNS) ?? 'provider_session_cost';
  const at = new CsvRecordsAt(text);
  for (let n = 0; n < offsets.count; n++) {
    if (n > 0 && n % ROWS_PER_SLICE === 0) yield;
    rowOf(at.cells(offsets.starts[n]!), offsets.rows[n]!, columns, costColumn, { errors, validate });
  }
  if (errors.count > 0) return errors.refuse();
  return { ok: true, text, columns, costColumn, offsets, count: offsets.count };
}

/** The rows of a CSV upload readCsv found valid, each built again from the text as it is asked for. */
function* csvRows(read: CsvRead): Generator<{ check: BatchCheck; row: number; values: Map<string, string> }, void, void> {
  const at = new CsvRecordsAt(read.text);
  for (let n = 0; n < read.count; n++) {
    const row = read.offsets.rows[n]!;
    const built = rowOf(at.cells(read.offsets.starts[n]!), row, read.columns, read.costColumn);
    if (!built) throw new Error(`row ${row} of a CSV upload read as valid does not read again`);
    yield { ...built, row };
  }
}

/**
 * One CSV row as its check, and its values by column; with `check`, its errors are added (the row
 * is numbered as the spreadsheet shows it, so "row 7" is row 7 on screen). Null when the row cannot
 * be a check (too many values, an unknown endpoint).
 */
function rowOf(
  cells: string[],
  row: number,
  columns: readonly string[],
  costColumn: string,
  check?: { errors: Errors; validate: CheckValidator },
): { check: BatchCheck; values: Map<string, string> } | null {
  if (cells.length > columns.length) {
    check?.errors.add({ row, field: '(csv)', message: `row ${row} has ${cells.length} values; the header has ${columns.length} columns` });
    return null;
  }
  const values = new Map(columns.map((name, c) => [name, (cells[c] ?? '').trim()]));
  // Most rows of a schedule are estimates: a blank endpoint (or no endpoint column) means estimate.
  const endpoint = (values.get('endpoint') || 'estimate').toLowerCase();
  if (!isOperation(endpoint)) {
    check?.errors.add({ row, field: 'endpoint', message: ENDPOINT_MESSAGE });
    return null;
  }
  const { request, errors: cellErrors } = requestFromCells(endpoint, values, costColumn);
  if (check) {
    const { errors, validate } = check;
    for (const e of cellErrors) errors.add({ row, ...e });
    const unread = new Set(cellErrors.map((e) => (e.field === costColumn ? 'provider_session_cost' : e.field)));
    for (const e of validate(endpoint, request)) {
      if (!unread.has(e.field)) errors.add({ row, ...(e.field === 'provider_session_cost' ? { ...e, field: costColumn } : spreadsheetWords(e)) });
    }
  }
  return { check: { endpoint, request }, values };
}
