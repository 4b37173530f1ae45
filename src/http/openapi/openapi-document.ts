/**
 * What the OpenAPI document says beyond the route schemas (which carry each operation's summary
 * and description): the introduction, tags, the apikey scheme, response descriptions, and the
 * recorded examples. The schemas themselves come from the routes; routeTransform only swaps the
 * shared ones for component references.
 */
import type { ErrorCode } from '../../domain/errors.ts';
import { BatchCreated, BatchCreateRequest, BatchErrorResponse, BatchProgress, BatchResults } from '../../domain/schemas/batches.ts';
import { DiscoverRequest, EstimateRequest, MedicaidRequest, ScanRequest } from '../../domain/schemas/requests.ts';
import { DiscoverResponse, ErrorResponse, EstimateResponse, MedicaidResponse, ScanResponse } from '../../domain/schemas/responses.ts';
import { PayersResponse } from '../../domain/schemas/payers.ts';
import { SandboxMembersResponse } from '../../domain/schemas/sandbox.ts';
import { exampleResponses } from './openapi-example-responses.ts';
import { MONITORING_CODE_MEANINGS, MONITORING_SCHEMAS, webhooksSection } from './openapi-monitoring.ts';
import { isRemittancePath, REMITTANCE_CODE_MEANINGS, REMITTANCE_SCHEMAS } from './openapi-remittances.ts';
import { GFE_CODE_MEANINGS, GFE_SCHEMAS, GFE_TAG, isGfePath } from './openapi-good-faith-estimates.ts';
import {
  DOCUMENTED_OPERATIONS,
  EXAMPLE_CALLS,
  exampleKey,
  requestMediaType,
  responseMediaType,
  type DocumentedOperation,
  type ExampleCall,
} from './openapi-examples.ts';
import type { Mode } from '../../domain/mode.ts';

/** Schemas with an $id become components; routes refer to them instead of inlining a copy. */
const SHARED_SCHEMAS = [
  EstimateRequest,
  DiscoverRequest,
  ScanRequest,
  MedicaidRequest,
  EstimateResponse,
  DiscoverResponse,
  ScanResponse,
  MedicaidResponse,
  ErrorResponse,
  PayersResponse,
  SandboxMembersResponse,
  BatchCreateRequest,
  BatchCreated,
  BatchErrorResponse,
  BatchProgress,
  BatchResults,
  ...MONITORING_SCHEMAS,
  ...REMITTANCE_SCHEMAS,
  ...GFE_SCHEMAS,
];
const schemaId = (schema: unknown): string | undefined =>
  typeof schema === 'object' && schema !== null && typeof (schema as { $id?: unknown }).$id === 'string' ? (schema as { $id: string }).$id : undefined;

export const componentSchemas = (): Record<string, unknown> => Object.fromEntries(SHARED_SCHEMAS.map((s) => [schemaId(s)!, s]));

const SHARED_BY_ID = new Map<string, unknown>(SHARED_SCHEMAS.map((s) => [schemaId(s)!, s]));
const toRef = (schema: unknown): unknown => {
  const id = schemaId(schema);
  return id && SHARED_BY_ID.get(id) === schema ? { $ref: `#/components/schemas/${id}` } : schema;
};
/** A schema, or a schema per media type (`content`). */
const toRefs = (schema: unknown): unknown => {
  if (typeof schema !== 'object' || schema === null || !('content' in schema)) return toRef(schema);
  const { content } = schema as { content: Record<string, { schema?: unknown }> };
  return { ...schema, content: Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, schema: toRef(media.schema) }])) };
};

/**
 * What a documented route's success answers, on the route's own schema: @fastify/swagger copies
 * `x-` keys onto the operation, and decorateDocument moves it to the 2xx response's description.
 */
const SUCCESS_DESCRIPTION = 'x-success-description';
declare module 'fastify' {
  interface FastifySchema {
    [SUCCESS_DESCRIPTION]?: string;
  }
}

export interface RouteSchema {
  body?: unknown;
  response?: Record<string, unknown>;
  security?: unknown;
  [key: string]: unknown;
}

/** Per route: shared schemas by reference, and the apikey requirement on everything under /v1. */
export function routeTransform(schema: RouteSchema | undefined, url: string): RouteSchema | undefined {
  if (!schema) return schema;
  const out: RouteSchema = { ...schema };
  if (schema.body) out.body = toRefs(schema.body);
  if (schema.response) out.response = Object.fromEntries(Object.entries(schema.response).map(([status, s]) => [status, toRefs(s)]));
  if (url.startsWith('/v1/')) out.security = [{ apikey: [] }];
  return out;
}

