/**
 * Requests sent at an even pace: one every 1/rate seconds, each on a free connection of a pool (or
 * queued for the next one free). autocannon's overallRate gives each connection its quota per second
 * and lets it send them back to back as each second starts, so a server held to a rate that way is
 * served in bursts, many requests per turn of its event loop, and its CPU per request is that of a
 * saturated server (bench/RESULTS.md, "Where the production estimate's CPU goes"). Spread evenly, as
 * requests answered by a payer arrive, each one costs what it costs alone.
 */
import { Pool } from 'undici';
import type { LoadOptions, LoadResult } from './load.ts';

export async function pacedLoad(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const interval = 1000 / options.rate;
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  const inflight = new Set<Promise<void>>();
  const send = (due: number) => {
    const p = pool
      .request({ path: url.pathname + url.search, method: 'POST', headers: options.headers ?? {}, body: options.body ?? null })
      .then(async (r) => {
        await r.body.dump();
        // From when the request was due, not when a connection took it: a queue counts as latency.
        latencies.push(performance.now() - due);
        statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
      })
      .catch(() => void errors++)
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };
  for (;;) {
    const due = start + sent * interval;
    if (due >= end) break;
    const now = performance.now();
    if (due > now) {
      await new Promise((resolve) => setTimeout(resolve, due - now));
      continue;
    }
    sent++;
    send(due);
  }
  await Promise.all(inflight);
  await pool.close();
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!) : 0);
  return {
    requestsPerSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.length ? Math.round(latencies[latencies.length - 1]!) : 0,
    total: latencies.length,
    errors,
    statuses,
  };
}
