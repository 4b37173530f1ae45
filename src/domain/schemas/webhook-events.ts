/**
 * The bodies of webhook deliveries (docs/monitoring.md, "Events"): one schema per event type,
 * served in the OpenAPI document's `webhooks` section so receivers can generate types and validate.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from './coverage.ts';
import { CoverageChange } from './monitors.ts';

const instant = (description: string) => Type.String({ description: `${description} (ISO 8601 instant, UTC)` });
const event = <T extends TSchema>(type: string, id: string, description: string, data: T) =>
  Type.Object(
    { type: Type.Literal(type), timestamp: instant('When the event happened'), data },
    {
      $id: id,
      description: `${description} Headers: webhook-id (the same on every attempt), webhook-timestamp (Unix seconds), webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>).`,
    },
  );

export const CoverageChangedEvent = event(
  'coverage.changed',
  'CoverageChangedEvent',
  "A monitor's check found watched fields changed since the check before. No names or dates of birth; a member ID only when the change is the member ID.",
  Type.Object({
    monitor_id: Type.String(),
    checked_at: instant('When the check was made'),
    payer_id: Nullable(Type.String()),
    changes: Type.Array(CoverageChange, { minItems: 1 }),
  }),
);
export type CoverageChangedEvent = Static<typeof CoverageChangedEvent>;

export const CoverageCheckFailedEvent = event(
  'coverage.check_failed',
  'CoverageCheckFailedEvent',
  "A monitor's check got no coverage answer (a payer failure, a member not found, ...); the last snapshot is kept.",
  Type.Object({
    monitor_id: Type.String(),
    checked_at: instant('When the check was made'),
    status: Type.Integer({ description: 'The HTTP status the estimate answered with' }),
    error_code: Nullable(Type.String()),
  }),
);
export type CoverageCheckFailedEvent = Static<typeof CoverageCheckFailedEvent>;

export const BatchCompletedEvent = event(
  'batch.completed',
  'BatchCompletedEvent',
  'Every row of a batch has finished (or was cancelled). Counts only.',
  Type.Object({
    batch_id: Type.String(),
    status: Type.Union([Type.Literal('completed'), Type.Literal('cancelled')]),
    total: Type.Integer(),
    done: Type.Integer(),
    ok: Type.Integer({ description: 'Rows that answered 200 or 206 without an error code' }),
    cancelled: Type.Integer(),
    results_url: Type.String(),
  }),
);
export type BatchCompletedEvent = Static<typeof BatchCompletedEvent>;

export const WebhookTestEvent = event('webhook.test', 'WebhookTestEvent', 'Sent by POST /v1/webhooks/{id}/test.', Type.Object({ webhook_id: Type.String() }));

export const WEBHOOK_EVENT_SCHEMAS = {
  'coverage.changed': CoverageChangedEvent,
  'coverage.check_failed': CoverageCheckFailedEvent,
  'batch.completed': BatchCompletedEvent,
  'webhook.test': WebhookTestEvent,
} as const;
