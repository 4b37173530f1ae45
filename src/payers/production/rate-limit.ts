/**
 * Per-payer request rate (GCRA): up to `perSecond` requests in a burst, then one every
 * 1/perSecond seconds. A request waits for its slot unless the slot lies past its deadline.
 */
export class RateLimiter {
  private readonly interval: number;
  private readonly tolerance: number;
  private tat = 0;

  constructor(perSecond: number) {
    this.interval = 1000 / perSecond;
    this.tolerance = Math.max(0, 1000 - this.interval);
  }

  /** Milliseconds to wait before sending at `now` (the connection's clock), or null when the slot would miss the deadline. */
  reserve(deadline: number, now: number): number | null {
    const tat = Math.max(this.tat, now);
    const wait = Math.max(0, tat - this.tolerance - now);
    if (now + wait > deadline) return null;
    this.tat = tat + this.interval;
    return wait;
  }
}
