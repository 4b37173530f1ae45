/**
 * The coverage service as it ships: `coverage keys create` then `coverage serve` in a child
 * process, with a fresh SQLite store, auth, rate limits, audit and metrics on, and pino at info
 * writing one line per request to a log file.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runNode, serviceEntry, startNode, type Child } from './processes.ts';
import type { Mode } from '../../src/domain/mode.ts';

export interface CoverageServer extends Child {
  key: string;
  /** Which build ran: the compiled dist/ or the sources through tsx. */
  entry: 'dist' | 'src';
  logFile: string;
  /** Lines the service logged for finished requests to one route. */
  requestLogLines(route: string): number;
  /** Requests to one route the service counted in its metrics. */
  requestsCounted(route: string): Promise<number>;
}

export async function startCoverageServer(opts: { mode: Mode; env?: Record<string, string>; nodeArgs?: string[] }): Promise<CoverageServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-bench-'));
  // Production does not start without a data key (docs/security.md).
  const env = {
    COVERAGE_DATA_DIR: join(dir, 'data'),
    COVERAGE_MODE: opts.mode,
    ...(opts.mode === 'production' ? { COVERAGE_DATA_KEY: randomBytes(32).toString('hex') } : {}),
    ...opts.env,
  };
  // A key of its own with the rate limit lifted: the bench measures the service, not the limiter's 429s.
  const entry = await serviceEntry();
  const key = (await runNode([entry.script, 'keys', 'create', '--name', 'bench', '--env', opts.mode, '--rate-limit', '1000000000/min'], env)).trim();
  const port = await freePort();
  const logFile = join(dir, 'service.log');
  const child = await startNode([entry.script, 'serve'], {
    env: { LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' },
    port,
    stdoutFile: logFile,
    readyPath: '/healthz',
    nodeArgs: [...entry.nodeArgs, ...(opts.nodeArgs ?? [])],
  });
  return {
    ...child,
    key,
    entry: entry.kind,
    logFile,
    requestLogLines: (route) =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"msg":"request"') && l.includes(`"route":"${route}"`)).length,
    async requestsCounted(route) {
      const text = await (await fetch(`${child.url}/metrics`)).text();
      let total = 0;
      for (const line of text.split('\n')) {
        if (line.startsWith('coverage_http_requests_total{') && line.includes(`route="${route}"`)) total += Number(line.split(' ').pop());
      }
      return total;
    },
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
