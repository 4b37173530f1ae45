/** Starts the real service in process on an ephemeral port with a temporary SQLite store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime, type Runtime } from '../../src/server/runtime.ts';
import { systemClock, withReadings, type Clock } from '../../src/domain/clock.ts';
import { checkedBody, checkerForServer, type OpenApiChecker } from './openapi-check.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

export const TEST_KEY = 'cov_test_integration_suite_key_0001';
/** COVERAGE_DATA_KEY of the production servers the suites start (production does not start without one). */
export const TEST_DATA_KEY = '5e'.repeat(32);
/** A fixed date so calendar-year plans are mid-year whatever day the suite runs. */
export const TEST_TODAY = '2026-06-15';

export interface TestServer {
  url: string;
  runtime: Runtime;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  delete(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: {
    today?: string;
    env?: Record<string, string>;
    logStream?: NodeJS.WritableStream;
    /** The service's clock (a ManualClock moving token lifetimes and breaker periods); its day is still `today`. */
    payerClock?: Clock;
    /** The service's time, on the machine's timers. */
    now?: () => Date;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-test-'));
  // COVERAGE_DEV_KEY is sandbox only: a production server gets TEST_KEY as a production key, as an operator would, and a data key.
  const production = opts.env?.COVERAGE_MODE === 'production';
  const config = loadConfig({
    COVERAGE_DATA_DIR: dataDir,
    ...(production ? { COVERAGE_DATA_KEY: TEST_DATA_KEY } : { COVERAGE_DEV_KEY: TEST_KEY }),
    PORT: '0',
    ...NO_SHEDDING,
    ...opts.env,
  });
  const now = opts.now;
  const runtime = await startRuntime(config, {
    clock: withReadings(opts.payerClock ?? systemClock, { today: () => opts.today ?? TEST_TODAY, ...(now ? { now: () => now().getTime() } : {}) }),
    logLevel: opts.logStream ? 'info' : false,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
  });
  if (production) await runtime.keys.create({ name: 'test suite', env: 'production', secret: TEST_KEY });
  // The suites send far more than a minute's default quota; rate limits have their own tests.
  await runtime.db.kysely.updateTable('api_keys').set({ rate_limit_per_minute: 1_000_000 }).execute();
  const url = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  let checker: OpenApiChecker | undefined;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: { apikey: TEST_KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* non-JSON bodies are returned as text */
    }
    // Every answer is checked against the served OpenAPI document for its route, status and content type.
    checker ??= await checkerForServer(url);
    const checked = checkedBody(text, res.headers.get('content-type'));
    checker.check(method, path, res.status, checked.body, checked.mediaType);
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    url,
    runtime,
    post: (path, body, headers) => call('POST', path, body, headers),
    get: (path, headers) => call('GET', path, undefined, headers),
    delete: (path, headers) => call('DELETE', path, undefined, headers),
    async close() {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
