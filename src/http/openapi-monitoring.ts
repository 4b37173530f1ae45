/**
 * The OpenAPI document's words and example calls for /v1/monitors and /v1/webhooks
 * (docs/monitoring.md), kept beside the others (openapi-document.ts, openapi-examples.ts).
 */
import type { ErrorCode } from '../domain/errors.ts';
import {
  DeliveryAnswer,
  DeliveryList,
  Monitor,
  MonitorCheckResult,
  MonitorCreated,
  MonitorCreateRequest,
  MonitorList,
  MonitorsCreated,
  MonitorsCreateRequest,
  Webhook,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookList,
} from '../domain/schemas/monitors.ts';
import { WEBHOOK_EVENT_SCHEMAS } from '../domain/schemas/webhook-events.ts';

export type MonitoringOperation =
  | 'createMonitor'
  | 'createMonitors'
  | 'listMonitors'
  | 'getMonitor'
  | 'deleteMonitor'
  | 'checkMonitor'
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'deleteWebhook'
  | 'testWebhook'
  | 'listWebhookDeliveries'
  | 'redeliverWebhookDelivery';

/** An example call of these operations (the shape of openapi-examples.ts ExampleCall, kept here so neither file imports the other's). */
export interface MonitoringExampleCall {
  operation: MonitoringOperation;
  name: string;
  summary: string;
  status: number;
  error_code: ErrorCode | null;
  body?: Record<string, unknown>;
  csv?: string;
  monitor?: string;
  webhook?: string;
  delivery?: boolean;
  query?: string;
  send?: 'without_key' | 'as_text' | 'past_route_limit';
}

/** The OpenAPI 3.1 `webhooks` section: what a receiver is sent, per event type. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          summary: `The ${type} event`,
          description: `${(schema as { description?: string }).description ?? ''} Verify webhook-signature before trusting the body (docs/monitoring.md); deduplicate on webhook-id. Answer 2xx within 10 s, or it is retried with backoff for 24 h.`,
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '200': { description: 'Received (any 2xx)' } },
        },
      },
    ]),
  );
}

/** Components of the document (openapi-document.ts SHARED_SCHEMAS). */
export const MONITORING_SCHEMAS = [
  MonitorCreateRequest,
  MonitorCreated,
  Monitor,
  MonitorList,
  MonitorCheckResult,
  MonitorsCreateRequest,
  MonitorsCreated,
  WebhookCreateRequest,
  WebhookCreated,
  Webhook,
  WebhookList,
  DeliveryList,
  DeliveryAnswer,
];

export const MONITORING_ROUTES: Record<MonitoringOperation, { method: 'GET' | 'POST' | 'DELETE'; path: string }> = {
  createMonitor: { method: 'POST', path: '/v1/monitors' },
  createMonitors: { method: 'POST', path: '/v1/monitors/bulk' },
  listMonitors: { method: 'GET', path: '/v1/monitors' },
  getMonitor: { method: 'GET', path: '/v1/monitors/{id}' },
  deleteMonitor: { method: 'DELETE', path: '/v1/monitors/{id}' },
  checkMonitor: { method: 'POST', path: '/v1/monitors/{id}/check' },
  createWebhook: { method: 'POST', path: '/v1/webhooks' },
  listWebhooks: { method: 'GET', path: '/v1/webhooks' },
  getWebhook: { method: 'GET', path: '/v1/webhooks/{id}' },
  deleteWebhook: { method: 'DELETE', path: '/v1/webhooks/{id}' },
  testWebhook: { method: 'POST', path: '/v1/webhooks/{id}/test' },
  listWebhookDeliveries: { method: 'GET', path: '/v1/webhooks/{id}/deliveries' },
  redeliverWebhookDelivery: { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver' },
};

/** What each operation does, for the document (openapi-document.ts adds them). */
export const MONITORING_DESCRIPTIONS: Record<MonitoringOperation, string> = {
  createMonitors:
    'Send `{"monitors": [...]}` (each a createMonitor body), or a schedule as `text/csv`: the columns of a batch upload (docs/batch.md) and `appointment_date` (MM/DD/YYYY or YYYY-MM-DD), optionally `reference`, one line per appointment; lines of one patient become one monitor with all their appointments, checked 3 days before and on the day. Every row is validated first: if any is invalid nothing is created and the 400 names each row and field.',
  createMonitor:
    'Takes the fields of an estimate request and a schedule. The first check is made right away (the baseline); later checks compare with the last answer and raise coverage.changed webhook events naming what changed. In production the server needs COVERAGE_DATA_KEY (503 otherwise).',
  listMonitors: 'Each with its schedule, next check and last result. Pages of `limit` (default 50, at most 200); pass `next_offset` as `offset` for the next.',
  getMonitor: 'last_check is null until the first check is made (right after creation). next_check_at is null once the schedule has no more checks.',
  deleteMonitor: 'No more checks are made and the stored answer is deleted. Events already queued for webhooks are still delivered.',
  checkMonitor:
    'Makes a check like a scheduled one (same comparison, same webhook events) without moving the schedule. `result` is what POST /v1/estimate answers for the monitored patient, whatever its status.',
  createWebhook:
    'The URL must be https and its host must resolve only to public addresses (checked now and at each delivery). Keep the secret: it verifies the webhook-signature header of every delivery and is not shown again.',
  listWebhooks: 'Each with its URL and event types. Secrets are never shown again after creation.',
  getWebhook: 'The secret is not shown: it was answered once, at creation. Delete the webhook and create another to get a new one.',
  deleteWebhook: 'Deliveries not sent yet are dropped with it.',
  testWebhook: 'Answers the queued delivery; follow it with GET /v1/webhooks/{id}/deliveries. The event carries no member data.',
  listWebhookDeliveries:
    "Each event sent or to be sent: its state, attempts, the receiver's last status and the next attempt. Pages of `limit` (default 50, at most 200).",
  redeliverWebhookDelivery:
    'Whatever its state: it is sent as soon as a worker is free, and retried for another 24 h if it fails. Receivers that deduplicate by webhook-id see it as the same event.',
};

/** What a success answers. */
export const MONITORING_SUCCESS: Record<MonitoringOperation, string> = {
  createMonitor: 'Created: the monitor id and its next check (also the `Location` header). The first check is made right away.',
  createMonitors: 'Created: one monitor per patient, with the rows it was made from. Each makes its first check right away.',
  listMonitors: 'A page of monitors.',
  getMonitor: 'The monitor.',
  deleteMonitor: 'Deleted, with its snapshot.',
  checkMonitor: 'Checked: the estimate answer and the monitor after the check.',
  createWebhook: 'Created: the webhook and its signing secret, shown this once.',
  listWebhooks: 'The webhooks.',
  getWebhook: 'The webhook.',
  deleteWebhook: 'Deleted, with its delivery log.',
  testWebhook: 'Queued: the delivery of the test event.',
  listWebhookDeliveries: 'A page of deliveries.',
  redeliverWebhookDelivery: 'Queued again: the delivery.',
};

export const MONITORING_CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'the body or query is invalid (for a webhook: a URL that is not https or resolves to a private address); `errors` names each field',
  NOT_FOUND: 'no monitor, webhook or delivery with this id belongs to this key',
};

