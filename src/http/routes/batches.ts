/**
 * POST /v1/batches, GET /v1/batches/{id}, GET /v1/batches/{id}/results and DELETE /v1/batches/{id}
 * (docs/batch.md). A batch belongs to the owner of the key that created it (a rotated key's
 * successor reaches it too): any other key gets 404, as for an unknown id.
 */
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outcomeOf } from '../../domain/batch.ts';
import {
  BatchCreated,
  BatchCreateRequest,
  BatchErrorResponse,
  BatchParams,
  BatchProgress,
  BatchResults,
  BatchResultsQuery,
  BatchCreateQuery,
  type OutcomeCount,
} from '../../domain/schemas/batches.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { payerKeyOf } from '../../operations/batch-check.ts';
import type { PayerNetwork } from '../../payers/network.ts';
import type { Batch, BatchStore, StoredRow } from '../../store/batches.ts';
import { ownerOf } from '../../store/keys.ts';
import { csvUpload, jsonUpload, type RowError } from '../../formats/batch-input.ts';
import { inSlices } from '../../formats/slices.ts';
import { resultCsvHeader, resultCsvLine, uploadRow, type CsvContext } from '../batches/batch-results-csv.ts';
import { CSV_BOM, resultsFileName, uploadName } from '../../formats/spreadsheet-cells.ts';
import { createCheckValidator } from '../check-validator.ts';
import { HttpErrors } from '../errors.ts';
import { nextTurn } from '../next-turn.ts';
import { textBodyParser } from '../text-body.ts';
import { dateOf, systemClock, type Clock } from '../../domain/clock.ts';

export interface BatchRouteOptions {
  store: BatchStore;
  network: PayerNetwork;
  /** Rows a key may have waiting or running across its batches: its batch budget. */
  maxQueuedRows: number;
  /** Tells the runner of this instance that rows were queued. */
  wake: () => void;
  /** Batches a key may create per minute (COVERAGE_BATCH_CREATE_PER_MINUTE); each costs a parse of up to 8 MiB. */
  createPerMinute?: number;
  /** The service's clock: rows with a date of birth after its day are refused at upload; the machine's by default. */
  clock?: Clock;
}

export const DEFAULT_BATCH_CREATES_PER_MINUTE = 20;

/** 10,000 JSON checks with long names stay well under this; CSV is smaller. */
const BODY_LIMIT = 8 * 1024 * 1024;

const links = (id: string) => ({ progress_url: `/v1/batches/${id}`, results_url: `/v1/batches/${id}/results` });

type BatchStatus = 'queued' | 'running' | 'completed' | 'cancelled';

async function progressOf(store: BatchStore, batch: Batch) {
  const counts = await store.counts(batch.id);
  const sum = (state: string) => counts.filter((c) => c.state === state).reduce((n, c) => n + c.count, 0);
  const done = sum('done');
  const running = sum('running');
  const pending = sum('pending');
  const cancelled = sum('cancelled');
  const status: BatchStatus = cancelled > 0 ? 'cancelled' : done === batch.total ? 'completed' : done + running === 0 ? 'queued' : 'running';
  const finished = pending + running === 0;
  const outcomes: OutcomeCount[] = counts
    .filter((c) => c.state === 'done')
    .map((c) => ({ outcome: outcomeOf(c.error_code), status: c.status ?? 0, error_code: c.error_code, count: c.count }))
    .sort((a, b) => a.status - b.status || a.outcome.localeCompare(b.outcome));
  return {
    id: batch.id,
    status,
    source: batch.source,
    created_at: batch.created_at,
    completed_at: finished ? await store.lastFinishedAt(batch.id) : null,
    total: batch.total,
    done,
    running,
    pending,
    cancelled,
    outcomes,
    ...links(batch.id),
  };
}

/** Bounded whatever was sent: at most three upload errors and ten row numbers are named. */
function invalidMessage(errors: RowError[], errorCount: number, invalidRows: number[]): string {
  if (invalidRows.length === 0) {
    const named = errors
      .slice(0, 3)
      .map((e) => `${e.field} ${e.message}`)
      .join('; ');
    const more = errorCount > 3 ? ` and ${errorCount - 3} more` : '';
    return `The batch is invalid: ${named}${more}. Nothing was queued`;
  }
  const shown = invalidRows.slice(0, 10).join(', ');
  const more = invalidRows.length > 10 ? ` and ${invalidRows.length - 10} more` : '';
  return `${invalidRows.length} row${invalidRows.length === 1 ? ' is' : 's are'} invalid (row${invalidRows.length === 1 ? '' : 's'} ${shown}${more}); nothing was queued`;
}

