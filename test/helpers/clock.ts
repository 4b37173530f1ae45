/** Clocks for tests (src/domain/clock.ts): one a test moves by hand, and the machine's time on a fixed day. */
import { dayOf, systemClock, withReadings, type Clock, type ClockTimer } from '../../src/domain/clock.ts';

interface Sleeper {
  at: number;
  resolve: () => void;
}

interface Timer {
  at: number;
  every: number | null;
  fn: () => void;
}

/** A clock a test moves by hand: time stands still, and each sleep or timer waits until the test advances past its end. */
export class ManualClock implements Clock {
  private t: number;
  private sleepers: Sleeper[] = [];
  private timers: Timer[] = [];
  private onSleep: (() => void)[] = [];

  constructor(start = Date.parse('2026-06-15T10:00:00Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  today(): string {
    return dayOf(this.t);
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

  setTimeout(fn: () => void, ms: number): ClockTimer {
    return this.timer({ at: this.t + ms, every: null, fn });
  }

  setInterval(fn: () => void, ms: number): ClockTimer {
    return this.timer({ at: this.t + ms, every: Math.max(1, ms), fn });
  }

  private timer(timer: Timer): ClockTimer {
    this.timers.push(timer);
    return { cancel: () => void (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  /** Sleeps not yet over. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  /** Resolves when someone sleeps (at once when someone does). */
  asleep(): Promise<void> {
    return this.sleepers.length > 0 ? Promise.resolve() : new Promise((resolve) => this.onSleep.push(resolve));
  }

  /** Moves time on by `ms` and wakes the sleeps and fires the timers it ends. */
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.at <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.resolve();
    for (const timer of [...this.timers].sort((a, b) => a.at - b.at)) {
      while (timer.at <= this.t && this.timers.includes(timer)) {
        if (timer.every === null) this.timers = this.timers.filter((t) => t !== timer);
        else timer.at += timer.every;
        timer.fn();
      }
    }
  }

  /** Moves time to the end of the first sleep. */
  advanceToNextSleep(): void {
    const next = Math.min(...this.sleepers.map((s) => s.at));
    if (Number.isFinite(next)) this.advance(next - this.t);
  }
}

/** The machine's time and timers on a fixed calendar day: what the suites' servers and simulators run on. */
export const onDay = (day: string): Clock => withReadings(systemClock, { today: () => day });

/** The machine's timers with the time (and the day) a test sets through `at`. */
export const clockAt = (at: () => number | Date): Clock => withReadings(systemClock, { now: () => +at() });