const avery = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
  in_network: true,
};
const schedule = { appointments: ['2026-12-03', '2026-12-17'], every_days: 30 };
const scheduleCsv = [
  'member_id,member_first_name,member_last_name,member_dob,payer_id,provider_npi,session_cost,appointment_date,reference',
  '10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,12/03/2026,chart 1',
  '10011MHDM,Marcus,Bell,11/02/1979,SBX-EVERGREEN,1234567893,$150.00,12/03/2026,chart 2',
  '10010MHNA,Avery,Walsh,03/14/1988,SBX-EVERGREEN,1234567893,$150.00,12/17/2026,chart 1',
  '',
].join('\n');
/** TEST-NET-3 (RFC 5737): an address for examples, public in form; the example server sends nothing (COVERAGE_WEBHOOK_DELIVERY=0). */
const HOOK_URL = 'https://203.0.113.10/coverage-events';
const unauthorized = (operation: MonitoringOperation, body?: Record<string, unknown>): MonitoringExampleCall => ({
  operation,
  name: 'unauthorized',
  summary: 'No apikey header',
  status: 401,
  error_code: 'UNAUTHORIZED',
  send: 'without_key',
  ...(body ? { body } : {}),
});
const notFound = (operation: MonitoringOperation, what: string): MonitoringExampleCall => ({
  operation,
  name: 'not_found',
  summary: `An id that is no ${what} of this key`,
  status: 404,
  error_code: 'NOT_FOUND',
});

