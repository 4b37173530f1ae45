/**
 * The FHIR R4 door (docs/fhir.md): POST /fhir/r4/CoverageEligibilityRequest/$submit answers a
 * CoverageEligibilityRequest (or a Bundle of them) through the same operations as /v1 — the same
 * key, rate limit, audit, cache, payer resolution, routes and estimate — and GET /fhir/r4/metadata
 * describes it. Errors, ours or the framework's, leave as OperationOutcome.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Resource } from '@medplum/fhirtypes';
import { ServiceError } from '../../domain/errors.ts';
import { runDiscover, runEstimate, runScan, type OperationDeps, type OperationResult } from '../../operations/index.ts';
import { annotateAnswer, exchangeFor, type ExchangeRecord } from '../../operations/context.ts';
import { responseBundle, submission, type EntryAnswer, type Submitted } from '../../fhir/bundle.ts';
import { capabilityStatement } from '../../fhir/capability.ts';
import { FhirCapabilityStatement, FhirOperationOutcome, FhirSubmitAnswer, FhirSubmitBody } from '../../fhir/openapi-schemas.ts';
import { fhirPath, operationOutcome, type ErrorAnswer } from '../../fhir/outcome.ts';
import { translateRequest, type FhirCheck } from '../../fhir/request-in.ts';
import { eligibilityResponse, type PlanAnswer } from '../../fhir/response-out.ts';
import { FHIR_JSON } from '../../fhir/systems.ts';
import { FHIR_SUBMIT_PATH, type CheckAudit } from '../check-routes.ts';
import { createCheckValidator } from '../check-validator.ts';
import { HttpErrors, notFound } from '../errors.ts';
import { depthLimited } from '../json-depth.ts';
import { SERVICE_VERSION } from '../openapi/openapi.ts';
import { ownerOf } from '../../store/keys.ts';

const FHIR_TYPE = `${FHIR_JSON}; charset=utf-8`;
const media = [FHIR_JSON, 'application/json'];
/**
 * FHIR resources are open-ended: the schemas of these routes describe them for the OpenAPI document
 * and do not serialize (a schema-driven serializer would drop every element it does not name).
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);
const outcomes = Object.fromEntries([400, 401, 404, 413, 415, 429, 502].map((s) => [s, FhirOperationOutcome]));

/** Our error bodies ({error_code, message, request_id}) from auth, rate limits, validation or the operation, as OperationOutcome. */
function asOperationOutcome(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  done(null, reply.statusCode < 400 || typeof payload !== 'string' ? payload : converted(reply, payload));
}

function converted(reply: FastifyReply, payload: string): string {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  const answer = body as Partial<ErrorAnswer> & { resourceType?: unknown };
  if (answer.resourceType !== undefined || typeof answer.error_code !== 'string') return payload;
  reply.type(FHIR_TYPE);
  const message = answer.error_code === 'UNSUPPORTED_MEDIA_TYPE' ? 'Send the body as application/fhir+json or application/json' : answer.message;
  return JSON.stringify(operationOutcome({ ...(answer as ErrorAnswer), ...(message ? { message } : {}) }));
}

const refused = (message: string, errors: { field: string; message: string }[]) =>
  HttpErrors.invalid(message).with({ errors: errors.map((e) => ({ field: fhirPath(e.field), message: e.message })) });

/** The mapping reads elements by their FHIR types: a body with other JSON types there (an object for an array) is refused, not crashed on. */
function wellFormed<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof TypeError) throw HttpErrors.fhirMalformed();
    throw err;
  }
}