function resultJsonChunk(r: StoredRow, source: 'csv' | 'json'): string {
  return `{"row":${uploadRow(r.row_no, source)},"endpoint":${JSON.stringify(r.endpoint)},"state":"${r.state}","request":${JSON.stringify(r.request)},"status":${r.status ?? 'null'},"error_code":${JSON.stringify(r.error_code)},"body":${r.result ?? 'null'}}`;
}

async function* jsonResults(head: Record<string, unknown>, rows: AsyncIterable<StoredRow>, source: 'csv' | 'json'): AsyncGenerator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},"results":[`;
  let first = true;
  for await (const r of rows) {
    yield (first ? '\n' : ',\n') + resultJsonChunk(r, source);
    first = false;
  }
  yield '\n]}\n';
}

async function* csvResults(rows: AsyncIterable<StoredRow>, context: CsvContext): AsyncGenerator<string> {
  yield `${CSV_BOM}${resultCsvHeader(context.env)}\r\n`;
  for await (const r of rows) yield `${resultCsvLine(r, context)}\r\n`;
}

const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/i.test(request.headers.accept ?? '');

export async function registerBatchRoutes(app: FastifyInstance, options: BatchRouteOptions): Promise<void> {
  const validate = createCheckValidator(options.clock);

  await app.register(async (scope) => {
    // CSV uploads arrive as text; elsewhere the API takes JSON only.
    scope.addContentTypeParser('text/csv', textBodyParser(BODY_LIMIT));
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();

    const owned = async (id: string, request: FastifyRequest): Promise<Batch> => {
      const batch = await options.store.get(id, ownerOf(request.apiKey!));
      if (!batch) throw HttpErrors.noBatch(id);
      return batch;
    };

    api.post(
      '/v1/batches',
      {
        bodyLimit: BODY_LIMIT,
        // Its own per-key budget, counted before the body is read (auth has run: the bucket is the key's).
        config: {
          rateLimit: {
            max: options.createPerMinute ?? DEFAULT_BATCH_CREATES_PER_MINUTE,
            timeWindow: 60_000,
            keyGenerator: (request: FastifyRequest) => `batch-create:${request.apiKey?.id ?? request.ip}`,
            errorResponseBuilder: (_request: FastifyRequest, context: { max: number; after: string }) =>
              Object.assign(new Error(`At most ${context.max} batches a minute may be created with a key; retry in ${context.after}`), { statusCode: 429 }),
          },
        },
        // Rows are validated one by one below, so each error can name its row.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'createBatch',
          'x-success-description': 'Queued: the batch id, with where to read its progress (also the `Location` header) and its results.',
          tags: ['batches'],
          summary: 'Queue up to 10,000 checks to run in the background',
          querystring: BatchCreateQuery,
          description:
            'Send `{"checks": [{"endpoint", "request"}, ...]}` as JSON, or the rows as `text/csv` with the header of docs/batch.md. Every row is validated first: if any is invalid, nothing is queued and the 400 lists each error with its row. Answers 202 with the batch id; rows run in the background, bounded per payer, and do not count against the key\'s per-minute checks. `?filename=` gives the upload\'s name, which names the results file.',
          body: {
            content: {
              'application/json': { schema: BatchCreateRequest },
              'text/csv': { schema: { type: 'string', description: 'A header line, then one check per line (docs/batch.md)' } },
            },
          },
          response: { 202: BatchCreated, 400: BatchErrorResponse, 401: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse },
        },
      },
      async (request, reply) => {
        const body: unknown = request.body;
        const source = typeof body === 'string' ? 'csv' : 'json';
        // Read and validated in slices, keeping where each CSV row starts rather than the row: a 10,000-row upload holds
        // neither other requests nor 10,000 checks (docs/batch.md, "Uploads and other requests").
        const input = await inSlices(typeof body === 'string' ? csvUpload(body, validate) : jsonUpload(body, validate), nextTurn);
        if (!input.ok) throw HttpErrors.invalid(invalidMessage(input.errors, input.errorCount, input.invalidRows)).with({ errors: input.errors });
        const key = request.apiKey!;
        const owner = ownerOf(key);
        const queued = await options.store.unfinishedRows(owner);
        if (queued + input.total > options.maxQueuedRows) {
          throw HttpErrors.batchRowsQueued(queued, options.maxQueuedRows).with({ retryAfterSeconds: 60 });
        }
        const { network } = options;
        const checks = input.checks;
        const rows = {
          *[Symbol.iterator]() {
            for (const check of checks()) yield { check, payerKey: payerKeyOf(network, check.endpoint, check.request) };
          },
        };
        // A console sign-in runs under a key-shaped principal; the person is kept for the rows' audit records.
        const userId = (request as { user?: { id: string } | null }).user?.id ?? null;
        const name = uploadName((request.query as Record<string, unknown> | undefined)?.filename);
        // Each slice of rows is built, sealed and written, then let go (store/batches.ts createFrom).
        const batch = await options.store.createFrom(
          { keyId: key.id, ownerId: owner, env: key.env, userId, source, name, total: input.total, rows },
          dateOf(options.clock ?? systemClock),
          nextTurn,
        );
        options.wake();
        reply.code(202).header('location', `/v1/batches/${batch.id}`);
        return { id: batch.id, status: 'queued' as const, total: batch.total, created_at: batch.created_at, ...links(batch.id) };
      },
    );

    api.get(
      '/v1/batches/:id',
      {
        schema: {
          operationId: 'getBatch',
          'x-success-description': 'The progress of the batch.',
          tags: ['batches'],
          summary: 'Progress of a batch, with finished rows counted by outcome',
          description:
            'How far a batch is: rows done, running, pending and cancelled, and the finished rows counted by outcome (`OK` or the error_code they answered with). `status` is `completed` once every row has its result, or `cancelled` after a cancel; `completed_at` is when the last row finished. A batch belongs to the owner of the key that created it: a key that replaced it by rotation reaches it too.',
          params: BatchParams,
          response: { 200: BatchProgress, 401: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const batch = await owned(request.params.id, request);
        return progressOf(options.store, batch);
      },
    );

    api.delete(
      '/v1/batches/:id',
      {
        schema: {
          operationId: 'cancelBatch',
          'x-success-description': 'The progress of the batch after the cancel.',
          tags: ['batches'],
          summary: 'Cancel a batch: rows not started end as cancelled; rows being checked finish',
          description:
            'Answers the progress after the cancel. Cancelling a batch whose rows have all finished changes nothing. Revoking the key that created a batch cancels it the same way, within seconds.',
          params: BatchParams,
          response: { 200: BatchProgress, 401: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const batch = await owned(request.params.id, request);
        const cancelled = await options.store.cancel(batch.id);
        if (cancelled > 0) request.log.info({ batch_id: batch.id, rows: cancelled }, 'batch cancelled');
        return progressOf(options.store, batch);
      },
    );

    api.get(
      '/v1/batches/:id/results',
      {
        schema: {
          operationId: 'getBatchResults',
          'x-success-description': 'The rows in row order: JSON, or with `accept: text/csv` one spreadsheet line per row.',
          tags: ['batches'],
          summary: 'One result per row, in row order: JSON, or CSV with accept: text/csv',
          description:
            'Each row carries the HTTP status and body its endpoint answered with (null while the row waits, and for a cancelled row). `outcome` selects rows by `OK`, an error_code, `PENDING` or `CANCELLED`; `offset` and `limit` page through them. With `accept: text/csv` the answer is a spreadsheet of the main fields, money in dollars.',
          params: BatchParams,
          querystring: BatchResultsQuery,
          response: {
            200: {
              content: {
                'application/json': { schema: BatchResults },
                'text/csv': {
                  schema: {
                    type: 'string',
                    description: `With accept: text/csv. This header line, then one line per row (money in dollars; a sandbox batch's file leads with a \`sandbox\` column): ${resultCsvHeader()}`,
                  },
                },
              },
            },
            401: ErrorResponse,
            404: ErrorResponse,
          },
        },
      },
      async (request, reply) => {
        const batch = await owned(request.params.id, request);
        const q = request.query;
        const outcome = q.outcome?.trim() ? q.outcome.trim().toUpperCase() : undefined;
        const selection = { outcome, offset: q.offset ? Number(q.offset) : 0, limit: q.limit ? Math.max(0, Number(q.limit)) : batch.total };
        const rows = options.store.rows(batch.id, selection);
        if (wantsCsv(request)) {
          reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${resultsFileName(batch.name, batch.created_at)}"`);
          return (reply as FastifyReply).send(Readable.from(csvResults(rows, { source: batch.source, env: batch.env, today: options.clock?.today() ?? null })));
        }
        const { status } = await progressOf(options.store, batch);
        reply.type('application/json; charset=utf-8');
        return (reply as FastifyReply).send(
          Readable.from(jsonResults({ id: batch.id, status, total: batch.total, offset: selection.offset }, rows, batch.source)),
        );
      },
    );
  });
}
