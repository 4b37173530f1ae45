/** Batch checks: many checks submitted at once and run in the background, one result per row. */
import type { OperationName } from './schemas/requests.ts';

export const MAX_BATCH_ROWS = 10_000;

/** One row of a batch: which endpoint, and the same body that endpoint takes in real time. */
export interface BatchCheck {
  endpoint: OperationName;
  request: Record<string, unknown>;
}

/** cancelled: the row was never run (its batch was cancelled, or its owner has no live key). */
export type RowState = 'pending' | 'running' | 'done' | 'cancelled';

/** A row a runner has claimed: its check, the payer it goes to, and the claim that must hold to write its result. */
export interface ClaimedRow {
  batch_id: string;
  row_no: number;
  key_id: string;
  /** The person signed in to the console who queued the batch; null for machine keys. */
  user_id: string | null;
  endpoint: OperationName;
  payer_key: string;
  request: Record<string, unknown>;
  claim: string;
}

/** A finished row's audit record, written with its result (the request_id is `{batch}.{row}`). */
export interface RowAudit {
  /** ISO 8601 UTC; sorts and compares as text on both dialects. */
  at: string;
  /** The operation: estimate, discover, scan or medicaid. */
  endpoint: string;
  payer_id: string | null;
  status: number;
  error_code: string | null;
  latency_ms: number;
  /** Keyed HMAC of the normalized member identity (member-hash.ts); null when the body was invalid. */
  member_hash: string | null;
}

/** What a finished row answered: the status and body the real-time endpoint would have sent. */
export interface RowResult {
  status: number;
  error_code: string | null;
  body: unknown;
}

/** How results are grouped and filtered: `OK`, or the error code of the answer (as in usage counts). */
export const outcomeOf = (errorCode: string | null): string => errorCode ?? 'OK';

/** The outcome filter's name for rows that have no result yet. */
export const PENDING_OUTCOME = 'PENDING';

/** The outcome filter's name, and the CSV outcome, of rows that were cancelled before they ran. */
export const CANCELLED_OUTCOME = 'CANCELLED';
