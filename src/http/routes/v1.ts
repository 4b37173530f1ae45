/** The four operations under /v1 (docs/interface.md section 1). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest, type OperationName } from '../../domain/schemas/requests.ts';
import { DiscoverResponse, ErrorResponse, EstimateResponse, MedicaidResponse, ScanResponse } from '../../domain/schemas/responses.ts';
import { runDiscover, runEstimate, runMedicaid, runScan, type OperationDeps, type OperationResult } from '../../operations/index.ts';
import { annotateAnswer, exchangeFor, type CallContext, type ExchangeRecord } from '../../operations/context.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import { trimFields } from '../../domain/trim-fields.ts';
import { ownerOf } from '../../store/keys.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operation: OperationName | null;
    payerId: string | null;
    /** The exchange that answered for payerId (production): route and control numbers, for the audit record. */
    payerExchange: ExchangeRecord | null;
  }
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse };

export function registerV1Routes(app: FastifyInstance, deps: OperationDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.decorateRequest('operation', null);
  app.decorateRequest('payerId', null);
  app.decorateRequest('payerExchange', null);

  // The call's context is made here, once per request: its exchanges map is read back after the run
  // (no WeakMap keyed by request, whose entries cost the garbage collector more than the map).
  const respond = async <T>(request: FastifyRequest, reply: FastifyReply, operation: OperationName, run: (ctx: CallContext) => Promise<OperationResult<T>>) => {
    request.operation = operation;
    const context = ctx(request);
    const result = await run(context);
    request.payerId = result.payer_id;
    const exchange = exchangeFor(context.exchanges, result.payer_id);
    request.payerExchange = exchange;
    // A 206 names what it could not work out (UNKNOWN_COSTSHARE, ...): for the audit record and the log line.
    if (result.status !== 200) request.errorCode = (result.body as { error_code?: ErrorCode }).error_code ?? null;
    annotateAnswer(result.status, result.body, exchange);
    return reply.code(result.status).send(result.body);
  };
  // request.ips (trusted proxies only) runs from our peer outwards; the origin comes first for Stedi's X-Forwarded-For.
  const ctx = (request: FastifyRequest): CallContext & { exchanges: Map<string, ExchangeRecord> } => ({
    request_id: request.id,
    exchanges: new Map<string, ExchangeRecord>(),
    client_ips: request.ips ? [...request.ips].reverse() : [request.ip],
    ...(request.apiKey ? { owner: { key_id: ownerOf(request.apiKey), surface: 'api' as const } } : {}),
  });

  // Surrounding spaces are no part of a value, as in a CSV cell (domain/trim-fields.ts): trimmed before validation.
  const preValidation = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    trimFields(request.body);
    done();
  };

  // Each also answers with a trailing slash (trailing-slash.ts).
  api.post(
    '/v1/estimate',
    {
      preValidation,
      schema: {
        operationId: 'estimate',
        'x-success-description': 'Coverage found and the session estimated.',
        tags: ['coverage'],
        summary: 'Estimate what a session costs the patient',
        description:
          'The full benefit picture for one member and what a session costs them: plan, deductible and out-of-pocket progress, ' +
          'the benefit structure, the member and payer shares for `provider_session_cost`, telehealth, plan-year reset and alerts. ' +
          'Matches by `member_id`, or by name and date of birth. Without `provider_session_cost` the obligations are `null`.',
        body: EstimateRequest,
        response: { 200: EstimateResponse, 206: EstimateResponse, ...errors },
      },
    },
    (request, reply) => respond(request, reply, 'estimate', (context) => runEstimate(deps, request.body, context)),
  );
  api.post(
    '/v1/discover',
    {
      preValidation,
      schema: {
        operationId: 'discover',
        'x-success-description': 'Coverage found at the payer.',
        tags: ['coverage'],
        summary: 'Find coverage at a known payer by name, DOB and ZIP',
        description:
          'Finds a member at a known payer by name, date of birth and ZIP (no member ' +
          'ID) and returns plan-level details, without the cost fields of an estimate.',
        body: DiscoverRequest,
        response: { 200: DiscoverResponse, ...errors },
      },
    },
    (request, reply) => respond(request, reply, 'discover', (context) => runDiscover(deps, request.body, context)),
  );
  api.post(
    '/v1/scan',
    {
      preValidation,
      schema: {
        operationId: 'scan',
        'x-success-description': 'Coverage found at one of the payers.',
        tags: ['coverage'],
        summary: 'Search every payer for active coverage',
        description:
          'Asks every payer that answers searches, in parallel, for the person named, and returns the ' +
          'best coverage found (active first) with how many payers were asked and which could not answer.',
        body: ScanRequest,
        response: { 200: ScanResponse, ...errors },
      },
    },
    (request, reply) => respond(request, reply, 'scan', (context) => runScan(deps, request.body, context)),
  );
  api.post(
    '/v1/medicaid',
    {
      preValidation,
      schema: {
        operationId: 'medicaid',
        'x-success-description': 'Medicaid coverage found.',
        tags: ['coverage'],
        summary: 'Find Medicaid coverage by state or payer',
        description:
          "Finds Medicaid coverage by member ID at the state's program (`patient_state`) " +
          'or a given `payer_id`: QMB status, managed care and the primary care provider.',
        body: MedicaidRequest,
        response: { 200: MedicaidResponse, ...errors },
      },
    },
    (request, reply) => respond(request, reply, 'medicaid', (context) => runMedicaid(deps, request.body, context)),
  );
}