export function documentHeader(options: { mode: Mode; version: string }) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coverage verification API',
      version: options.version,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description: INTRODUCTION,
    },
    servers: [
      {
        url: '/',
        description: options.mode === 'sandbox' ? 'This server: the sandbox, with mock payer data (no real payer is contacted)' : 'This server',
      },
    ],
    tags: [
      { name: 'coverage', description: 'The four checks: estimate, discover, scan and medicaid.' },
      { name: 'payers', description: 'The payers this server reaches.' },
      {
        name: 'fhir',
        description:
          'The same checks asked in FHIR R4: a CoverageEligibilityRequest in, a CoverageEligibilityResponse out, errors as OperationOutcome (docs/fhir.md).',
      },
      { name: 'sandbox', description: 'Sandbox helpers; served only when the server runs the sandbox network.' },
      { name: 'monitors', description: "Coverage that watches itself: a patient's coverage re-checked before visits, with what changed (docs/monitoring.md)." },
      {
        name: 'webhooks',
        description: 'Signed events (Standard Webhooks) when coverage changes, a check fails or a batch completes, with a delivery log and redelivery.',
      },
      {
        name: 'remittances',
        description:
          'What the payer actually paid: an 835 remittance read and each line compared with the estimate ' +
          'answered for it, and how right the estimates were (docs/remittances.md).',
      },
      GFE_TAG,
      {
        name: 'batches',
        description: 'Up to 10,000 checks at once, run in the background: queue them as JSON or CSV, follow the progress, read one result per row.',
      },
    ],
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apikey: {
          type: 'apiKey',
          in: 'header',
          name: 'apikey',
          description: 'The API key issued by the operator. A sandbox server prints a dev key when it starts.',
        },
      },
    },
  };
}

const INTRODUCTION = `Checks a patient's health-insurance coverage with their payer and answers in one normalized JSON shape.

**Authentication.** Every call under \`/v1\` carries the API key in the \`apikey\` header. A missing, unknown or revoked key gets \`401 UNAUTHORIZED\`.

**Money** is integer cents everywhere; \`coinsurance\` is percent points (20 = 20 %). Unknown amounts are \`null\`, never 0.

**Errors.** Every non-2xx answer is \`{ error_code, message, request_id }\`; \`400 INVALID_REQUEST\` adds \`errors: [{ field, message }]\`, one per field. Quote the \`request_id\` (also in the \`x-request-id\` header) when asking for help.

**Partial results.** \`206\` from \`/v1/estimate\` is a full answer with \`error_code\` set to \`UNKNOWN_COSTSHARE\` or \`UNKNOWN_REMAININGS\`: the fields the payer did not report are \`null\`.

**Rate limits.** Checks are counted per key per minute (50 by default). Past the limit the answer is \`429 TOO_MANY_REQUESTS\` with \`Retry-After\` in seconds; a payer that throttles the service gives the same code.

**Overload.** Any endpoint may answer \`503 SERVICE_UNAVAILABLE\` with \`Retry-After\` in seconds when the server is overloaded or shutting down: retry after that long, on another instance if there is one.

**Sandbox.** \`GET /v1/sandbox/members\` lists the mock members and what each endpoint answers for them: every example in this document is a recorded sandbox answer.`;

const CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  UNKNOWN_COSTSHARE: 'the payer did not report the cost share',
  UNKNOWN_REMAININGS: 'the payer did not report the remaining deductible and out-of-pocket amounts',
  INVALID_REQUEST: 'the body is malformed or a field is invalid; `errors` lists each field',
  PAYER_NOT_SUPPORTED: 'the payer is not supported',
  PROVIDER_NOT_RECOGNIZED: 'the payer does not recognize the provider',
  UNAUTHORIZED: 'missing, unknown or revoked API key',
  MEMBER_NOT_FOUND: 'no matching member',
  PAYLOAD_TOO_LARGE: 'the body is over 64 KiB',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not `application/json`',
  TOO_MANY_REQUESTS: 'past the rate limit, or the payer is throttling; retry after `Retry-After` seconds',
  PAYER_FAILURE: 'the payer system failed to answer',
};

