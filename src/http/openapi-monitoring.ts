/**
 * The OpenAPI document's words for /v1/monitors and /v1/webhooks (docs/monitoring.md), kept beside
 * the others (openapi-document.ts, openapi-examples.ts); its example calls are
 * openapi-monitoring-examples.json.
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