export const MONITORING_EXAMPLE_CALLS: MonitoringExampleCall[] = [
  {
    operation: 'createMonitor',
    name: 'appointments',
    summary: 'Two appointments (checked 3 days before and on the day) and every 30 days',
    status: 201,
    error_code: null,
    body: { ...avery, reference: 'chart 4411', schedule },
  },
  {
    operation: 'createMonitor',
    name: 'every_days',
    summary: 'Every 14 days, checking on the morning of each at 11:00 UTC',
    status: 201,
    error_code: null,
    body: { ...avery, schedule: { every_days: 14, check_hour_utc: 11 } },
  },
  {
    operation: 'createMonitor',
    name: 'no_schedule',
    summary: 'A schedule with neither appointments nor every_days',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { ...avery, schedule: {} },
  },
  unauthorized('createMonitor', { ...avery, schedule }),
  {
    operation: 'createMonitors',
    name: 'json',
    summary: 'Two patients as JSON',
    status: 201,
    error_code: null,
    body: {
      monitors: [
        { ...avery, schedule: { appointments: ['2026-12-03'] } },
        { ...avery, member_id: '10011MHDM', member_first_name: 'Marcus', member_last_name: 'Bell', member_dob: '1979-11-02', schedule: { every_days: 30 } },
      ],
    },
  },
  {
    operation: 'createMonitors',
    name: 'schedule_csv',
    summary: "Tomorrow's schedule as CSV: Avery's two visits make one monitor",
    status: 201,
    error_code: null,
    csv: scheduleCsv,
  },
  {
    operation: 'createMonitors',
    name: 'invalid_csv',
    summary: 'A schedule whose row 3 has no appointment date: nothing is created',
    status: 400,
    error_code: 'INVALID_REQUEST',
    csv: scheduleCsv.replace(',12/03/2026,chart 2', ',,chart 2'),
  },
  unauthorized('createMonitors', { monitors: [{ ...avery, schedule }] }),
  {
    operation: 'createMonitors',
    name: 'unsupported_media_type',
    summary: 'The body sent as text/plain',
    status: 415,
    error_code: 'UNSUPPORTED_MEDIA_TYPE',
    body: { monitors: [{ ...avery, schedule }] },
    send: 'as_text',
  },
  {
    operation: 'createMonitors',
    name: 'rate_limited',
    summary: 'Past the bulk uploads a key may make a minute (COVERAGE_MONITOR_BULK_PER_MINUTE), refused uploads included',
    status: 429,
    error_code: 'TOO_MANY_REQUESTS',
    body: { monitors: [{ ...avery, schedule }] },
    send: 'past_route_limit',
  },
  { operation: 'listMonitors', name: 'first_page', summary: 'The first page of two', status: 200, error_code: null, query: '?limit=2' },
  {
    operation: 'listMonitors',
    name: 'invalid_query',
    summary: 'A limit that is not a number',
    status: 400,
    error_code: 'INVALID_REQUEST',
    query: '?limit=all',
  },
  unauthorized('listMonitors'),
  {
    operation: 'getMonitor',
    name: 'checked',
    summary: 'The appointments example after its first check',
    status: 200,
    error_code: null,
    monitor: 'appointments',
  },
  unauthorized('getMonitor'),
  notFound('getMonitor', 'monitor'),
  {
    operation: 'deleteMonitor',
    name: 'deleted',
    summary: 'A monitor of the every_days example, deleted',
    status: 200,
    error_code: null,
    monitor: 'every_days',
  },
  unauthorized('deleteMonitor'),
  notFound('deleteMonitor', 'monitor'),
  {
    operation: 'checkMonitor',
    name: 'no_change',
    summary: 'Checked again: the coverage has not changed since the first check',
    status: 200,
    error_code: null,
    monitor: 'appointments',
  },
  unauthorized('checkMonitor'),
  notFound('checkMonitor', 'monitor'),

  {
    operation: 'createWebhook',
    name: 'created',
    summary: 'Coverage changes and failed checks to an https endpoint',
    status: 201,
    error_code: null,
    body: { url: HOOK_URL, events: ['coverage.changed', 'coverage.check_failed'] },
  },
  {
    operation: 'createWebhook',
    name: 'private_address',
    summary: 'A URL that reaches a private address',
    status: 400,
    error_code: 'INVALID_REQUEST',
    body: { url: 'https://10.0.0.5/hook', events: ['coverage.changed'] },
  },
  unauthorized('createWebhook', { url: HOOK_URL, events: ['batch.completed'] }),
  { operation: 'listWebhooks', name: 'all', summary: "The key's webhooks", status: 200, error_code: null },
  unauthorized('listWebhooks'),
  { operation: 'getWebhook', name: 'found', summary: 'The created example', status: 200, error_code: null, webhook: 'created' },
  unauthorized('getWebhook'),
  notFound('getWebhook', 'webhook'),
  { operation: 'deleteWebhook', name: 'deleted', summary: 'A webhook of the created example, deleted', status: 200, error_code: null, webhook: 'created' },
  unauthorized('deleteWebhook'),
  notFound('deleteWebhook', 'webhook'),
  { operation: 'testWebhook', name: 'queued', summary: 'A webhook.test event queued', status: 202, error_code: null, webhook: 'created' },
  unauthorized('testWebhook'),
  notFound('testWebhook', 'webhook'),
  {
    operation: 'listWebhookDeliveries',
    name: 'log',
    summary: 'The log of a webhook sent a test event',
    status: 200,
    error_code: null,
    webhook: 'created',
    delivery: true,
  },
  {
    operation: 'listWebhookDeliveries',
    name: 'invalid_query',
    summary: 'An offset that is not a number',
    status: 400,
    error_code: 'INVALID_REQUEST',
    webhook: 'created',
    query: '?offset=-1',
  },
  unauthorized('listWebhookDeliveries'),
  notFound('listWebhookDeliveries', 'webhook'),
  {
    operation: 'redeliverWebhookDelivery',
    name: 'queued',
    summary: 'The test delivery sent again, with the same webhook-id',
    status: 202,
    error_code: null,
    webhook: 'created',
    delivery: true,
  },
  unauthorized('redeliverWebhookDelivery'),
  notFound('redeliverWebhookDelivery', 'delivery'),
];
