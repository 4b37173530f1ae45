/**
 * The calls the OpenAPI document shows as examples: for every endpoint, each outcome it can have.
 * The calls are data (the JSON files below); the responses are not written by hand either:
 * scripts/record-openapi-examples.ts sends these calls to the sandbox and stores the answers in
 * openapi-example-responses.json, and the test suite replays every call and fails when an answer
 * no longer matches what was recorded.
 */
import { Type, type Static } from 'typebox';
import { ErrorCodes, type ErrorCode } from '../../domain/errors.ts';
import { Enum, Nullable } from '../../domain/schemas/coverage.ts';
import coreCalls from './openapi-examples.json' with { type: 'json' };
import fhirCalls from './openapi-fhir-examples.json' with { type: 'json' };
import { FHIR_OPERATIONS } from './openapi-fhir.ts';
import monitoringCalls from './openapi-monitoring-examples.json' with { type: 'json' };
import { MONITORING_OPERATIONS } from './openapi-monitoring.ts';
import remittanceCalls from './openapi-remittance-examples.json' with { type: 'json' };
import { REMITTANCE_OPERATIONS } from './openapi-remittances.ts';
import gfeCalls from './openapi-gfe-examples.json' with { type: 'json' };
import { GFE_OPERATIONS } from './openapi-good-faith-estimates.ts';

/**
 * The operationIds the document shows examples for; each route's method and path are in its own
 * schema, and the served document is where the example calls look them up.
 */
export const DOCUMENTED_OPERATIONS = [
  'estimate',
  'discover',
  'scan',
  'medicaid',
  'payers',
  'getPayer',
  'sandboxMembers',
  'createBatch',
  'getBatch',
  'getBatchResults',
  'cancelBatch',
  ...MONITORING_OPERATIONS,
  ...REMITTANCE_OPERATIONS,
  ...GFE_OPERATIONS,
  ...FHIR_OPERATIONS,
] as const;
export type DocumentedOperation = (typeof DOCUMENTED_OPERATIONS)[number];

/** The batch budget (COVERAGE_BATCH_MAX_QUEUED_ROWS) of the server the examples are recorded on: small enough for one example to exceed. */
export const EXAMPLE_BATCH_BUDGET = 5;

/** One example call, as the JSON files write it (test/openapi/examples.test.ts checks every file against it). */
export const ExampleCallSchema = Type.Object(
  {
    operation: Enum(DOCUMENTED_OPERATIONS),
    /** Key of the example in the document; unique per operation. */
    name: Type.String({ pattern: '^[a-z0-9_]+$' }),
    summary: Type.String({ minLength: 1 }),
    status: Type.Integer({ minimum: 200, maximum: 599 }),
    error_code: Nullable(Enum(Object.keys(ErrorCodes) as ErrorCode[])),
    body: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** A CSV upload (content-type text/csv), sent instead of a JSON body. */
    csv: Type.Optional(Type.String()),
    /** An X12 file (content-type application/edi-x12, or text/plain with send as_text), sent instead of a JSON body. */
    x12: Type.Optional(Type.String()),
    /** The estimate example (by name) sent first, so the 835 has an estimate to be compared with. */
    estimate: Type.Optional(Type.String()),
    /**
     * The createRemittance examples (by name) sent first, each after its estimate: a getRemittance path
     * names the last one's id. A remittance call is sent by a key of its own, so it sees only these.
     */
    remittances: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    /**
     * The createGoodFaithEstimate examples (by name) sent first, by a key of its own: a path's {id}
     * names the last one's. Without it, an id no estimate has.
     */
    gfes: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    /** The last of `gfes` is recorded as given to the client first. */
    given: Type.Optional(Type.Boolean()),
    /** The {id} of the path: the batch of this createBatch example, sent first and read once completed. Without it, an id no batch has. */
    batch: Type.Optional(Type.String()),
    /** The answer asked for as text/csv (accept header) instead of JSON. */
    accept: Type.Optional(Type.Literal('text/csv')),
    /** The {id} of the path: a monitor made by this createMonitor example (after its first check). */
    monitor: Type.Optional(Type.String()),
    /** The {id} of the path: a webhook made by this createWebhook example. */
    webhook: Type.Optional(Type.String()),
    /** The {delivery_id} of the path (or a delivery in the log): the webhook is sent a test event first. */
    delivery: Type.Optional(Type.Boolean()),
    /** The {id} of a /v1/payers/{id} path (default: an ID no payer has). */
    payer: Type.Optional(Type.String()),
    /** A query string added to the path. */
    query: Type.Optional(Type.String()),
    /** How the call differs from a JSON request with a valid key. */
    send: Type.Optional(Enum(['without_key', 'as_text', 'oversized', 'past_rate_limit', 'past_route_limit'] as const)),
  },
  { additionalProperties: false },
);
export type ExampleCall = Static<typeof ExampleCallSchema>;

export const exampleKey = (call: Pick<ExampleCall, 'operation' | 'name'>) => `${call.operation}/${call.name}`;
/** The media types of an example's request body and of its answer. */
export function requestMediaType(call: ExampleCall): string {
  if (call.x12 !== undefined) return call.send === 'as_text' ? 'text/plain' : 'application/edi-x12';
  return call.csv === undefined ? 'application/json' : 'text/csv';
}
export const responseMediaType = (call: ExampleCall) => call.accept ?? 'application/json';

// The calls themselves are data: one JSON file for the checks, payers, sandbox and batches, one
// each for monitoring, remittances, Good Faith Estimates and the FHIR door. Each is an array of ExampleCall, in the document's order.
export const EXAMPLE_CALLS: readonly ExampleCall[] = [...coreCalls, ...monitoringCalls, ...remittanceCalls, ...gfeCalls, ...fhirCalls] as ExampleCall[];

/** The FHIR door's calls (test/fhir/examples.test.ts replays them as FHIR clients send them). */
export const FHIR_EXAMPLE_CALLS: readonly ExampleCall[] = EXAMPLE_CALLS.filter((c) => (FHIR_OPERATIONS as readonly string[]).includes(c.operation));
