/**
 * The bodies of webhook deliveries (docs/monitoring.md, "Events"): one schema per event type,
 * served in the OpenAPI document's `webhooks` section so receivers can generate types and validate.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from './coverage.ts';
import { CoverageChange } from './monitors.ts';

const instant = (description: string) => Type.String({ description: `${description} (ISO 8601 instant, UTC)` });
const event = <K extends string, T extends TSchema>(type: K, id: string, description: string, data: T) =>
  Type.Object(
    { type: Type.Literal(type), timestamp: instant('When the event happened'), data },
    {
      $id: id,
      description:
        `${description} Headers: webhook-id (the same on every attempt), webhook-timestamp ` +
        `(Unix seconds), webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>).`,
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

export const EstimateMismatchEvent = event(
  'estimate.mismatch',
  'EstimateMismatchEvent',
  "A remittance line's verdict is under_collected or over_collected (docs/remittances.md): the member's share the payer stated differs from the " +
    'estimate by more than a dollar. Ids, payer, plan group, amounts, verdict and causes only: no name, member ID, date of service or claim number.',
  Type.Object({
    remittance_id: Type.String({ description: 'GET /v1/remittances/{id}' }),
    line: Type.Integer({ minimum: 1, description: "The line's position in that remittance's `lines` (1-based)" }),
    estimate_id: Type.String({ description: "The estimate's request_id" }),
    payer_id: Type.String(),
    group_id: Nullable(Type.String()),
    benefit_structure: Nullable(Type.String()),
    verdict: Type.Union([Type.Literal('under_collected'), Type.Literal('over_collected')]),
    difference: Type.Integer({ description: "The member's share the payer stated less the estimated one (cents; positive: collected too little)" }),
    member_share: Type.Integer({ description: "The member's share the payer stated (cents)" }),
    estimated_member: Type.Integer({ description: "The estimate's member_obligation (cents)" }),
    payer_paid: Type.Integer({ description: "The payer's payment on the line (cents)" }),
    estimated_payer: Nullable(Type.Integer({ description: "The estimate's payer_obligation (cents)" })),
    cause: Nullable(Type.String({ description: 'The likely cause, most likely first' })),
    causes: Type.Array(Type.String()),
    received_at: instant('When the remittance was received'),
  }),
);
export type EstimateMismatchEvent = Static<typeof EstimateMismatchEvent>;

export const WebhookTestEvent = event('webhook.test', 'WebhookTestEvent', 'Sent by POST /v1/webhooks/{id}/test.', Type.Object({ webhook_id: Type.String() }));

export const WEBHOOK_EVENT_SCHEMAS = {
  'coverage.changed': CoverageChangedEvent,
  'coverage.check_failed': CoverageCheckFailedEvent,
  'batch.completed': BatchCompletedEvent,
  'estimate.mismatch': EstimateMismatchEvent,
  'webhook.test': WebhookTestEvent,
} as const;
