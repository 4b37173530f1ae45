/**
 * What a suite needs from the machine: PostgreSQL, Redis, Chromium. On a developer's machine a suite
 * without it is skipped with the reason. Under CI (CI=true) a missing one is a failing test that
 * names it, so CI never goes green by skipping; .ci/run installs and starts all three.
 */
import { existsSync } from 'node:fs';
import { test } from 'node:test';

/** For `skip`: false when the need is met, else the reason (and, under CI, a failing test saying so). */
export function needs(reason: string | false): string | false {
  if (reason !== false && process.env.CI === 'true') {
    test(`CI runs every suite: ${reason}`, () => {
      throw new Error(`${reason}: under CI=true this suite must run, not skip (.ci/run installs and starts PostgreSQL, Redis and Chromium)`);
    });
  }
  return reason;
}

export const needsPostgres = () => needs(process.env.DATABASE_URL ? false : 'DATABASE_URL not set');
export const needsRedis = () => needs(process.env.REDIS_URL ? false : 'REDIS_URL not set');
export const needsPostgresAndRedis = () => needs(!process.env.DATABASE_URL ? 'DATABASE_URL not set' : !process.env.REDIS_URL ? 'REDIS_URL not set' : false);

/** The Chromium the browser suites drive. */
export const CHROMIUM = '/usr/bin/chromium';
export const needsChromium = (path: string | null = CHROMIUM) =>
  needs(path !== null && existsSync(path) ? false : `${path ?? 'Chromium'} is not installed (apt-get install chromium); .ci/run installs it`);
