/**
 * The calls the OpenAPI document shows as examples: for every endpoint, each outcome it can have.
 * The responses are not written by hand: scripts/record-openapi-examples.ts sends these calls to
 * the sandbox and stores the answers in openapi-example-responses.ts, and the test suite replays
 * every call and fails when an answer no longer matches what was recorded.
 */
import type { ErrorCode } from '../domain/errors.ts';
import { FHIR_EXAMPLE_CALLS, FHIR_ROUTES, type FhirOperation } from './openapi-fhir.ts';
import { MONITORING_EXAMPLE_CALLS, MONITORING_ROUTES, type MonitoringOperation } from './openapi-monitoring.ts';

export type DocumentedOperation =
  | 'estimate'
  | 'discover'
  | 'scan'
  | 'medicaid'
  | 'payers'
  | 'getPayer'
  | 'sandboxMembers'
  | 'createBatch'
  | 'getBatch'
  | 'getBatchResults'
  | 'cancelBatch'
  | MonitoringOperation
  | FhirOperation;

export const OPERATION_ROUTES: Record<DocumentedOperation, { method: 'GET' | 'POST' | 'DELETE'; path: string }> = {
  estimate: { method: 'POST', path: '/v1/estimate' },
  discover: { method: 'POST', path: '/v1/discover' },
  scan: { method: 'POST', path: '/v1/scan' },
  medicaid: { method: 'POST', path: '/v1/medicaid' },
  payers: { method: 'GET', path: '/v1/payers' },
  getPayer: { method: 'GET', path: '/v1/payers/{id}' },
  sandboxMembers: { method: 'GET', path: '/v1/sandbox/members' },
  createBatch: { method: 'POST', path: '/v1/batches' },
  getBatch: { method: 'GET', path: '/v1/batches/{id}' },
  getBatchResults: { method: 'GET', path: '/v1/batches/{id}/results' },
  cancelBatch: { method: 'DELETE', path: '/v1/batches/{id}' },
  ...MONITORING_ROUTES,
  ...FHIR_ROUTES,
};

/** The batch budget (COVERAGE_BATCH_MAX_QUEUED_ROWS) of the server the examples are recorded on: small enough for one example to exceed. */
export const EXAMPLE_BATCH_BUDGET = 5;

export interface ExampleCall {
  operation: DocumentedOperation;
  /** Key of the example in the document; unique per operation. */
  name: string;
  summary: string;
  status: number;
  error_code: ErrorCode | null;
  body?: Record<string, unknown>;
  /** A CSV upload (content-type text/csv), sent instead of a JSON body. */
  csv?: string;
  /** The {id} of the path: the batch of this createBatch example, sent first and read once completed. Without it, an id no batch has. */
  batch?: string;
  /** The answer asked for as text/csv (accept header) instead of JSON. */
  accept?: 'text/csv';
  /** The {id} of the path: a monitor made by this createMonitor example (after its first check). */
  monitor?: string;
  /** The {id} of the path: a webhook made by this createWebhook example. */
  webhook?: string;
  /** The {delivery_id} of the path (or a delivery in the log): the webhook is sent a test event first. */
  delivery?: boolean;
  /** The {id} of a /v1/payers/{id} path (default: an ID no payer has). */
  payer?: string;
  /** A query string added to the path. */
  query?: string;
  /** How the call differs from a JSON request with a valid key. */
  send?: 'without_key' | 'as_text' | 'oversized' | 'past_rate_limit' | 'past_route_limit';
}

export const exampleKey = (call: Pick<ExampleCall, 'operation' | 'name'>) => `${call.operation}/${call.name}`;
/** The media types of an example's request body and of its answer. */
export const requestMediaType = (call: ExampleCall) => (call.csv === undefined ? 'application/json' : 'text/csv');
export const responseMediaType = (call: ExampleCall) => call.accept ?? 'application/json';

