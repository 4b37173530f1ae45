/**
 * Good Faith Estimates for uninsured and self-pay clients (docs/good-faith-estimate.md):
 * POST /v1/good-faith-estimates makes one (refused, naming each element, when it lacks any that
 * 45 CFR 149.610(c) requires), GET lists them with their due dates (overdue first), GET /:id reads one
 * (any version), POST /:id/versions changes one (a new version; the old is kept, superseded),
 * POST /:id/given records that it was given, POST /:id/billed-check holds the bills against the
 * version given. Scoped to the key's owner; every call that shows or keeps a client's estimate is
 * audited (the client by keyed hash) before the answer.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assembleGfe, billedCheck, DISPUTE_THRESHOLD_CENTS, dueDate, missingSentence } from '../../domain/gfe/index.ts';
import {
  BilledCheckAnswer,
  BilledCheckRequest,
  GfeGetQuery,
  GfeGivenRequest,
  GfeParams,
  GoodFaithEstimate,
  GoodFaithEstimateList,
  GoodFaithEstimateRequest,
} from '../../domain/schemas/good-faith-estimates.ts';
import { ErrorResponse } from '../../domain/schemas/responses.ts';
import { gfeBundle } from '../../fhir/gfe-bundle.ts';
import { FhirGfeBundle } from '../../fhir/openapi-schemas.ts';
import { FHIR_JSON } from '../../fhir/systems.ts';
import { clientIdentity, gfeAnswer, listEntry, newGfeId, sortedList, type GfePayload } from '../../operations/gfe/record.ts';
import type { AuditWriter } from '../../store/audit.ts';
import type { GfeRow, GfeStore } from '../../store/good-faith-estimates.ts';
import { ownerOf } from '../../store/keys.ts';
import type { MemberHasher } from '../../store/member-hash.ts';
import { HttpErrors } from '../errors.ts';
import { isoNow, type Clock } from '../../domain/clock.ts';

export interface GfeRouteOptions {
  store: GfeStore;
  hash: MemberHasher;
  audit: AuditWriter | null;
  /** The service's clock: its date is what is overdue, and the default day an estimate was given. */
  clock: Clock;
}

/** The most estimates the list shows (the newest current ones). */
const LIST_LIMIT = 500;

const TAGS = ['good faith estimates'];

