/** Table types of monitors and webhooks (migration-steps/monitors.ts; docs/monitoring.md). */
import type { Mode } from '../domain/mode.ts';

/** A patient's coverage re-checked on a schedule; it belongs to the owner of the key that created it. */
export interface MonitorTable {
  id: string;
  owner_id: string;
  key_id: string;
  /** The key's environment: only an instance of this mode makes its scheduled checks. */
  env: Mode;
  /** The payer its checks go to, for per-payer pacing. */
  payer_key: string;
  /** The estimate request and reference, JSON; sealed with the data key when one is set. */
  request: string;
  /** The schedule, JSON (no member data). */
  schedule: string;
  created_at: string;
  /** When the next scheduled check is due; null when the schedule has no more. */
  next_check_at: string | null;
  /** The claim a check in progress is held under, and until when. */
  claimed_by: string | null;
  lease_until: string | null;
  checks: number;
  /** The last check's summary and changes, JSON; sealed like request. */
  last_check: string | null;
  /** The watched fields of the last answer that had coverage (domain/monitoring/coverage-diff.ts); sealed like request. */
  snapshot: string | null;
  /**
   * The bulk upload it was written by while that upload is being written (store/monitors.ts
   * createWithin): while its monitor_uploads record exists the monitor is neither visible nor checked.
   */
  upload_id?: string | null;
}

/** A bulk upload of monitors being written in several transactions; deleted once its last monitor is in. */
export interface MonitorUploadTable {
  id: string;
  owner_id: string;
  /** Past this instant an unfinished upload is deleted, its monitors with it. */
  staged_until: string;
}

/** The earliest instant the next scheduled check to a payer may start, shared by every instance. */
export interface MonitorPacingTable {
  payer_key: string;
  next_at: string;
}

export interface WebhookTable {
  id: string;
  owner_id: string;
  key_id: string;
  url: string;
  /** The event types, JSON array. */
  events: string;
  /** whsec_…; sealed with the data key when one is set. */
  secret: string;
  created_at: string;
}

/** One event for one webhook: the outbox a delivery worker drains, and the delivery log. */
export interface WebhookDeliveryTable {
  /** The webhook-id header, the same on every attempt. */
  id: string;
  webhook_id: string;
  event_type: string;
  /** The body sent, JSON; sealed with the data key when one is set. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  claimed_by: string | null;
  lease_until: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  /** Retries stop 24 h after this: the event's creation, or its last manual redelivery. */
  retry_from: string;
  last_attempt_at: string | null;
}