const NPI = '1234567893';
const avery = { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const estimate = (member_id: string, first: string, last: string, dob: string, payer_id: string) => ({
  member_id,
  member_first_name: first,
  member_last_name: last,
  member_dob: dob,
  payer_id,
  provider_npi: NPI,
  provider_session_cost: '15000',
  in_network: true,
});
const activeEstimate = estimate('10010MHNA', 'Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN');
const discover = (first: string, last: string, dob: string, payer_id: string) => ({
  member_first_name: first,
  member_last_name: last,
  member_dob: dob,
  zip: '10001',
  payer_id,
});
const scan = (first: string, last: string, dob: string) => ({ member_first_name: first, member_last_name: last, member_dob: dob, zip: '10001' });
const herrera = { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11' };
const batchChecks = [
  { endpoint: 'estimate', request: activeEstimate },
  { endpoint: 'estimate', request: estimate('10090MHUC', 'Adrian', 'Cole', '1986-11-19', 'SBX-EVERGREEN') },
  { endpoint: 'discover', request: discover('Nora', 'Quinn', '1983-03-23', 'SBX-EVERGREEN') },
];
const batchCsv = [
  'endpoint,member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,provider_session_cost,in_network,zip',
  `estimate,10010MHNA,Avery,Walsh,1988-03-14,SBX-EVERGREEN,${NPI},15000,true,`,
  `estimate,10090MHUC,Adrian,Cole,1986-11-19,SBX-EVERGREEN,${NPI},15000,true,`,
  'discover,,Nora,Quinn,1983-03-23,SBX-EVERGREEN,,,,10001',
  '',
].join('\n');

/** The error outcomes every JSON endpoint shares, whatever its body. */
const transportErrors = (operation: DocumentedOperation, body: Record<string, unknown>): ExampleCall[] => [
  { operation, name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', body, send: 'without_key' },
  {
    operation,
    name: 'payload_too_large',
    summary: 'A body over 64 KiB (a 70,000-character name)',
    status: 413,
    error_code: 'PAYLOAD_TOO_LARGE',
    body,
    send: 'oversized',
  },
  {
    operation,
    name: 'unsupported_media_type',
    summary: 'The body sent as text/plain',
    status: 415,
    error_code: 'UNSUPPORTED_MEDIA_TYPE',
    body,
    send: 'as_text',
  },
  {
    operation,
    name: 'rate_limited',
    summary: 'Past the API key’s checks per minute',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body,
    send: 'past_rate_limit',
  },
];

export const EXAMPLE_CALLS: ExampleCall[] = [
  // estimate
  { operation: 'estimate', name: 'active_copay', summary: 'Active PPO: $30 copay on a $150 session', status: 200, error_code: null, body: activeEstimate },
  {
    operation: 'estimate',
    name: 'coinsurance_after_deductible',
    summary: '20 % coinsurance after a partly met deductible',
    status: 200,
    error_code: null,
    body: estimate('10011MHDM', 'Marcus', 'Bell', '1979-11-02', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'telehealth_encounter',
    summary: 'The encounter: a 53-minute psychotherapy session (90837) by telehealth in the home (place 10) next week',
    status: 200,
    error_code: null,
    body: { ...activeEstimate, date_of_service: '2026-06-22', procedure_code: '90837', place_of_service: '10' },
  },
  {
    operation: 'estimate',
    name: 'carve_out',
    summary: 'Behavioral health carved out to a third-party administrator',
    status: 200,
    error_code: null,
    body: estimate('10040MHCA', 'Maya', 'Goldberg', '1993-03-19', ''),
  },
  {
    operation: 'estimate',
    name: 'demographic_mismatch',
    summary: 'Matched by member ID; the payer spells the name differently',
    status: 200,
    error_code: null,
    body: estimate('10030MHDM', 'Katherine', 'Miller', '1984-04-04', ''),
  },
  {
    operation: 'estimate',
    name: 'unknown_costshare',
    summary: 'Partial: the payer reports no cost share',
    status: 206,
    error_code: 'UNKNOWN_COSTSHARE',
    body: estimate('10090MHUC', 'Adrian', 'Cole', '1986-11-19', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'unknown_remainings',
    summary: 'Partial: remaining deductible and out-of-pocket unknown',
    status: 206,
    error_code: 'UNKNOWN_REMAININGS',
    body: estimate('10091MHUA', 'Bianca', 'Ferreira', '1990-12-12', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'invalid_request',
    summary: 'An impossible date and a bad NPI check digit',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { ...activeEstimate, member_dob: '1988-02-30', provider_npi: '1234567890' },
  },
  {
    operation: 'estimate',
    name: 'date_of_service_out_of_window',
    summary: 'A date of service more than 12 months back: outside the window payers answer for',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { ...activeEstimate, date_of_service: '2025-01-15' },
  },
  {
    operation: 'estimate',
    name: 'payer_not_supported',
    summary: 'The payer does not accept inquiries from this service',
    status: 400,
    error_code: 'PAYER_NOT_SUPPORTED',
    body: estimate('21102MHRR', 'Ruth', 'Abbott', '1966-01-15', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'provider_not_recognized',
    summary: 'The payer does not recognize the provider',
    status: 400,
    error_code: 'PROVIDER_NOT_RECOGNIZED',
    body: estimate('PNR40001', 'Caleb', 'Foster', '1988-08-18', 'SBX-HARBOR'),
  },
  {
    operation: 'estimate',
    name: 'member_not_found',
    summary: 'The payer has no such member',
    status: 404,
    error_code: 'MEMBER_NOT_FOUND',
    body: estimate('10100MHMNF', 'Nora', 'Quinn', '1983-03-23', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'payer_throttled',
    summary: 'The payer throttles requests',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: estimate('TMR42901', 'Iris', 'Novak', '1979-05-05', 'SBX-HARBOR'),
  },
  {
    operation: 'estimate',
    name: 'payer_failure',
    summary: 'The payer cannot answer',
    status: 502,
    error_code: 'PAYER_FAILURE',
    body: estimate('11101MHRR', 'Peter', 'Lang', '1972-07-04', 'SBX-EVERGREEN'),
  },
  {
    operation: 'estimate',
    name: 'explain',
    summary: '"explain": true: the 271 benefit and rule behind each figure (deductible waived by MSG)',
    status: 200,
    error_code: null,
    body: { ...estimate('10120MHDM', 'Lucia', 'Romano', '1989-10-27', 'SBX-HARBOR'), explain: true },
  },
  ...transportErrors('estimate', activeEstimate),

  // discover
  {
    operation: 'discover',
    name: 'active',
    summary: 'Active coverage at the payer',
    status: 200,
    error_code: null,
    body: discover('Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN'),
  },
  {
    operation: 'discover',
    name: 'explain',
    summary: '"explain": true: the 271 benefits the plan was read from',
    status: 200,
    error_code: null,
    body: { ...discover('Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN'), explain: true },
  },
  {
    operation: 'discover',
    name: 'invalid_request',
    summary: 'No payer_id, and a ZIP that is not one',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { ...avery, zip: '1000' },
  },
  {
    operation: 'discover',
    name: 'payer_not_supported',
    summary: 'The payer does not accept inquiries from this service',
    status: 400,
    error_code: 'PAYER_NOT_SUPPORTED',
    body: discover('Ruth', 'Abbott', '1966-01-15', 'SBX-EVERGREEN'),
  },
  {
    operation: 'discover',
    name: 'provider_not_recognized',
    summary: 'The payer does not recognize the provider',
    status: 400,
    error_code: 'PROVIDER_NOT_RECOGNIZED',
    body: discover('Caleb', 'Foster', '1988-08-18', 'SBX-HARBOR'),
  },
  {
    operation: 'discover',
    name: 'member_not_found',
    summary: 'No member with this name and DOB',
    status: 404,
    error_code: 'MEMBER_NOT_FOUND',
    body: discover('Nora', 'Quinn', '1983-03-23', 'SBX-EVERGREEN'),
  },
  {
    operation: 'discover',
    name: 'payer_throttled',
    summary: 'The payer throttles requests',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: discover('Iris', 'Novak', '1979-05-05', 'SBX-HARBOR'),
  },
  {
    operation: 'discover',
    name: 'payer_failure',
    summary: 'The payer cannot answer',
    status: 502,
    error_code: 'PAYER_FAILURE',
    body: discover('Peter', 'Lang', '1972-07-04', 'SBX-EVERGREEN'),
  },
  ...transportErrors('discover', discover('Avery', 'Walsh', '1988-03-14', 'SBX-EVERGREEN')),

  // scan
  {
    operation: 'scan',
    name: 'active',
    summary: 'Coverage found across the payers',
    status: 200,
    error_code: null,
    body: scan('Keisha', 'Daniels', '1997-04-14'),
  },
  {
    operation: 'scan',
    name: 'invalid_request',
    summary: 'A blank last name and a payer_id, which scan does not take',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { ...scan('Avery', '', '1988-03-14'), payer_id: 'SBX-EVERGREEN' },
  },
  {
    operation: 'scan',
    name: 'member_not_found',
    summary: 'No payer knows the person',
    status: 404,
    error_code: 'MEMBER_NOT_FOUND',
    body: scan('Nobody', 'Known', '1990-01-01'),
  },
  {
    operation: 'scan',
    name: 'payer_failure',
    summary: 'No coverage found and a payer could not answer',
    status: 502,
    error_code: 'PAYER_FAILURE',
    body: scan('Peter', 'Lang', '1972-07-04'),
  },
  ...transportErrors('scan', scan('Keisha', 'Daniels', '1997-04-14')),

  // medicaid
  {
    operation: 'medicaid',
    name: 'active',
    summary: 'New York Medicaid, routed by patient_state',
    status: 200,
    error_code: null,
    body: { ...herrera, patient_state: 'NY' },
  },
  {
    operation: 'medicaid',
    name: 'invalid_request',
    summary: 'Neither payer_id nor patient_state',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: herrera,
  },
  {
    operation: 'medicaid',
    name: 'payer_not_supported',
    summary: 'A payer_id the service does not know',
    status: 400,
    error_code: 'PAYER_NOT_SUPPORTED',
    body: { ...herrera, payer_id: 'NO-SUCH-PAYER' },
  },
  {
    operation: 'medicaid',
    name: 'member_not_found',
    summary: 'A commercial member: no Medicaid coverage',
    status: 404,
    error_code: 'MEMBER_NOT_FOUND',
    body: { member_id: '10010MHNA', ...avery, payer_id: 'SBX-EVERGREEN' },
  },
  {
    operation: 'medicaid',
    name: 'payer_throttled',
    summary: 'The payer throttles requests',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: { member_id: 'TMR42901', member_first_name: 'Iris', member_last_name: 'Novak', member_dob: '1979-05-05', payer_id: 'SBX-HARBOR' },
  },
  {
    operation: 'medicaid',
    name: 'payer_failure',
    summary: 'The payer cannot answer',
    status: 502,
    error_code: 'PAYER_FAILURE',
    body: { member_id: '11101MHRR', member_first_name: 'Peter', member_last_name: 'Lang', member_dob: '1972-07-04', payer_id: 'SBX-EVERGREEN' },
  },
  ...transportErrors('medicaid', { ...herrera, patient_state: 'NY' }),

  // payers
  { operation: 'payers', name: 'sandbox', summary: 'The sandbox network', status: 200, error_code: null },
  {
    operation: 'payers',
    name: 'search',
    summary: 'Searching by name, ID or alias (?query=evergren, a typo included)',
    status: 200,
    error_code: null,
    query: '?query=evergren',
  },
  {
    operation: 'payers',
    name: 'query_too_long',
    summary: 'A search of over 100 characters',
    status: 400,
    error_code: 'INVALID_REQUEST',
    query: `?query=${'x'.repeat(101)}`,
  },
  { operation: 'payers', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', send: 'without_key' },
  {
    operation: 'payers',
    name: 'rate_limited',
    summary: 'Past the searches a key may make a minute (listing is not counted)',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    query: '?query=harbor',
    send: 'past_route_limit',
  },
  {
    operation: 'getPayer',
    name: 'found',
    summary: 'A payer by its ID (any alias or connection payer ID works too)',
    status: 200,
    error_code: null,
    payer: 'SBX-EVERGREEN',
  },
  { operation: 'getPayer', name: 'not_found', summary: 'No payer has this ID or alias', status: 404, error_code: 'NOT_FOUND', payer: 'NO-SUCH-PAYER' },
  {
    operation: 'getPayer',
    name: 'unauthorized',
    summary: 'No apikey header',
    status: 401,
    error_code: 'UNAUTHORIZED',
    send: 'without_key',
    payer: 'SBX-EVERGREEN',
  },

  // sandbox members
  { operation: 'sandboxMembers', name: 'catalog', summary: 'The catalog (the first three rows shown)', status: 200, error_code: null },
  { operation: 'sandboxMembers', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', send: 'without_key' },

  // batches
  { operation: 'createBatch', name: 'json', summary: 'Three checks as JSON', status: 202, error_code: null, body: { checks: batchChecks } },
  { operation: 'createBatch', name: 'csv', summary: 'The same three checks as a CSV upload', status: 202, error_code: null, csv: batchCsv },
  {
    operation: 'createBatch',
    name: 'invalid_rows',
    summary: 'An impossible date in row 2 and an unknown endpoint in row 3: nothing is queued',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { checks: [batchChecks[0], { endpoint: 'estimate', request: { ...activeEstimate, member_dob: '1988-02-30' } }, { endpoint: 'lookup', request: {} }] },
  },
  {
    operation: 'createBatch',
    name: 'invalid_csv',
    summary: 'A CSV upload whose row 2 (the first after the header) has no date of birth and an in_network that is not a yes or no',
    status: 400,
    error_code: 'INVALID_REQUEST',
    csv: 'member_id,member_first_name,member_last_name,member_dob,in_network\n10010MHNA,Avery,Walsh,,maybe\n10090MHUC,Adrian,Cole,1986-11-19,yes\n',
  },
  {
    operation: 'createBatch',
    name: 'unauthorized',
    summary: 'No apikey header',
    status: 401,
    error_code: 'UNAUTHORIZED',
    body: { checks: batchChecks },
    send: 'without_key',
  },
  {
    operation: 'createBatch',
    name: 'payload_too_large',
    summary: 'A body over 8 MiB (a 9,000,000-character name)',
    status: 413,
    error_code: 'PAYLOAD_TOO_LARGE',
    body: { checks: batchChecks },
    send: 'oversized',
  },
  {
    operation: 'createBatch',
    name: 'unsupported_media_type',
    summary: 'The body sent as text/plain',
    status: 415,
    error_code: 'UNSUPPORTED_MEDIA_TYPE',
    body: { checks: batchChecks },
    send: 'as_text',
  },
  {
    operation: 'createBatch',
    name: 'over_budget',
    summary: `Six rows for a key that may have ${EXAMPLE_BATCH_BUDGET} waiting (COVERAGE_BATCH_MAX_QUEUED_ROWS=${EXAMPLE_BATCH_BUDGET})`,
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: { checks: [...batchChecks, ...batchChecks] },
  },
  { operation: 'getBatch', name: 'completed', summary: 'The JSON example batch, completed', status: 200, error_code: null, batch: 'json' },
  { operation: 'getBatch', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', send: 'without_key' },
  { operation: 'getBatch', name: 'not_found', summary: 'An id that is no batch of this key', status: 404, error_code: 'NOT_FOUND' },
  { operation: 'getBatchResults', name: 'json', summary: 'The JSON example batch, one result per row', status: 200, error_code: null, batch: 'json' },
  {
    operation: 'getBatchResults',
    name: 'csv',
    summary: 'The same results with accept: text/csv',
    status: 200,
    error_code: null,
    batch: 'json',
    accept: 'text/csv',
  },
  { operation: 'getBatchResults', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', send: 'without_key' },
  { operation: 'getBatchResults', name: 'not_found', summary: 'An id that is no batch of this key', status: 404, error_code: 'NOT_FOUND' },
  {
    operation: 'cancelBatch',
    name: 'finished',
    summary: 'The JSON example batch, already completed: nothing left to cancel',
    status: 200,
    error_code: null,
    batch: 'json',
  },
  { operation: 'cancelBatch', name: 'unauthorized', summary: 'No apikey header', status: 401, error_code: 'UNAUTHORIZED', send: 'without_key' },
  { operation: 'cancelBatch', name: 'not_found', summary: 'An id that is no batch of this key', status: 404, error_code: 'NOT_FOUND' },
  ...MONITORING_EXAMPLE_CALLS,
  ...FHIR_EXAMPLE_CALLS,
];
