/**
 * POST /v1/monitors/bulk (docs/monitoring.md): many monitors at once, as JSON ({"monitors": [...]})
 * or as a schedule CSV (the batch columns plus appointment_date, one line per appointment). A
 * schedule's lines of one patient (the same request and reference) make one monitor with all their
 * appointments. Every row is validated first: one invalid row refuses the upload, and nothing is made.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatchErrorResponse } from '../../domain/schemas/batches.ts';
import {
  MAX_BULK_MONITORS,
  MonitorCreateRequest,
  MonitorsCreated,
  MonitorsCreateRequest,
  type MonitorCreateRequest as MonitorBody,
} from '../../domain/schemas/monitors.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { pastAppointmentsProblem, type MonitorSchedule } from '../../domain/monitoring/schedule.ts';
import { payerKeyOf } from '../../operations/batch-check.ts';
import { ownerOf } from '../../store/keys.ts';
import { createAjv } from '../ajv.ts';
import { csvBatch, type RowError } from '../../formats/batch-input.ts';
import { inSlices, type Sliced } from '../../formats/slices.ts';
import { createCheckValidator } from '../check-validator.ts';
import { HttpErrors } from '../errors.ts';
import { dateCell } from '../../formats/spreadsheet-cells.ts';
import { fieldErrors } from '../validation-errors.ts';
import { nextTurn } from '../next-turn.ts';
import { textBodyParser } from '../text-body.ts';
import { jsonInSlices } from '../json-slices.ts';
import { DEFAULT_MONITOR_BULK_PER_MINUTE, type MonitorRouteOptions } from './monitor-options.ts';
import { dateOf } from '../../domain/clock.ts';

const BODY_LIMIT = 8 * 1024 * 1024;
const LISTED = 100;
/** Rows read between two turns handed to the event loop (docs/monitoring.md). */
const ROWS_PER_SLICE = 250;

type Plan = { ok: true; planned: Planned[] } | { ok: false; errors: RowError[] };

interface Planned {
  request: Record<string, unknown>;
  reference: string | null;
  schedule: MonitorSchedule;
  rows: number[];
}

/** Lines of one patient (the same request and reference) become one monitor with all their appointments. */
function* fromSchedule(text: string, validate: ReturnType<typeof createCheckValidator>, today: string): Sliced<Plan> {
  const input = yield* csvBatch(text, validate, ['appointment_date', 'reference']);
  if (!input.ok) return { ok: false, errors: input.errors };
  const errors: RowError[] = [];
  const byPatient = new Map<string, Planned>();
  for (const [i, check] of input.checks.entries()) {
    if (i > 0 && i % ROWS_PER_SLICE === 0) yield;
    const { row, extras } = input.rows![i]!;
    if (check.endpoint !== 'estimate') {
      errors.push({ row, field: 'endpoint', message: 'a monitor re-checks an estimate: leave endpoint blank or write estimate' });
      continue;
    }
    const date = extras.appointment_date ?? '';
    if (date === '') {
      errors.push({ row, field: 'appointment_date', message: 'is required: the date of the visit (MM/DD/YYYY or YYYY-MM-DD)' });
      continue;
    }
    const cell = dateCell(date);
    if (!cell.ok) {
      errors.push({ row, field: 'appointment_date', message: cell.message });
      continue;
    }
    const reference = (extras.reference ?? '').slice(0, 100) || null;
    const key = JSON.stringify([check.request, reference]);
    const planned = byPatient.get(key) ?? { request: check.request, reference, schedule: { appointments: [] }, rows: [] };
    if (!planned.schedule.appointments!.includes(cell.value)) planned.schedule.appointments!.push(cell.value);
    planned.rows.push(row);
    byPatient.set(key, planned);
  }
  if (input.checks.length === 0) errors.push({ field: '(csv)', message: 'must hold at least one appointment' });
  for (const p of byPatient.values()) {
    p.schedule.appointments!.sort();
    const past = pastAppointmentsProblem(p.schedule, today);
    if (past) errors.push({ row: p.rows[0]!, field: 'appointment_date', message: past });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, planned: [...byPatient.values()] };
}

const compileMonitorValidator = () => createAjv().compile(MonitorCreateRequest);

