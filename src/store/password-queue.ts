/**
 * Password hashing one instance does at once (docs/security.md, "Sign-in and the thread pool").
 * argon2 runs on libuv's thread pool, which file reads (the console's static files) and DNS share:
 * unbounded, twenty sign-ins for made-up usernames took every thread for seconds. At most `atOnce`
 * hashes run, at most `waiting` more wait their turn, and past that the work is refused at once.
 */

/** The queue is full: the caller answers 429 with Retry-After. */
export class PasswordQueueFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('password hashing queue full');
    this.name = 'PasswordQueueFull';
  }
}

export interface PasswordQueueOptions {
  /** Hashes at once (COVERAGE_CONSOLE_HASHES_AT_ONCE). */
  atOnce?: number;
  /** Hashes that may wait for one of those (COVERAGE_CONSOLE_HASH_QUEUE). */
  waiting?: number;
}

export const DEFAULT_HASHES_AT_ONCE = 2;
export const DEFAULT_HASH_QUEUE = 8;

export class PasswordQueue {
  readonly atOnce: number;
  readonly waiting: number;
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(options: PasswordQueueOptions = {}) {
    this.atOnce = options.atOnce ?? DEFAULT_HASHES_AT_ONCE;
    this.waiting = options.waiting ?? DEFAULT_HASH_QUEUE;
  }

  /** Hashes running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /** Runs `work` when a place is free; throws PasswordQueueFull, without running it, when none is and the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.atOnce) this.running++;
    else {
      // One second per round of hashes ahead of this one (a hash takes well under a second).
      if (this.queue.length >= this.waiting) throw new PasswordQueueFull(Math.max(1, Math.ceil((this.queue.length + 1) / this.atOnce)));
      // The place is handed over by the one that leaves it: running stays counted.
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
