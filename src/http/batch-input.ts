/**
 * The rows of POST /v1/batches, from JSON ({"checks": [...]}) or CSV (docs/batch.md), validated
 * up front: a batch with any invalid row is refused whole, each error naming its row and field.
 */
import { MAX_BATCH_ROWS, type BatchCheck } from '../domain/batch.ts';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, OPERATIONS, ScanRequest, type OperationName } from '../domain/schemas/requests.ts';
import type { CheckValidator } from './check-validator.ts';
import { CsvError, parseCsv } from './csv.ts';

export interface RowError {
  /** 1-based row of the batch; absent when the error is about the whole upload. */
  row?: number;
  field: string;
  message: string;
}

export type BatchInput = { ok: true; checks: BatchCheck[] } | { ok: false; errors: RowError[]; invalidRows: number[] };

const SCHEMAS: Record<OperationName, { properties: Record<string, unknown>; required?: readonly string[] }> = {
  estimate: EstimateRequest,
  discover: DiscoverRequest,
  scan: ScanRequest,
  medicaid: MedicaidRequest,
};

/** The CSV columns: the endpoint, then every field any endpoint takes. */
export const CSV_COLUMNS: readonly string[] = ['endpoint', ...new Set(OPERATIONS.flatMap((op) => Object.keys(SCHEMAS[op].properties)))];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOperation = (v: unknown): v is OperationName => typeof v === 'string' && (OPERATIONS as readonly string[]).includes(v);
const ENDPOINT_MESSAGE = `must be one of ${OPERATIONS.join(', ')}`;

function refuse(errors: RowError[]): BatchInput {
  const invalidRows = [...new Set(errors.flatMap((e) => (e.row === undefined ? [] : [e.row])))];
  return { ok: false, errors, invalidRows };
}

function countLimit(count: number, field: string): RowError | null {
  if (count === 0) return { field, message: 'must hold at least one check' };
  if (count > MAX_BATCH_ROWS) return { field, message: `must hold at most ${MAX_BATCH_ROWS} checks, got ${count}` };
  return null;
}

export function fromJson(body: unknown, validate: CheckValidator): BatchInput {
  if (!isObject(body)) return refuse([{ field: '(body)', message: 'must be a JSON object with a checks array, or CSV sent as text/csv' }]);
  const extra = Object.keys(body).filter((k) => k !== 'checks');
  if (extra.length > 0) return refuse(extra.map((field) => ({ field, message: 'is not a field of a batch' })));
  if (!Array.isArray(body.checks)) return refuse([{ field: 'checks', message: 'must be an array of {endpoint, request}' }]);
  const limit = countLimit(body.checks.length, 'checks');
  if (limit) return refuse([limit]);
  const errors: RowError[] = [];
  const checks: BatchCheck[] = [];
  body.checks.forEach((item: unknown, i) => {
    const row = i + 1;
    if (!isObject(item)) {
      errors.push({ row, field: '(check)', message: 'must be an object with endpoint and request' });
      return;
    }
    const before = errors.length;
    for (const key of Object.keys(item)) {
      if (key !== 'endpoint' && key !== 'request') errors.push({ row, field: key, message: 'is not a field of a batch check' });
    }
    if (!isOperation(item.endpoint)) errors.push({ row, field: 'endpoint', message: ENDPOINT_MESSAGE });
    if (!isObject(item.request)) errors.push({ row, field: 'request', message: 'must be a JSON object: the body of the endpoint' });
    if (errors.length > before || !isOperation(item.endpoint) || !isObject(item.request)) return;
    for (const e of validate(item.endpoint, item.request)) errors.push({ row, ...e });
    checks.push({ endpoint: item.endpoint, request: item.request });
  });
  return errors.length > 0 ? refuse(errors) : { ok: true, checks };
}

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** A CSV row as the endpoint's JSON body: blank cells of optional fields are left out, cells of other endpoints' fields ignored. */
function requestFromCells(endpoint: OperationName, values: Map<string, string>): Record<string, unknown> {
  const schema = SCHEMAS[endpoint];
  const required = new Set(schema.required ?? []);
  const request: Record<string, unknown> = {};
  for (const field of Object.keys(schema.properties)) {
    const value = values.get(field) ?? '';
    if (value === '') {
      if (required.has(field)) request[field] = '';
      continue;
    }
    if (field === 'in_network') {
      const lower = value.toLowerCase();
      request[field] = TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
      continue;
    }
    request[field] = value;
  }
  return request;
}

export function fromCsv(text: string, validate: CheckValidator): BatchInput {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) return refuse([{ field: '(csv)', message: err.message }]);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) return refuse([{ field: '(csv)', message: 'is empty; the first line must be the header (docs/batch.md)' }]);
  const columns = header.cells.map((c) => c.trim().toLowerCase());
  const headerErrors: RowError[] = [];
  columns.forEach((name, i) => {
    if (!CSV_COLUMNS.includes(name)) headerErrors.push({ field: 'header', message: `column ${i + 1} "${name}" is not one of ${CSV_COLUMNS.join(', ')}` });
    else if (columns.indexOf(name) !== i) headerErrors.push({ field: 'header', message: `column "${name}" appears twice` });
  });
  if (headerErrors.length > 0) return refuse(headerErrors);
  const limit = countLimit(rows.length, '(csv)');
  if (limit) return refuse([limit]);
  const errors: RowError[] = [];
  const checks: BatchCheck[] = [];
  rows.forEach((record, i) => {
    const row = i + 1;
    if (record.cells.length > columns.length) {
      errors.push({ row, field: '(csv)', message: `line ${record.line} has ${record.cells.length} values; the header has ${columns.length} columns` });
      return;
    }
    const values = new Map(columns.map((name, c) => [name, (record.cells[c] ?? '').trim()]));
    // Most rows of a schedule are estimates: a blank endpoint (or no endpoint column) means estimate.
    const endpoint = (values.get('endpoint') || 'estimate').toLowerCase();
    if (!isOperation(endpoint)) {
      errors.push({ row, field: 'endpoint', message: ENDPOINT_MESSAGE });
      return;
    }
    const request = requestFromCells(endpoint, values);
    for (const e of validate(endpoint, request)) errors.push({ row, ...e });
    checks.push({ endpoint, request });
  });
  return errors.length > 0 ? refuse(errors) : { ok: true, checks };
}