/** What a code means for the batch calls where it differs from the checks. */
const BATCH_CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'a row or the upload is invalid, and nothing was queued; `errors` names each row and field',
  PAYLOAD_TOO_LARGE: 'the body is over 8 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'the body is neither `application/json` nor `text/csv`',
  TOO_MANY_REQUESTS:
    "the key's batch budget is used up (too many of its rows are waiting), or it created too many batches " +
    'this minute (COVERAGE_BATCH_CREATE_PER_MINUTE); retry after `Retry-After` seconds',
  NOT_FOUND: 'no batch with this id belongs to this key',
};
const codeMeaning = (path: string, code: ErrorCode): string =>
  (path.startsWith('/v1/batches') ? BATCH_CODE_MEANINGS[code] : undefined) ??
  (path.startsWith('/v1/monitors') || path.startsWith('/v1/webhooks') ? MONITORING_CODE_MEANINGS[code] : undefined) ??
  (isRemittancePath(path) ? REMITTANCE_CODE_MEANINGS[code] : undefined) ??
  (isGfePath(path) ? GFE_CODE_MEANINGS[code] : undefined) ??
  CODE_MEANINGS[code] ??
  'see the message';

function responseDescription(path: string, success: string, status: string, calls: ExampleCall[]): string {
  if (status === '200' || status === '201' || status === '202') return success;
  const codes = [...new Set(calls.filter((c) => String(c.status) === status).map((c) => c.error_code))].filter((c): c is ErrorCode => c !== null);
  if (codes.length === 0) return 'Error';
  const lines = codes.map((c) => `\`${c}\`: ${codeMeaning(path, c)}`);
  return status === '206' ? `Partial result, with \`error_code\` set. ${lines.join('; ')}.` : `${lines.join('; ')}.`;
}

interface MediaObject {
  schema?: unknown;
  examples?: Record<string, { summary: string; description?: string; value: unknown }>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  operationId?: string;
  [SUCCESS_DESCRIPTION]?: string;
  description?: string;
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
}
export interface DocumentObject {
  paths?: Record<string, Record<string, OperationObject>>;
  /** OpenAPI 3.1: the requests this service makes to its users (webhook deliveries). */
  webhooks?: Record<string, unknown>;
}

const RETRY_AFTER = { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } };
const SHOWN_CATALOG_ROWS = 3;

/** The catalog answer is long: the document shows its first rows (the test compares the whole answer). */
function shownResponse(call: ExampleCall, response: unknown): unknown {
  if (call.operation === 'sandboxMembers' && call.status === 200) {
    const { members } = response as { members: unknown[] };
    return { members: members.slice(0, SHOWN_CATALOG_ROWS) };
  }
  return response;
}

function requestExample(call: ExampleCall): { summary: string; description?: string; value: unknown } | null {
  // The oversized body would bloat the document; its response example says what was sent.
  const value = call.csv ?? call.x12 ?? call.body;
  if (value === undefined || call.send === 'oversized') return null;
  const notes: Record<string, string> = {
    without_key: 'Sent without the `apikey` header.',
    as_text: 'Sent with `Content-Type: text/plain`.',
    past_rate_limit: 'Sent by a key that had used up its checks for the minute.',
  };
  return { summary: call.summary, ...(call.send ? { description: notes[call.send] } : {}), value };
}

const DOCUMENTED: ReadonlySet<string> = new Set(DOCUMENTED_OPERATIONS);

/** Adds the descriptions, the response headers and the recorded examples to the generated document. */
export function decorateDocument<T extends DocumentObject>(document: T): T {
  document.webhooks = webhooksSection();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const id = operation.operationId as DocumentedOperation | undefined;
      if (!id || !DOCUMENTED.has(id)) continue;
      const calls = EXAMPLE_CALLS.filter((c) => c.operation === id);
      const success = operation[SUCCESS_DESCRIPTION];
      if (success === undefined) throw new Error(`route ${id} has no '${SUCCESS_DESCRIPTION}' in its schema`);
      delete operation[SUCCESS_DESCRIPTION];

      const requestContent = operation.requestBody?.content ?? {};
      for (const media of Object.values(requestContent)) media.examples = {};
      for (const call of calls) {
        const example = requestExample(call);
        const examples = requestContent[requestMediaType(call)]?.examples;
        if (example && examples) examples[call.name] = example;
      }

      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.description = responseDescription(path, success, status, calls);
        if (status === '429') response.headers = { 'Retry-After': RETRY_AFTER };
        for (const media of Object.values(response.content ?? {})) media.examples = {};
        for (const call of calls.filter((c) => String(c.status) === status)) {
          const recorded = exampleResponses()[exampleKey(call)];
          const examples = response.content?.[responseMediaType(call)]?.examples;
          if (recorded !== undefined && examples) examples[call.name] = { summary: call.summary, value: shownResponse(call, recorded) };
        }
      }
    }
  }
  return document;
}