export async function registerFhirRoutes(app: FastifyInstance, deps: OperationDeps): Promise<void> {
  app.decorateRequest('checkAudits', null);
  const validate = createCheckValidator(deps.clock);
  const exchanges = new WeakMap<FastifyRequest, Map<string, ExchangeRecord>>();
  const exchangesOf = (request: FastifyRequest) => {
    let m = exchanges.get(request);
    if (!m) exchanges.set(request, (m = new Map<string, ExchangeRecord>()));
    return m;
  };

  function runCheck(check: FhirCheck, request: FastifyRequest): Promise<OperationResult<PlanAnswer>> {
    const ctx = {
      request_id: request.id,
      exchanges: exchangesOf(request),
      ...(request.apiKey ? { owner: { key_id: ownerOf(request.apiKey), surface: 'fhir' as const } } : {}),
    };
    if (check.operation === 'estimate') return runEstimate(deps, check.body, ctx);
    if (check.operation === 'discover') return runDiscover(deps, check.body, ctx);
    return runScan(deps, check.body, ctx);
  }

  /** One request of the submission: translated, validated as /v1 validates, run, and answered in FHIR; its audit record filled as it goes. */
  async function answer(item: Submitted, request: FastifyRequest, audit: CheckAudit, first: boolean): Promise<Resource> {
    const translated = wellFormed(() => translateRequest(item.request, item.resolver));
    if (!translated.ok) {
      audit.payerId = translated.payerId ?? null;
      throw refused(`Invalid request: ${translated.errors.map((e) => e.field).join(', ')}`, translated.errors);
    }
    const { check, context } = translated;
    audit.operation = check.operation;
    audit.payerId = 'payer_id' in check.body ? (check.body.payer_id ?? null) : null;
    const fieldErrors = validate(check.operation, check.body);
    if (fieldErrors.length > 0) throw refused(`Invalid request: ${fieldErrors.map((e) => fhirPath(e.field)).join(', ')}`, fieldErrors);
    audit.body = check.body;
    // The log line names the first check's operation and payer.
    if (first) request.operation = check.operation;
    const result = await runCheck(check, request);
    const exchange = exchangeFor(exchangesOf(request), result.payer_id);
    if (first) request.payerId = result.payer_id;
    audit.payerId = result.payer_id;
    audit.exchange = exchange;
    audit.status = result.status;
    // A 206 names what it could not work out (UNKNOWN_COSTSHARE, ...), as on /v1.
    audit.errorCode = result.status === 200 ? null : ((result.body as { error_code?: string }).error_code ?? null);
    annotateAnswer(result.status, result.body, exchange);
    return eligibilityResponse({
      purpose: check.purpose,
      body: result.body,
      coverage: result.coverage ?? null,
      context,
      request: item.ref,
      created: deps.clock.today(),
    });
  }

  /** Runs one request of the submission with its own audit record (audit-hook.ts): n is its place in a Bundle, null alone. */
  async function audited(item: Submitted, request: FastifyRequest, n: number | null): Promise<Resource> {
    const started = performance.now();
    const audit: CheckAudit = {
      request_id: n === null ? request.id : `${request.id}.${n}`,
      operation: 'estimate',
      body: null,
      payerId: null,
      status: 500,
      errorCode: 'INTERNAL_ERROR',
      exchange: null,
      latencyMs: 0,
    };
    (request.checkAudits ??= []).push(audit);
    try {
      return await answer(item, request, audit, n === null || n === 1);
    } catch (err) {
      if (err instanceof ServiceError) {
        audit.status = err.status;
        audit.errorCode = err.code;
      }
      throw err;
    } finally {
      audit.latencyMs = performance.now() - started;
    }
  }

  const send = (reply: FastifyReply, resource: Resource) => reply.code(200).type(FHIR_TYPE).send(JSON.stringify(resource));

  // A URL under /fhir that names no route is answered as FHIR clients read errors: an OperationOutcome.
  await app.register(
    async (scope) => {
      scope.addHook('onSend', asOperationOutcome);
      scope.setNotFoundHandler(notFound);
    },
    { prefix: '/fhir' },
  );

  await app.register(async (scope) => {
    // FHIR clients send application/fhir+json; it is JSON, parsed as strictly as application/json, its depth limited alike.
    scope.addContentTypeParser(FHIR_JSON, { parseAs: 'string' }, depthLimited(scope.getDefaultJsonParser('error', 'error')));

    scope.post(
      FHIR_SUBMIT_PATH,
      {
        onSend: asOperationOutcome,
        serializerCompiler: plainJson,
        schema: {
          operationId: 'fhirSubmit',
          'x-success-description':
            'A CoverageEligibilityResponse, or a batch-response Bundle of them (an entry that failed carries its OperationOutcome and status).',
          tags: ['fhir'],
          summary: 'Ask in FHIR R4: CoverageEligibilityRequest in, CoverageEligibilityResponse out',
          description:
            'The operation `CoverageEligibilityRequest/$submit` of FHIR R4. The body is a CoverageEligibilityRequest whose Patient, ' +
            'Coverage, insurer Organization and Practitioner are contained (or bundled), or a Bundle of such requests (answered with a ' +
            'batch-response Bundle). `purpose` `benefits` is an estimate, `discovery` a discover (or a scan without an insurer), `validation` ' +
            'the plan status only. The answer is a CoverageEligibilityResponse: `insurance[].inforce`, `benefitPeriod`, `item[]` ' +
            'per benefit, plan and insurance type, the session cost share and the alerts as extensions (docs/fhir.md). Errors are ' +
            'OperationOutcome resources with our error_code in `issue[].details.coding`. Send `application/fhir+json` or `application/json`.',
          security: [{ apikey: [] }],
          consumes: media,
          produces: media,
          body: FhirSubmitBody,
          response: { 200: FhirSubmitAnswer, ...outcomes },
        },
      },
      async (request, reply) => {
        const submitted = wellFormed(() => submission(request.body as Resource));
        if (!submitted.ok) throw refused(`Invalid request: ${submitted.errors.map((e) => e.field).join(', ')}`, submitted.errors);
        if (!submitted.bundle) return send(reply, await audited(submitted.requests[0]!, request, null));
        // Each request of a Bundle is a check: the HTTP request counted one, the rest count here.
        const wait = (await request.countMoreChecks?.(submitted.requests.length - 1)) ?? null;
        if (wait !== null) {
          throw HttpErrors.bundleRequests(submitted.requests.length, wait).with({ retryAfterSeconds: wait });
        }
        const answers: EntryAnswer[] = [];
        // One after another: a Bundle is no faster than its requests sent in turn, and asks no payer twice at once.
        for (const [i, item] of submitted.requests.entries()) {
          try {
            answers.push({ status: 200, resource: await audited(item, request, i + 1) });
          } catch (err) {
            if (!(err instanceof ServiceError)) throw err;
            const outcome = operationOutcome({
              error_code: err.code,
              message: err.message,
              request_id: request.id,
              errors: err.details.errors,
              payer_errors: err.details.payer_errors,
            });
            answers.push({ status: err.status, outcome });
          }
        }
        return send(reply, responseBundle(answers));
      },
    );

    scope.get(
      '/fhir/r4/metadata',
      {
        onSend: asOperationOutcome,
        serializerCompiler: plainJson,
        schema: {
          operationId: 'fhirMetadata',
          'x-success-description': 'The CapabilityStatement.',
          tags: ['fhir'],
          summary: 'The FHIR CapabilityStatement',
          description: 'The CapabilityStatement of the FHIR door: the `$submit` operation, the formats, and the `apikey` header. Served without a key.',
          produces: media,
          response: { 200: FhirCapabilityStatement },
        },
      },
      async (_request, reply) => send(reply, capabilityStatement({ version: SERVICE_VERSION, date: deps.clock.today() })),
    );
  });
}
