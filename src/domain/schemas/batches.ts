/** The batch API's bodies: POST /v1/batches, its progress and its results (docs/batch.md). */
import { Type, type Static } from 'typebox';
import { MAX_BATCH_ROWS } from '../batch.ts';
import { Literals } from './literals.ts';

const ENDPOINTS = ['estimate', 'discover', 'scan', 'medicaid'] as const;
const Endpoint = Literals(ENDPOINTS, { description: 'The real-time endpoint this row is checked with' });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) => Type.Union([t, Type.Null()], { description });

export const BatchCheck = Type.Object(
  {
    endpoint: Endpoint,
    request: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'The body the endpoint takes in real time (EstimateRequest, DiscoverRequest, ScanRequest or MedicaidRequest)',
      },
    ),
  },
  { additionalProperties: false },
);

export const BatchCreateRequest = Type.Object(
  { checks: Type.Array(BatchCheck, { minItems: 1, maxItems: MAX_BATCH_ROWS }) },
  { additionalProperties: false, $id: 'BatchCreateRequest', description: `Up to ${MAX_BATCH_ROWS} checks; or send the rows as text/csv (docs/batch.md).` },
);

const BatchStatus = Literals(['queued', 'running', 'completed', 'cancelled'] as const, {
  description:
    'queued: no row has started; running: some rows are done or in progress; completed: every row has its result; ' +
    'cancelled: the batch was cancelled (DELETE, or its key was revoked) and its rows not started will not run',
});

const links = {
  progress_url: Type.String({ description: 'GET it for progress' }),
  results_url: Type.String({ description: 'GET it for the results, as JSON or as CSV (accept: text/csv)' }),
};

export const BatchCreated = Type.Object(
  {
    id: Type.String(),
    status: BatchStatus,
    total: Type.Integer({ description: 'Rows queued' }),
    created_at: Type.String({ description: 'ISO 8601 instant, UTC' }),
    ...links,
  },
  { $id: 'BatchCreated' },
);
export type BatchCreated = Static<typeof BatchCreated>;

export const OutcomeCount = Type.Object({
  outcome: Type.String({ description: '`OK` or the error_code the rows answered with' }),
  status: Type.Integer({ description: 'HTTP status the rows answered with' }),
  error_code: nullable(Type.String(), 'error_code of the answers, null for plain 200s'),
  count: Type.Integer(),
});
export type OutcomeCount = Static<typeof OutcomeCount>;

export const BatchProgress = Type.Object(
  {
    id: Type.String(),
    status: BatchStatus,
    source: Literals(['json', 'csv'] as const, { description: 'How the rows were sent' }),
    created_at: Type.String({ description: 'ISO 8601 instant, UTC' }),
    completed_at: nullable(Type.String({ description: 'ISO 8601 instant, UTC' }), 'When the last row finished or was cancelled; null while rows wait or run'),
    total: Type.Integer(),
    done: Type.Integer(),
    running: Type.Integer({ description: 'Rows being checked now' }),
    pending: Type.Integer({ description: 'Rows not started yet' }),
    cancelled: Type.Integer({ description: 'Rows that will not run: the batch was cancelled before they started' }),
    outcomes: Type.Array(OutcomeCount, { description: 'Finished rows counted by status and error_code' }),
    ...links,
  },
  { $id: 'BatchProgress' },
);
export type BatchProgress = Static<typeof BatchProgress>;

export const BatchRowResult = Type.Object({
  row: Type.Integer({
    description:
      "The row as the upload numbers it, the same in the CSV results and in the upload's errors: a CSV upload's " +
      "spreadsheet row (the header is row 1, so the first check is row 2); a JSON upload's 1-based check",
  }),
  endpoint: Endpoint,
  state: Literals(['pending', 'running', 'done', 'cancelled'] as const, { description: 'cancelled: the row never ran (its batch was cancelled)' }),
  request: Type.Object({}, { additionalProperties: true, description: 'The check as it was queued (CSV rows as their JSON body)' }),
  status: nullable(Type.Integer(), 'The HTTP status the endpoint answered with; null until the row is done'),
  error_code: nullable(Type.String(), 'error_code of the answer, if any'),
  body: nullable(Type.Object({}, { additionalProperties: true }), 'The response body the endpoint answered with; null until the row is done'),
});
export type BatchRowResult = Static<typeof BatchRowResult>;

export const BatchResults = Type.Object(
  {
    id: Type.String(),
    status: BatchStatus,
    total: Type.Integer(),
    offset: Type.Integer({ description: 'Rows of the selection skipped (the offset query parameter)' }),
    results: Type.Array(BatchRowResult, { description: 'In row order' }),
  },
  { $id: 'BatchResults' },
);

export const BatchResultsQuery = Type.Object(
  {
    outcome: Type.Optional(
      Type.String({ maxLength: 40, description: 'Only rows with this outcome: OK, an error_code, PENDING for rows waiting or running, or CANCELLED' }),
    ),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'Skip this many rows of the selection' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: `At most this many rows (default and maximum ${MAX_BATCH_ROWS})` })),
  },
  { additionalProperties: false },
);

export const BatchCreateQuery = Type.Object(
  {
    filename: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'The uploaded file\'s name ("schedule.csv"); the CSV of results is then named after it and the day: schedule-2026-11-26-results.csv',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BatchParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** A 400 of POST /v1/batches: like ErrorResponse, with the row each error belongs to. */
export const BatchErrorResponse = Type.Object(
  {
    error_code: Type.String(),
    message: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          row: Type.Optional(Type.Integer({ description: '1-based row of the batch; absent for errors of the whole upload' })),
          field: Type.String(),
          message: Type.String(),
        }),
      ),
    ),
  },
  { $id: 'BatchErrorResponse' },
);
