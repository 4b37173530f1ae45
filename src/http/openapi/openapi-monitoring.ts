/**
 * The OpenAPI document's words for /v1/monitors and /v1/webhooks (docs/monitoring.md), kept beside
 * the others (openapi-document.ts, openapi-examples.ts); its example calls are
 * openapi-monitoring-examples.json.
 */
import type { ErrorCode } from '../../domain/errors.ts';
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
} from '../../domain/schemas/monitors.ts';
import { WEBHOOK_EVENT_SCHEMAS } from '../../domain/schemas/webhook-events.ts';

export const MONITORING_OPERATIONS = [
  'createMonitor',
  'createMonitors',
  'listMonitors',
  'getMonitor',
  'deleteMonitor',
  'checkMonitor',
  'createWebhook',
  'listWebhooks',
  'getWebhook',
  'deleteWebhook',
  'testWebhook',
  'listWebhookDeliveries',
  'redeliverWebhookDelivery',
] as const;
export type MonitoringOperation = (typeof MONITORING_OPERATIONS)[number];

/** The OpenAPI 3.1 `webhooks` section: what a receiver is sent, per event type. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          summary: `The ${type} event`,
          description:
            `${(schema as { description?: string }).description ?? ''} Verify webhook-signature before trusting the body ` +
            `(docs/monitoring.md); deduplicate on webhook-id. Answer 2xx within 10 s, or it is retried with backoff for 24 h.`,
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

export const MONITORING_CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'the body or query is invalid (for a webhook: a URL that is not https or resolves to a private address); `errors` names each field',
  NOT_FOUND: 'no monitor, webhook or delivery with this id belongs to this key',
};
