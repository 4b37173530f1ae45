/** A webhook delivery as the delivery worker sees it, shared by the worker and the store. */

export interface DueDelivery {
  /** The webhook-id header. */
  id: string;
  webhook_id: string;
  url: string;
  /** null when sealed under another data key. */
  secret: string | null;
  payload: string | null;
  /** Attempts made before this one. */
  attempts: number;
  /** Retries stop 24 h after this instant (ISO 8601). */
  retry_from: string;
  claim: string;
}

export interface AttemptOutcome {
  delivered: boolean;
  /** The receiver's status; null when none came back. */
  status: number | null;
  error: string | null;
  at: Date;
  /** The next attempt, or null to give up (ignored when delivered). */
  nextAttemptAt: Date | null;
}
