/**
 * The one way a test waits for something the service does in the background: poll a condition until
 * it holds. Nothing here reads the clock or asserts a time; the bound is a number of polls, generous
 * so that a loaded machine only makes the wait longer, and `progress` (when given) restarts the count
 * while the thing waited on still moves (a batch finishing rows one by one).
 */

export interface EventuallyOptions {
  /** Polls before giving up (default 750: some 15 s on a quiet machine at the default pause). */
  tries?: number;
  /** The pause between two polls, in milliseconds (default 20). */
  pauseMs?: number;
  /** What the wait has reached so far: each change restarts the count of polls. */
  progress?: () => unknown;
  /** An event worth polling again for at once (a delivery arriving): the pause ends at the first of the two. */
  wake?: () => Promise<unknown>;
  /** Describes the last value seen, for the failure message. */
  describe?: (last: unknown) => string;
}

async function pause(ms: number, wake?: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await (wake ? Promise.race([elapsed, wake()]) : elapsed);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves with the first truthy value `probe` returns; throws, naming `what` (and the last value
 * seen), when it has not held after the polls allowed. A probe that throws ends the wait with its error.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const tries = options.tries ?? 750;
  let left = tries;
  let seen: unknown = options.progress?.();
  let last: unknown;
  for (;;) {
    last = await probe();
    if (last) return last as Exclude<T, false | null | undefined | 0 | ''>;
    if (options.progress) {
      const now = options.progress();
      if (now !== seen) [seen, left] = [now, tries];
    }
    if (--left <= 0) break;
    await pause(options.pauseMs ?? 20, options.wake);
  }
  throw new Error(`never happened after ${tries} polls: ${what}${options.describe ? `; last seen: ${options.describe(last)}` : ''}`);
}
