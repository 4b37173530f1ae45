/**
 * The time the connections read (token lifetimes, the breaker's open period, Availity's waits
 * between polls), injected so a test moves it instead of sleeping through it.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Resolves after `ms`; rejects at once, and stops waiting, when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const stop = () => reject(new Error('aborted'));
      if (signal?.aborted) return stop();
      const t = setTimeout(() => (signal?.removeEventListener('abort', abort), resolve()), ms);
      const abort = () => (clearTimeout(t), stop());
      signal?.addEventListener('abort', abort, { once: true });
    }),
};
