/**
 * Figure 5: resident memory of the service process (sandbox, every production feature on) while
 * autocannon holds 500 connections open on POST /v1/estimate. The peak varies from run to run (V8
 * sizes its heap by the allocation rate it sees), so the service as shipped runs RUNS times, each
 * followed by hello-world under the same load; the target holds only if every run's peak is within it.
 * Beside them the same service under COVERAGE_HEAP=small (V8's optimize-for-size), and what the tsx
 * loader costs a process on its own. `node --import tsx bench/memory.ts [runs]` prints every run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCoverageServer } from './lib/coverage-server.ts';
import { load, type LoadResult } from './lib/load.ts';
import { freePort, ROOT, rssMb, startNode } from './lib/processes.ts';
import { sampleRss, type RssSamples } from './lib/rss.ts';
import { ESTIMATE_BODY } from './estimate-vs-hello.ts';

export interface UnderLoad {
  rss: RssSamples;
  load: LoadResult;
  /** RSS (MB) once ready, and after sitting idle for IDLE_SETTLE_MS more (as shipped only). */
  idle?: { justStarted: number; settled: number };
}

/** V8's memory reducer returns start-up's garbage and young-generation space some 10-20 s after the process goes quiet. */
export const IDLE_SETTLE_MS = 30_000;

/** Runs of the service as shipped, each with hello-world beside it. */
export const RUNS = 5;

export interface MemoryFigure {
  connections: number;
  seconds: number;
  /** Every run of the service as shipped, in order, each with the hello-world run made just after it. */
  runs: { service: UnderLoad; hello: UnderLoad }[];
  /** The run with the highest peak, and its hello-world: what the target is checked against. */
  service: UnderLoad;
  hello: UnderLoad;
  /** The same service with COVERAGE_HEAP=small: what optimize-for-size would save. */
  serviceSmall: UnderLoad;
  /** Idle RSS of a process that does nothing, without and with `--import tsx`. */
  idle: { node: number; tsx: number };
}

/** RSS of a process that has loaded nothing but (optionally) tsx, once it is idle. */
async function idleRss(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [...args, '-e', 'setTimeout(() => {}, 60_000)'], { cwd: ROOT, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1500));
  const mb = rssMb(child.pid!);
  child.kill();
  await once(child, 'exit');
  return mb;
}

async function serviceUnderLoad(connections: number, seconds: number, env: Record<string, string>, settle = false): Promise<UnderLoad> {
  const service = await startCoverageServer({ mode: 'sandbox', env });
  try {
    let idle: UnderLoad['idle'];
    if (settle) {
      const justStarted = rssMb(service.pid);
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      idle = { justStarted, settled: rssMb(service.pid) };
    }
    const s = await sampleRss(service.pid, () =>
      load({
        url: `${service.url}/v1/estimate`,
        connections,
        seconds,
        headers: { 'content-type': 'application/json', apikey: service.key },
        body: ESTIMATE_BODY,
      }),
    );
    return { rss: s.rss, load: s.result, ...(idle ? { idle } : {}) };
  } finally {
    await service.stop();
  }
}

async function helloUnderLoad(connections: number, seconds: number): Promise<UnderLoad> {
  const port = await freePort();
  const hello = await startNode(['bench/servers/hello.ts'], {
    env: { PORT: String(port) },
    port,
    stdoutFile: join(tmpdir(), 'coverage-bench-hello.log'),
    readyPath: '/',
  });
  try {
    const h = await sampleRss(hello.pid, () =>
      load({ url: `${hello.url}/`, connections, seconds, headers: { 'content-type': 'application/json' }, body: ESTIMATE_BODY }),
    );
    return { rss: h.rss, load: h.result };
  } finally {
    await hello.stop();
  }
}

export async function runMemory(opts: { connections?: number; seconds?: number; runs?: number } = {}): Promise<MemoryFigure> {
  const connections = opts.connections ?? 500;
  const seconds = opts.seconds ?? 15;
  const runs: MemoryFigure['runs'] = [];
  for (let i = 0; i < (opts.runs ?? RUNS); i++) {
    const service = await serviceUnderLoad(connections, seconds, {}, true);
    runs.push({ service, hello: await helloUnderLoad(connections, seconds) });
  }
  const worst = runs.reduce((a, b) => (b.service.rss.peak > a.service.rss.peak ? b : a));
  return {
    connections,
    seconds,
    runs,
    service: worst.service,
    hello: worst.hello,
    serviceSmall: await serviceUnderLoad(connections, seconds, { COVERAGE_HEAP: 'small' }),
    idle: { node: await idleRss([]), tsx: await idleRss(['--import', 'tsx']) },
  };
}

const mb = (x: number) => Math.round(x).toLocaleString('en-US');

/** Markdown rows, one per run: the service's idle, median and peak RSS beside hello-world's under the same load. */
export function memoryRunsTable(m: MemoryFigure): string[] {
  return [
    `| run | service idle after ${IDLE_SETTLE_MS / 1000} s (MB) | service median (MB) | service peak (MB) | service requests/s | hello-world peak (MB) | hello-world requests/s |`,
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...m.runs.map(
      (r, i) =>
        `| ${i + 1} | ${mb(r.service.idle?.settled ?? r.service.rss.before)} | ${mb(r.service.rss.median)} | ${mb(r.service.rss.peak)} | ${mb(r.service.load.requestsPerSecond)} | ${mb(r.hello.rss.peak)} | ${mb(r.hello.load.requestsPerSecond)} |`,
    ),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? RUNS);
  const m = await runMemory({ runs });
  console.log(memoryRunsTable(m).join('\n'));
  console.log(`COVERAGE_HEAP=small: peak ${mb(m.serviceSmall.rss.peak)} MB at ${mb(m.serviceSmall.load.requestsPerSecond)} requests/s`);
}
