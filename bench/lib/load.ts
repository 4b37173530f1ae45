/** autocannon in this process POSTing to a server in another: requests/s, latency percentiles, statuses. */
import autocannon from 'autocannon';
import { pacedLoad } from './paced-load.ts';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  errors: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  body?: string;
  /** Requests per second over all connections, sent at an even pace (paced-load.ts); as fast as answered when absent. */
  rate?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.rate !== undefined) return pacedLoad({ ...options, rate: options.rate });
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: 'POST',
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
    timeout: 10,
  });
  const statuses: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = stat.count ?? 0;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    errors: result.errors,
    statuses,
  };
}

export const statusText = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}: ${v.toLocaleString('en-US')}`)
    .join(', ') || 'none';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Several rounds against one target, summarized by their medians. */
export interface Side {
  rounds: LoadResult[];
  requestsPerSecond: number;
  p99: number;
}

export const side = (rounds: LoadResult[]): Side => ({
  rounds,
  requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
  p99: median(rounds.map((r) => r.p99)),
});

/**
 * Warms both targets up, then alternates rounds between them: a machine that gets busier or
 * quieter during the run affects both sides alike.
 */
export async function interleaved(
  a: (seconds: number) => Promise<LoadResult>,
  b: (seconds: number) => Promise<LoadResult>,
  opts: { rounds: number; seconds: number; warmupSeconds: number; afterWarmup?: () => void },
): Promise<[Side, Side]> {
  const [x, y] = await interleavedAll([a, b], opts);
  return [x!, y!];
}

/** The same over any number of targets: each round runs every target once, in order. */
export async function interleavedAll(
  targets: ((seconds: number) => Promise<LoadResult>)[],
  opts: { rounds: number; seconds: number; warmupSeconds: number; afterWarmup?: () => void },
): Promise<Side[]> {
  for (const t of targets) await t(opts.warmupSeconds);
  opts.afterWarmup?.();
  const results: LoadResult[][] = targets.map(() => []);
  for (let i = 0; i < opts.rounds; i++) {
    for (const [j, t] of targets.entries()) results[j]!.push(await t(opts.seconds));
  }
  return results.map(side);
}

/** Throws unless every answer of a run had the expected status and no connection failed. */
export function expectOnly(result: LoadResult, status: number, what: string): LoadResult {
  const other = Object.entries(result.statuses).filter(([s]) => s !== String(status));
  if (other.length > 0 || result.errors > 0 || result.total === 0) {
    throw new Error(`${what}: expected only ${status}s, got ${statusText(result.statuses)} and ${result.errors} connection errors`);
  }
  return result;
}
