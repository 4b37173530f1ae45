/**
 * Webhook retry delays: exponential with full jitter between half and all of the step, capped,
 * and given up after a deadline (24 h by default) counted from the first attempt.
 */
export interface BackoffPolicy {
  /** The first retry's step. */
  baseMs: number;
  /** No single wait is longer. */
  capMs: number;
  /** After this long since the first attempt, a failing delivery is given up. */
  giveUpAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, capMs: 6 * 3_600_000, giveUpAfterMs: 24 * 3_600_000 };

/** The wait before attempt `attempts + 1` after `attempts` failed ones; `random` in [0, 1). */
export function retryDelayMs(policy: BackoffPolicy, attempts: number, random: number): number {
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 40)));
  return Math.round(step / 2 + (step / 2) * random);
}

/** The next attempt's instant, or null when the delivery is given up. */
export function nextAttemptAt(policy: BackoffPolicy, firstAttemptAt: Date, failedAt: Date, attempts: number, random: number): Date | null {
  const next = failedAt.getTime() + retryDelayMs(policy, attempts, random);
  return next - firstAttemptAt.getTime() > policy.giveUpAfterMs ? null : new Date(next);
}
