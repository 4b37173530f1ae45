/** The monitor and webhook API's bodies (docs/monitoring.md), written once for validation, OpenAPI and clients. */
import { Type, type Static } from 'typebox';
import { WATCHED_FIELDS } from '../monitoring/coverage-diff.ts';
import { Enum, Nullable, OtherEntity } from './coverage.ts';
import { EstimateRequest } from './requests.ts';
import { Literals } from './literals.ts';

const instant = (description: string) => Type.String({ description: `${description} (ISO 8601 instant, UTC)` });
const nullableInstant = (description: string) => Nullable(Type.String({ description: `${description} (ISO 8601 instant, UTC)` }));

export const MonitorScheduleSchema = Type.Object(
  {
    appointments: Type.Optional(Type.Array(Type.String({ format: 'date' }), { maxItems: 100, description: 'Appointment dates, YYYY-MM-DD' })),
    check_days_before: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0, maximum: 60 }), {
        minItems: 1,
        maxItems: 10,
        description: 'Days before each appointment to check on; 0 is the day itself. Default [3, 0]',
      }),
    ),
    every_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'Also check every N days, counted from the last check' })),
    check_hour_utc: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 23, description: 'The hour (UTC) a check is due on its day. Default 10 (05:00 or 06:00 in New York)' }),
    ),
  },
  { additionalProperties: false, description: 'appointments, every_days, or both' },
);

export const MonitorCreateRequest = Type.Object(
  {
    ...EstimateRequest.properties,
    schedule: MonitorScheduleSchema,
    reference: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "Your own label for the patient or visit (your system's record number); returned as given, never sent to payers",
      }),
    ),
  },
  { additionalProperties: false, $id: 'MonitorCreateRequest', description: 'An estimate request (EstimateRequest) re-checked on a schedule.' },
);
export type MonitorCreateRequest = Static<typeof MonitorCreateRequest>;

export const MonitorCreated = Type.Object(
  { id: Type.String(), next_check_at: nullableInstant('The next scheduled check; the first is made right away') },
  { $id: 'MonitorCreated' },
);

const Watched = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const CoverageChange = Type.Object({
  field: Enum(WATCHED_FIELDS, { description: 'The watched field that changed (docs/monitoring.md)' }),
  old: Watched,
  new: Watched,
});

export const MonitorLastCheck = Type.Object({
  at: instant('When the check was made'),
  status: Type.Integer({ description: 'The HTTP status the estimate answered with' }),
  error_code: Nullable(Type.String()),
  plan_status: Nullable(Type.String({ description: 'ACTIVE, ACTIVE_AT_RISK or INACTIVE, when the payer answered' })),
  member_obligation: Nullable(Type.Integer({ description: 'What the member pays for the session (cents), when known' })),
  priced_by: Type.Optional(
    Nullable(
      Type.Object(OtherEntity.properties, {
        description: "Carve-out only: the administrator whose answer gave member_obligation (the estimate's priced_by); null otherwise",
      }),
    ),
  ),
  changes: Type.Array(CoverageChange, { description: 'What this check found changed since the one before (empty for the first)' }),
});

export const Monitor = Type.Object(
  {
    id: Type.String(),
    reference: Nullable(Type.String()),
    member_name: Nullable(
      Type.String({
        description:
          "The patient's name as the monitor was given it, for a person signed in to the console (who " +
          'reads the list by name); null for an API key, which keeps its own record of whom it watches',
      }),
    ),
    payer_id: Nullable(Type.String()),
    schedule: MonitorScheduleSchema,
    created_at: instant('When it was created'),
    next_check_at: nullableInstant('The next scheduled check; null when the schedule has no more'),
    checks: Type.Integer({ description: 'Checks made so far' }),
    last_check: Nullable(MonitorLastCheck),
    timeline: Type.Array(Type.Object({ at: instant('When the check found them'), changes: Type.Array(CoverageChange) }), {
      description: 'The checks that found changes, oldest first (the last 20)',
    }),
  },
  { $id: 'Monitor' },
);
export type Monitor = Static<typeof Monitor>;

export const MonitorList = Type.Object(
  {
    monitors: Type.Array(Monitor),
    offset: Type.Integer(),
    next_offset: Nullable(Type.Integer({ description: 'Pass as offset for the next page; null on the last' })),
  },
  { $id: 'MonitorList' },
);

export const PageQuery = Type.Object(
  {
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 200; default 50' })),
  },
  { additionalProperties: false },
);