export async function registerMonitorBulkRoute(app: FastifyInstance, options: MonitorRouteOptions): Promise<void> {
  const validate = createCheckValidator(options.deps.clock);
  // Compiled at the first bulk upload, not at start (bench/RESULTS.md, "Start-up and memory, cut on 2026-11-27").
  let validateMonitor: ReturnType<typeof compileMonitorValidator> | undefined;

  const fromJson = function* (body: unknown): Sliced<Plan> {
    const list = (body as { monitors?: unknown } | null)?.monitors;
    if (typeof body !== 'object' || body === null || !Array.isArray(list) || Object.keys(body).some((k) => k !== 'monitors')) {
      return { ok: false, errors: [{ field: 'monitors', message: 'the body must be {"monitors": [...]}' }] };
    }
    if (list.length === 0 || list.length > MAX_BULK_MONITORS)
      return { ok: false, errors: [{ field: 'monitors', message: `must hold 1 to ${MAX_BULK_MONITORS} monitors` }] };
    const validateItem = (validateMonitor ??= compileMonitorValidator());
    const errors: RowError[] = [];
    const planned: Planned[] = [];
    for (const [i, item] of (list as unknown[]).entries()) {
      if (i > 0 && i % ROWS_PER_SLICE === 0) yield;
      const row = i + 1;
      if (!validateItem(item)) {
        errors.push(...fieldErrors(validateItem.errors ?? []).map((e) => ({ row, ...e })));
        continue;
      }
      const { schedule, reference, ...request } = item as MonitorBody;
      if (!schedule.appointments?.length && schedule.every_days === undefined) {
        errors.push({ row, field: 'schedule', message: 'must have appointments or every_days' });
        continue;
      }
      for (const e of validate('estimate', request)) errors.push({ row, ...e });
      const past = pastAppointmentsProblem(schedule, options.deps.clock.today());
      if (past) errors.push({ row, field: 'schedule.appointments', message: past });
      planned.push({ request, reference: reference ?? null, schedule, rows: [row] });
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, planned };
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser('text/csv', textBodyParser(BODY_LIMIT));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/v1/monitors/bulk',
      {
        bodyLimit: BODY_LIMIT,
        // Its own per-key budget, counted before the body is read (auth has run: the bucket is the key's).
        config: {
          rateLimit: {
            max: options.bulkPerMinute ?? DEFAULT_MONITOR_BULK_PER_MINUTE,
            timeWindow: 60_000,
            keyGenerator: (request: FastifyRequest) => `monitor-bulk:${request.apiKey?.id ?? request.ip}`,
            errorResponseBuilder: (_request: FastifyRequest, context: { max: number; after: string }) =>
              Object.assign(new Error(`At most ${context.max} bulk monitor uploads a minute may be made with a key; retry in ${context.after}`), {
                statusCode: 429,
              }),
          },
        },
        // Validated below, row by row, so each error names its row.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'createMonitors',
          'x-success-description': 'Created: one monitor per patient, with the rows it was made from. Each makes its first check right away.',
          tags: ['monitors'],
          summary: "Watch many patients at once: JSON, or tomorrow's schedule as CSV",
          description:
            'Send `{"monitors": [...]}` (each a createMonitor body), or a schedule as `text/csv`: the columns of a batch upload (docs/batch.md) and `appointment_date` (MM/DD/YYYY or YYYY-MM-DD), optionally `reference`, one line per appointment; lines of one patient become one monitor with all their appointments, checked 3 days before and on the day. Every row is validated first: if any is invalid nothing is created and the 400 names each row and field.',
          body: {
            content: {
              'application/json': { schema: MonitorsCreateRequest },
              'text/csv': {
                schema: {
                  type: 'string',
                  description: 'The batch columns (docs/batch.md) and appointment_date, optionally reference; one line per appointment',
                },
              },
            },
          },
          response: { 201: MonitorsCreated, 400: BatchErrorResponse, 401: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse },
        },
      },
      async (request: FastifyRequest, reply) => {
        const key = request.apiKey!;
        if (key.env === 'production' && !options.store.text.sealing) throw HttpErrors.dataKeyNeeded();
        const owner = ownerOf(key);
        // A key at its limit is refused before its upload is read.
        const before = await options.store.count(owner);
        if (before >= options.maxPerOwner) throw HttpErrors.monitorsAtLimit(before, options.maxPerOwner, null);
        const body: unknown = request.body;
        // Read in slices: a 10,000-line schedule does not hold other requests up (docs/monitoring.md).
        const input = await inSlices(typeof body === 'string' ? fromSchedule(body, validate, options.deps.clock.today()) : fromJson(body), nextTurn);
        if (!input.ok) {
          const rows = [...new Set(input.errors.flatMap((e) => (e.row === undefined ? [] : [e.row])))];
          const what =
            rows.length > 0
              ? `${rows.length} row${rows.length === 1 ? ' is' : 's are'} invalid (row${rows.length === 1 ? '' : 's'} ${rows.slice(0, 10).join(', ')}${rows.length > 10 ? ', …' : ''})`
              : 'The upload is invalid';
          throw HttpErrors.invalid(`${what}; no monitor was created`).with({ errors: input.errors.slice(0, LISTED) });
        }
        const now = dateOf(options.clock);
        const created = await options.store.createWithin(
          input.planned.map((p) => ({
            ownerId: owner,
            keyId: key.id,
            env: key.env,
            payerKey: payerKeyOf(options.deps.network, 'estimate', p.request),
            what: { request: p.request, reference: p.reference },
            schedule: p.schedule,
            firstCheckAt: now,
          })),
          options.maxPerOwner,
          now,
          nextTurn,
        );
        if ('count' in created) throw HttpErrors.monitorsAtLimit(created.count, options.maxPerOwner, input.planned.length);
        options.wakeDeliveries();
        const answer = { monitors: created.made.map((m, i) => ({ id: m.id, next_check_at: m.next_check_at, rows: input.planned[i]!.rows })) };
        // 10,000 monitors' answer written in slices, and sent as it is (its fields are the schema's).
        reply.code(201).type('application/json; charset=utf-8');
        return jsonInSlices(answer, 'monitors', nextTurn);
      },
    );
  });
}
