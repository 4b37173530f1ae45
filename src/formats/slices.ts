/**
 * Long synchronous work written as a generator that yields between slices (a bare `yield`), so the
 * caller decides: run it through at once (runThrough), or hand the event loop a turn at each yield
 * (inSlices) so that an upload being read never holds other requests up (docs/batch.md, "Uploads
 * and other requests").
 */
export type Sliced<T> = Generator<void, T, void>;

/** Hands the event loop a turn; the server passes one that waits for setImmediate. */
export type Pause = () => Promise<void>;

export function runThrough<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

export async function inSlices<T>(work: Sliced<T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}
