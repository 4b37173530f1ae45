/**
 * One server's share of the soak: workers cycle through the mix at a steady overall rate, each
 * answer tallied under its kind of request with its status and error code; memory sampled throughout.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CoverageServer } from './coverage-server.ts';
import { sampleRss, type RssSamples } from './rss.ts';
import { MIX, Tallies, type MixEntry } from './soak-mix.ts';

/** Node arguments for a soaked server: a full collection on demand (gc-hook.mjs). */
export const GC_NODE_ARGS = ['--expose-gc', '--import', fileURLToPath(new URL('./gc-hook.mjs', import.meta.url))];

export interface ServerSoak {
  name: string;
  rss: RssSamples;
  /** Heap in use right after a full collection: what the process really holds. */
  liveMb: { start: number; end: number };
  requests: number;
  requestsPerSecond: number;
  latencies: number[];
  /** Payer exchanges by payer and outcome, from the server's /metrics at the end. */
  payerOutcomes: Map<string, Map<string, number>>;
  /** Requests that got no HTTP answer at all, by reason. */
  failures: Map<string, number>;
  tallies: Tallies;
}

/** Asks the server (started with GC_NODE_ARGS and BENCH_GC_FILE=gcFile) for a full collection and its heap after it. */
async function liveHeapMb(server: CoverageServer, gcFile: string): Promise<number> {
  rmSync(gcFile, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(gcFile)) {
    if (Date.now() > deadline) throw new Error('the server wrote no heap figure; was it started with GC_NODE_ARGS?');
    await new Promise((r) => setTimeout(r, 50));
  }
  return (JSON.parse(readFileSync(gcFile, 'utf8')) as { heapUsed: number }).heapUsed / 2 ** 20;
}

async function call(server: CoverageServer, entry: MixEntry): Promise<string> {
  const res = await fetch(server.url + entry.path, {
    method: entry.method ?? 'POST',
    headers: { apikey: server.key, ...(entry.body ? { 'content-type': entry.contentType ?? 'application/json' } : {}) },
    ...(entry.body ? { body: entry.body() } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status < 300) return String(res.status);
  let code = 'no error_code';
  try {
    code = (JSON.parse(text) as { error_code?: string }).error_code ?? code;
  } catch {
    code = 'not JSON';
  }
  return `${res.status} ${code}`;
}

async function payerOutcomes(server: CoverageServer): Promise<Map<string, Map<string, number>>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out = new Map<string, Map<string, number>>();
  for (const line of text.split('\n')) {
    const m = /^coverage_payer_request_duration_seconds_count\{payer_id="([^"]+)",outcome="([^"]+)"\} (\d+)/.exec(line);
    if (!m) continue;
    const byOutcome = out.get(m[1]!) ?? new Map<string, number>();
    byOutcome.set(m[2]!, Number(m[3]));
    out.set(m[1]!, byOutcome);
  }
  return out;
}

/** Sends the mix at `rate` requests/s from `workers` concurrent clients for `seconds`, tallying every answer. */
async function drive(
  server: CoverageServer,
  seconds: number,
  rate: number,
  workers: number,
  tallies: Tallies,
  failures: Map<string, number>,
  latencies: number[],
): Promise<void> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const n = next++;
      // Slot n of a steady schedule; a worker that falls behind sends at once.
      const at = started + (n * 1000) / rate;
      if (at >= end) return;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const entry = MIX[n % MIX.length]!;
      const t0 = performance.now();
      try {
        const outcome = await call(server, entry);
        const ms = performance.now() - t0;
        tallies.record(entry.name, outcome, ms);
        latencies.push(ms);
      } catch (err) {
        const reason =
          (err as Error).name === 'TimeoutError'
            ? 'no answer in 10 s'
            : `connection error (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})`;
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
        tallies.record(entry.name, reason, performance.now() - t0);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

export async function soakServer(
  name: string,
  server: CoverageServer,
  gcFile: string,
  seconds: number,
  opts: { workers?: number; rate?: number; warmupSeconds?: number } = {},
): Promise<ServerSoak> {
  const rate = opts.rate ?? 100;
  const workers = opts.workers ?? 10;
  // A warm-up first, so code compiled and caches filled on the first requests do not read as growth.
  await drive(server, opts.warmupSeconds ?? 5, rate, workers, new Tallies(), new Map(), []);
  const tallies = new Tallies();
  const failures = new Map<string, number>();
  const latencies: number[] = [];
  const liveStart = await liveHeapMb(server, gcFile);
  const started = performance.now();
  const { rss } = await sampleRss(server.pid, () => drive(server, seconds, rate, workers, tallies, failures, latencies), 500);
  return {
    name,
    rss,
    liveMb: { start: liveStart, end: await liveHeapMb(server, gcFile) },
    payerOutcomes: await payerOutcomes(server),
    requests: latencies.length,
    requestsPerSecond: latencies.length / ((performance.now() - started) / 1000),
    latencies,
    failures,
    tallies,
  };
}
