/**
 * The service's one clock: the time, the day, the waits and the timers every part reads (servers,
 * workers, payer connections, the simulators). Each takes a `Clock` and defaults to `systemClock`, so
 * a test injects its own and moves time instead of sleeping through it (test/helpers/clock.ts). This
 * module is the only place that reads the machine's clock: ESLint refuses `Date.now()` and a bare
 * `new Date()` anywhere else in src/ (eslint.config.js); `new Date(value)` parsing a value is fine.
 */
import type { IsoDate } from './coverage.ts';

/** A timer the clock started: `cancel` stops it (a no-op once it fired, for a one-shot timer). */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** The calendar day (UTC), YYYY-MM-DD: what "today" means for plans, accumulators and dates of service. */
  today(): IsoDate;
  /** Resolves after `ms`; rejects at once, and stops waiting, when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Runs `fn` once after `ms`. The timer never keeps the process alive. */
  setTimeout(fn: () => void, ms: number): ClockTimer;
  /** Runs `fn` every `ms`. The timer never keeps the process alive. */
  setInterval(fn: () => void, ms: number): ClockTimer;
}

/** The clock's time as a Date (audit stamps, lease ends, ISA dates). */
export const dateOf = (clock: Pick<Clock, 'now'>): Date => new Date(clock.now());

/** The clock's time as an ISO 8601 timestamp. */
export const isoNow = (clock: Pick<Clock, 'now'>): string => dateOf(clock).toISOString();

/** The UTC day of an instant, YYYY-MM-DD. */
export const dayOf = (ms: number): IsoDate => new Date(ms).toISOString().slice(0, 10);

function systemNow(): number {
  return Date.now();
}

// Asked several times per check: the day's text is kept until the UTC day ends.
let dayUntil = 0;
let dayText = '';
function systemToday(): IsoDate {
  const now = systemNow();
  if (now >= dayUntil) {
    dayText = dayOf(now);
    dayUntil = Date.parse(`${dayText}T00:00:00Z`) + 86_400_000;
  }
  return dayText;
}

function systemSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = () => reject(new Error('aborted'));
    if (signal?.aborted) return stop();
    const t = setTimeout(() => (signal?.removeEventListener('abort', abort), resolve()), ms);
    const abort = () => (clearTimeout(t), stop());
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The machine's clock. */
export const systemClock: Clock = {
  now: systemNow,
  today: systemToday,
  sleep: systemSleep,
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    t.unref?.();
    return { cancel: () => clearInterval(t) };
  },
};

/**
 * `clock` with some of its readings replaced (a test's fixed day on the machine's time, say). The
 * result delegates to `clock` for the rest, so a clock that is a class instance keeps its state.
 */
export function withReadings(clock: Clock, readings: Partial<Pick<Clock, 'now' | 'today'>>): Clock {
  return {
    now: readings.now ?? (() => clock.now()),
    today: readings.today ?? (readings.now ? () => dayOf(readings.now!()) : () => clock.today()),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    setInterval: (fn, ms) => clock.setInterval(fn, ms),
  };
}
