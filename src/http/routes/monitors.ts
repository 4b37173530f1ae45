/**
 * /v1/monitors (docs/monitoring.md): a patient's coverage re-checked before visits. A monitor
 * belongs to the owner of the key that created it (a rotated key's successor reaches it too); any
 * other key gets 404, as for an unknown id.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Monitor, MonitorCheckResult, MonitorCreated, MonitorCreateRequest, MonitorList, MonitorListQuery, IdParams } from '../../domain/schemas/monitors.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { pastAppointmentsProblem } from '../../domain/monitoring/schedule.ts';
import { payerKeyOf } from '../../operations/batch-check.ts';
import { checkMonitorNow } from '../../operations/monitoring/check-now.ts';
import { ownerOf } from '../../store/keys.ts';
import type { StoredMonitor } from '../../store/monitors.ts';
import { createCheckValidator } from '../check-validator.ts';
import { HttpErrors } from '../errors.ts';
import { registerMonitorBulkRoute } from './monitor-bulk.ts';
import type { MonitorRouteOptions } from './monitor-options.ts';
import { dateOf } from '../../domain/clock.ts';

export type { MonitorRouteOptions };

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

/** "Avery Walsh" from the monitor's request; null when it gave no name (a member-ID-only check) or cannot be read. */
function memberName(m: StoredMonitor): string | null {
  const r = m.what?.request;
  const name = [r?.member_first_name, r?.member_last_name].filter((v): v is string => typeof v === 'string' && v.trim() !== '').join(' ');
  return name === '' ? null : name;
}

/**
 * Names go to a person signed in to the console, who reads the list by name, and to sandbox keys,
 * whose patients are the catalog's made-up members (the sandbox console signs in with a key).
 */
const namesFor = (request: FastifyRequest): boolean => (request.user !== null && request.user !== undefined) || request.apiKey?.env === 'sandbox';

/** withName: for a person signed in to the console; an API key is not answered the names it sent. */
export function presentMonitor(m: StoredMonitor, withName = false) {
  const payer = m.what?.request.payer_id;
  return {
    id: m.id,
    reference: m.what?.reference ?? null,
    member_name: withName ? memberName(m) : null,
    payer_id: typeof payer === 'string' && payer !== '' ? payer : null,
    schedule: m.schedule,
    created_at: m.created_at,
    next_check_at: m.next_check_at,
    checks: m.checks,
    last_check: m.last_check && {
      at: m.last_check.at,
      status: m.last_check.status,
      error_code: m.last_check.error_code,
      plan_status: m.last_check.plan_status,
      member_obligation: m.last_check.member_obligation,
      priced_by: m.last_check.priced_by ?? null,
      changes: m.last_check.changes,
    },
    timeline: m.last_check?.timeline ?? [],
  };
}

export const page = (q: { offset?: string | undefined; limit?: string | undefined }) => ({
  offset: q.offset ? Number(q.offset) : 0,
  limit: Math.min(MAX_PAGE, Math.max(1, q.limit ? Number(q.limit) : DEFAULT_PAGE)),
});

