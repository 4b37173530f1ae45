/** Batch checks: many checks submitted at once and run in the background, one result per row. */
import type { OperationName } from './schemas/requests.ts';

export const MAX_BATCH_ROWS = 10_000;

/** One row of a batch: which endpoint, and the same body that endpoint takes in real time. */
export interface BatchCheck {
  endpoint: OperationName;
  request: Record<string, unknown>;
}

export type RowState = 'pending' | 'running' | 'done';

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