export const MonitorListQuery = Type.Object(
  {
    ...PageQuery.properties,
    sort: Type.Optional(
      Literals(['created', 'appointment', 'change'] as const, {
        description:
          'created (default): oldest first; appointment: the soonest upcoming appointment first, monitors ' +
          'with none last; change: the most recent check that found a change first, monitors with none last',
      }),
    ),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ maxLength: 80 }) });
export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 80 }), delivery_id: Type.String({ maxLength: 80 }) });

export const MonitorCheckResult = Type.Object(
  { monitor: Monitor, result: Type.Unknown({ description: 'The estimate answer of this check, as POST /v1/estimate would send it' }) },
  { $id: 'MonitorCheckResult' },
);

export const WEBHOOK_EVENTS = ['coverage.changed', 'coverage.check_failed', 'batch.completed', 'estimate.mismatch'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number] | 'webhook.test';

export const WebhookCreateRequest = Type.Object(
  {
    url: Type.String({ maxLength: 2000, description: 'https URL that does not resolve to a private, loopback or link-local address' }),
    events: Type.Array(Enum(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
  },
  { additionalProperties: false, $id: 'WebhookCreateRequest' },
);
export type WebhookCreateRequest = Static<typeof WebhookCreateRequest>;

export const Webhook = Type.Object(
  { id: Type.String(), url: Type.String(), events: Type.Array(Type.String()), created_at: instant('When it was created') },
  { $id: 'Webhook' },
);

export const WebhookCreated = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    created_at: instant('When it was created'),
    secret: Type.String({ description: 'whsec_ + base64: verifies the webhook-signature header. Shown only in this answer' }),
  },
  { $id: 'WebhookCreated' },
);

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook) }, { $id: 'WebhookList' });

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

export const Delivery = Type.Object({
  id: Type.String({ description: 'The webhook-id header: the same on every attempt' }),
  event_type: Type.String(),
  state: Enum(DELIVERY_STATES, { description: 'pending: waiting for its next attempt; delivered: a 2xx answer; failed: given up after 24 h of attempts' }),
  attempts: Type.Integer(),
  last_status: Nullable(Type.Integer({ description: "The receiver's last HTTP status; null when it could not be reached" })),
  last_error: Nullable(Type.String({ description: 'Why the last attempt failed when no status came back (timeout, refused address, ...)' })),
  created_at: instant('When the event was queued'),
  last_attempt_at: nullableInstant('The last attempt'),
  next_attempt_at: nullableInstant('The next attempt, while pending'),
});

export const DeliveryList = Type.Object(
  { deliveries: Type.Array(Delivery), offset: Type.Integer(), next_offset: Nullable(Type.Integer()) },
  { $id: 'DeliveryList' },
);
export const DeliveryAnswer = Type.Object({ delivery: Delivery }, { $id: 'DeliveryAnswer' });

export const MAX_BULK_MONITORS = 10_000;

export const MonitorsCreateRequest = Type.Object(
  { monitors: Type.Array(MonitorCreateRequest, { minItems: 1, maxItems: MAX_BULK_MONITORS }) },
  {
    additionalProperties: false,
    $id: 'MonitorsCreateRequest',
    description:
      `Up to ${MAX_BULK_MONITORS} monitors at once; or send a schedule as text/csv: the batch ` +
      `columns (docs/batch.md) and appointment_date, one line per appointment (docs/monitoring.md).`,
  },
);

export const MonitorsCreated = Type.Object(
  {
    monitors: Type.Array(
      Type.Object({
        id: Type.String(),
        next_check_at: nullableInstant('The next scheduled check'),
        rows: Type.Array(Type.Integer(), {
          description: "The rows it was made from: a schedule's lines of one patient make one monitor with their appointments",
        }),
      }),
    ),
  },
  { $id: 'MonitorsCreated' },
);

export type MonitorCreated = Static<typeof MonitorCreated>;
export type MonitorList = Static<typeof MonitorList>;
export type MonitorCheckResult = Static<typeof MonitorCheckResult>;
export type MonitorsCreateRequest = Static<typeof MonitorsCreateRequest>;
export type MonitorsCreated = Static<typeof MonitorsCreated>;
export type Webhook = Static<typeof Webhook>;
export type WebhookCreated = Static<typeof WebhookCreated>;
export type WebhookList = Static<typeof WebhookList>;
export type DeliveryList = Static<typeof DeliveryList>;
export type DeliveryAnswer = Static<typeof DeliveryAnswer>;