export async function registerMonitorRoutes(app: FastifyInstance, options: MonitorRouteOptions): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const validate = createCheckValidator(options.deps.clock);
  const { store } = options;
  await registerMonitorBulkRoute(app, options);

  const owned = async (id: string, request: FastifyRequest): Promise<StoredMonitor> => {
    const monitor = await store.get(id, ownerOf(request.apiKey!));
    if (!monitor) throw HttpErrors.noMonitor(id);
    return monitor;
  };

  api.post(
    '/v1/monitors',
    {
      schema: {
        operationId: 'createMonitor',
        'x-success-description': 'Created: the monitor id and its next check (also the `Location` header). The first check is made right away.',
        tags: ['monitors'],
        summary: 'Watch a patient: re-check their coverage before each appointment and/or every N days',
        description:
          'Takes the fields of an estimate request and a schedule. The first check is made right away (the baseline); later checks compare with the last answer and raise coverage.changed webhook events naming what changed. In production the server needs COVERAGE_DATA_KEY (503 otherwise).',
        body: MonitorCreateRequest,
        response: { 201: MonitorCreated, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const key = request.apiKey!;
      if (key.env === 'production' && !store.text.sealing) throw HttpErrors.dataKeyNeeded();
      const { schedule, reference, ...estimate } = request.body;
      if (!schedule.appointments?.length && schedule.every_days === undefined) {
        throw HttpErrors.scheduleEmpty().with({ errors: [{ field: 'schedule', message: 'must have appointments or every_days' }] });
      }
      const errors = validate('estimate', estimate);
      const past = pastAppointmentsProblem(schedule, options.deps.clock.today());
      if (past) errors.push({ field: 'schedule.appointments', message: past });
      if (errors.length > 0) throw HttpErrors.invalid(errors.map((e) => `${e.field} ${e.message}`).join('; ')).with({ errors });
      const owner = ownerOf(key);
      const now = dateOf(options.clock);
      // Counted and created in one transaction: requests sent at once cannot each find room.
      const created = await store.createWithin(
        [
          {
            ownerId: owner,
            keyId: key.id,
            env: key.env,
            payerKey: payerKeyOf(options.deps.network, 'estimate', estimate),
            what: { request: estimate, reference: reference ?? null },
            schedule,
            firstCheckAt: now,
          },
        ],
        options.maxPerOwner,
        now,
      );
      if ('count' in created) throw HttpErrors.monitorLimit(created.count);
      const monitor = created.made[0]!;
      options.wakeDeliveries();
      reply.code(201).header('location', `/v1/monitors/${monitor.id}`);
      return { id: monitor.id, next_check_at: monitor.next_check_at };
    },
  );

  api.get(
    '/v1/monitors',
    {
      schema: {
        operationId: 'listMonitors',
        'x-success-description': 'A page of monitors.',
        tags: ['monitors'],
        summary: "This key's monitors, a page at a time: oldest first, or by next appointment or latest change",
        querystring: MonitorListQuery,
        description:
          'Each with its schedule, next check and last result; `sort` orders them by creation (default), next appointment or latest change. Pages of `limit` (default 50, at most 200); pass `next_offset` as `offset` for the next.',
        response: { 200: MonitorList, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const { offset, limit } = page(request.query);
      const sort = request.query.sort ?? 'created';
      const owner = ownerOf(request.apiKey!);
      const rows =
        sort === 'created'
          ? await store.list(owner, offset, limit + 1)
          : await store.listOrdered(owner, sort, dateOf(options.clock).toISOString().slice(0, 10), offset, limit + 1);
      const withName = namesFor(request);
      return { monitors: rows.slice(0, limit).map((m) => presentMonitor(m, withName)), offset, next_offset: rows.length > limit ? offset + limit : null };
    },
  );

  api.get(
    '/v1/monitors/:id',
    {
      schema: {
        operationId: 'getMonitor',
        'x-success-description': 'The monitor.',
        tags: ['monitors'],
        summary: 'A monitor: its schedule, next check, and the last check with what it found changed',
        description: 'last_check is null until the first check is made (right after creation). next_check_at is null once the schedule has no more checks.',
        params: IdParams,
        response: { 200: Monitor, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      return presentMonitor(await owned(request.params.id, request), namesFor(request));
    },
  );

  api.delete(
    '/v1/monitors/:id',
    {
      schema: {
        operationId: 'deleteMonitor',
        'x-success-description': 'Deleted, with its snapshot.',
        tags: ['monitors'],
        summary: 'Stop watching: deletes the monitor and its coverage snapshot',
        description: 'No more checks are made and the stored answer is deleted. Events already queued for webhooks are still delivered.',
        params: IdParams,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Boolean() }), 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      if (!(await store.delete(request.params.id, ownerOf(request.apiKey!)))) throw HttpErrors.noMonitor(request.params.id);
      return { id: request.params.id, deleted: true };
    },
  );

  api.post(
    '/v1/monitors/:id/check',
    {
      schema: {
        operationId: 'checkMonitor',
        'x-success-description': 'Checked: the estimate answer and the monitor after the check.',
        tags: ['monitors'],
        summary: 'Check now: the estimate answer, and the monitor with what changed',
        description:
          'Makes a check like a scheduled one (same comparison, same webhook events) without moving the schedule. `result` is what POST /v1/estimate answers for the monitored patient, whatever its status.',
        params: IdParams,
        response: { 200: MonitorCheckResult, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const monitor = await owned(request.params.id, request);
      const outcome = await checkMonitorNow(options.deps, store, monitor, dateOf(options.clock));
      if (!outcome) throw HttpErrors.noMonitor(monitor.id);
      options.onChecked?.(monitor, outcome);
      if (outcome.events.length > 0) options.wakeDeliveries();
      const after = (await store.get(monitor.id, monitor.owner_id)) ?? monitor;
      return { monitor: presentMonitor(after, namesFor(request)), result: outcome.body };
    },
  );
}