export async function registerGfeRoutes(app: FastifyInstance, options: GfeRouteOptions): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  /** The audit record, written before anything is kept or answered; the answer is withheld when it cannot be. */
  const audited = async (request: FastifyRequest, reply: FastifyReply, status: number, memberHash: string | null) => {
    const recorded = await options.audit?.write({
      request_id: request.id,
      at: isoNow(options.clock),
      key_id: request.apiKey!.id,
      endpoint: 'gfe',
      payer_id: null,
      status,
      error_code: null,
      latency_ms: Math.round(reply.elapsedTime),
      member_hash: memberHash,
      user_id: request.user?.id ?? null,
    });
    if (recorded === false) throw HttpErrors.gfeNotRecorded();
  };

  const assemble = async (owner: string, body: GoodFaithEstimateRequest) => {
    const assembled = assembleGfe(body, await options.store.fees(owner));
    if (assembled.ok) return assembled.content;
    const errors = [...assembled.missing.map(({ field, message }) => ({ field, message })), ...assembled.invalid];
    if (assembled.missing.length === 0) throw HttpErrors.invalidFields(...assembled.invalid.map((i) => i.field)).with({ errors });
    throw HttpErrors.gfeIncomplete(missingSentence(assembled.missing)).with({ errors });
  };

  const opened = (row: GfeRow<GfePayload> | null, id: string, version?: number): GfeRow<GfePayload> & { payload: GfePayload } => {
    // Sealed under another data key reads as absent: nothing of it can be shown.
    if (!row || row.payload === null) throw HttpErrors.noGoodFaithEstimate(id, version);
    return row as GfeRow<GfePayload> & { payload: GfePayload };
  };

  const answer = async (owner: string, row: GfeRow<GfePayload> & { payload: GfePayload }) =>
    gfeAnswer(row, row.payload, (await options.store.versions(owner, row.id)) as GoodFaithEstimate['versions'], options.clock.today());

  const keep = async (request: FastifyRequest, reply: FastifyReply, owner: string, id: string, version: number, body: GoodFaithEstimateRequest) => {
    const content = await assemble(owner, body);
    const due = dueDate({
      scheduled_on: content.scheduled_on,
      requested_on: content.requested_on,
      service_date: content.primary_service.scheduled_date,
      version,
    });
    const clientHash = options.hash(clientIdentity(content.client));
    await audited(request, reply, 201, clientHash);
    return {
      id,
      version,
      key_id: owner,
      client_hash: clientHash,
      status: 'draft',
      service_date: content.primary_service.scheduled_date,
      due_date: due.date,
      total_cents: content.total_cents,
      created_at: isoNow(options.clock),
      given_at: null,
      payload: { content, due, given_on: null } satisfies GfePayload,
    };
  };

  api.post(
    '/v1/good-faith-estimates',
    {
      schema: {
        operationId: 'createGoodFaithEstimate',
        'x-success-description': 'Kept as version 1, a draft, with the date it is due.',
        tags: TAGS,
        summary: 'Make a Good Faith Estimate for an uninsured or self-pay client (45 CFR 149.610)',
        description:
          'The client, the convening provider and any co-providers (name, NPI, TIN, locations) with their services (CPT/HCPCS, quantity, expected ' +
          "charge: sent, or the key's fee schedule from `coverage fees import`), ICD-10 codes when known, the period of care, when the service was " +
          'scheduled (or the estimate requested), what needs separate scheduling and the four notices. Every element 45 CFR 149.610(c) requires ' +
          'must be there: a request lacking any is refused with `INVALID_REQUEST`, the message naming each element and `errors` the fields. The ' +
          'answer has the totals per provider and overall (cents) and the due date in business days (weekends and federal holidays do not count).',
        body: GoodFaithEstimateRequest,
        response: { 201: GoodFaithEstimate, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const row = await keep(request, reply, owner, newGfeId(), 1, request.body);
      await options.store.create(row);
      reply.code(201).header('location', `/v1/good-faith-estimates/${row.id}`);
      return answer(owner, { ...row, payload: row.payload });
    },
  );

  api.get(
    '/v1/good-faith-estimates',
    {
      schema: {
        operationId: 'listGoodFaithEstimates',
        'x-success-description': 'The current version of each estimate: overdue first, then by due date.',
        tags: TAGS,
        summary: "This key's Good Faith Estimates with their due dates, overdue ones first",
        description:
          `The current version of each (superseded versions are kept but not listed), at most ${LIST_LIMIT}, the newest: ` +
          `status, the client's name, the service date, the due date and whether a draft is past it, the total (cents).`,
        response: { 200: GoodFaithEstimateList, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const rows = await options.store.current<GfePayload>(owner, LIST_LIMIT);
      await audited(request, reply, 200, null);
      const today = options.clock.today();
      return { estimates: sortedList(rows.map((r) => listEntry(r, today)).filter((e) => e !== null)) };
    },
  );

  api.get(
    '/v1/good-faith-estimates/:id',
    {
      schema: {
        operationId: 'getGoodFaithEstimate',
        'x-success-description': 'The estimate, with every version it has had.',
        tags: TAGS,
        summary: 'A Good Faith Estimate (the latest version, or `?version=`), as JSON or as a FHIR GFE Bundle',
        description:
          'The estimate as kept: the client, each provider with its services and totals (cents), the notices, the due date and whether ' +
          'a draft is past it, and every version it has had (`?version=` reads an earlier one). `?format=fhir` (or `accept: ' +
          'application/fhir+json`) answers the Da Vinci Patient Cost Transparency GFE Bundle instead (docs/good-faith-estimate.md#fhir).',
        params: GfeParams,
        querystring: GfeGetQuery,
        response: {
          200: { content: { 'application/json': { schema: GoodFaithEstimate }, [FHIR_JSON]: { schema: FhirGfeBundle } } },
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const { id } = request.params;
      const version = request.query.version === undefined ? undefined : Number(request.query.version);
      const row = opened(await options.store.get<GfePayload>(owner, id, version), id, version);
      await audited(request, reply, 200, row.client_hash);
      const gfe = await answer(owner, row);
      const fhir = request.query.format === 'fhir' || (request.query.format === undefined && (request.headers.accept ?? '').includes(FHIR_JSON));
      // Written here: the Bundle goes out whole, not through the JSON answer's serializer.
      if (fhir) return (reply as FastifyReply).type(`${FHIR_JSON}; charset=utf-8`).send(JSON.stringify(gfeBundle(gfe)));
      return reply.type('application/json; charset=utf-8').send(gfe);
    },
  );

  api.post(
    '/v1/good-faith-estimates/:id/versions',
    {
      schema: {
        operationId: 'reviseGoodFaithEstimate',
        'x-success-description': 'The new version, a draft; the one before is kept, superseded.',
        tags: TAGS,
        summary: 'Change a Good Faith Estimate: a new version (the old one is kept)',
        description:
          'The whole estimate again, as for POST /v1/good-faith-estimates, with what changed (charges, services, frequency, providers). The ' +
          'earlier versions are kept and marked `superseded`; the new one is due 1 business day before the service (45 CFR 149.610(b)(1)(vii)).',
        params: GfeParams,
        body: GoodFaithEstimateRequest,
        response: { 201: GoodFaithEstimate, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const { id } = request.params;
      const latest = opened(await options.store.get<GfePayload>(owner, id), id);
      const row = await keep(request, reply, owner, id, latest.version + 1, request.body);
      if (!(await options.store.addVersion(row, latest.version))) throw HttpErrors.gfeChangedMeanwhile(id);
      reply.code(201).header('location', `/v1/good-faith-estimates/${id}`);
      return answer(owner, { ...row, payload: row.payload });
    },
  );

  api.post(
    '/v1/good-faith-estimates/:id/given',
    {
      schema: {
        operationId: 'giveGoodFaithEstimate',
        'x-success-description': 'The latest version, now given (again: unchanged).',
        tags: TAGS,
        summary: 'Record that the latest version was given to the client',
        description:
          'Its status becomes `given`, with the day (`given_on`, default today) and the ' +
          'instant it was recorded. Recording a given version again changes nothing.',
        params: GfeParams,
        body: GfeGivenRequest,
        response: { 200: GoodFaithEstimate, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const { id } = request.params;
      const latest = opened(await options.store.get<GfePayload>(owner, id), id);
      await audited(request, reply, 200, latest.client_hash);
      if (latest.status === 'draft') {
        const payload: GfePayload = { ...latest.payload, given_on: request.body?.given_on ?? options.clock.today() };
        const at = isoNow(options.clock);
        if (!(await options.store.markGiven(owner, id, latest.version, at, payload))) throw HttpErrors.gfeChangedMeanwhile(id);
        return answer(owner, { ...latest, status: 'given', given_at: at, payload });
      }
      return answer(owner, latest);
    },
  );

  api.post(
    '/v1/good-faith-estimates/:id/billed-check',
    {
      schema: {
        operationId: 'checkGoodFaithEstimateBills',
        'x-success-description': 'Each provider: estimated, billed, how far above, and whether the client may dispute.',
        tags: TAGS,
        summary: 'Hold billed charges against the estimate given: $400 or more above for a provider may be disputed',
        description:
          "Each provider's total billed charges by NPI, held against the latest version given to the client: a provider " +
          'billing $400 (40000 cents) or more above its expected charges may be disputed (patient-provider dispute ' +
          'resolution, 45 CFR 149.620, within 120 days of the bill). A provider the estimate did not name had $0 expected.',
        params: GfeParams,
        body: BilledCheckRequest,
        response: { 200: BilledCheckAnswer, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request.apiKey!);
      const { id } = request.params;
      const versions = await options.store.versions(owner, id);
      if (versions.length === 0) throw HttpErrors.noGoodFaithEstimate(id);
      // The client holds the last version given (a later one may be a draft not given yet, and a given one may since be superseded).
      let held: (GfeRow<GfePayload> & { payload: GfePayload }) | null = null;
      for (const v of [...versions].reverse()) {
        const row = await options.store.get<GfePayload>(owner, id, v.version);
        if (row?.payload?.given_on) {
          held = row as GfeRow<GfePayload> & { payload: GfePayload };
          break;
        }
      }
      if (!held) throw HttpErrors.gfeNotGiven(id);
      await audited(request, reply, 200, held.client_hash);
      return { id, version: held.version, threshold_cents: DISPUTE_THRESHOLD_CENTS, ...billedCheck(held.payload.content.providers, request.body.bills) };
    },
  );
}
