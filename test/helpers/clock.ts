/** A clock a test moves by hand: time stands still, and each sleep waits until the test advances past its end. */
import type { Clock } from '../../src/payers/clock.ts';

interface Sleeper {
  at: number;
  resolve: () => void;
}

export class ManualClock implements Clock {
  private t: number;
  private sleepers: Sleeper[] = [];
  private onSleep: (() => void)[] = [];

  constructor(start = Date.parse('2026-06-15T10:00:00Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const sleeper: Sleeper = { at: this.t + ms, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(new Error('aborted'));
        },
        { once: true },
      );
      for (const tell of this.onSleep.splice(0)) tell();
    });
  }

  /** Sleeps not yet over. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  /** Resolves when someone sleeps (at once when someone does). */
  asleep(): Promise<void> {
    return this.sleepers.length > 0 ? Promise.resolve() : new Promise((resolve) => this.onSleep.push(resolve));
  }

  /** Moves time on by `ms` and wakes the sleeps it ends. */
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.at <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.resolve();
  }

  /** Moves time to the end of the first sleep. */
  advanceToNextSleep(): void {
    const next = Math.min(...this.sleepers.map((s) => s.at));
    if (Number.isFinite(next)) this.advance(next - this.t);
  }
}
