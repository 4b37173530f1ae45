/**
 * Figure 5: resident memory of the service process (sandbox, every production feature on) while
 * autocannon holds 500 connections open on POST /v1/estimate; beside it the same service under
 * COVERAGE_HEAP=small (V8's optimize-for-size), hello-world under the same load, and what the tsx loader costs a
 * process on its own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

export interface MemoryFigure {
  connections: number;
  seconds: number;
  service: UnderLoad;
  /** The same service with COVERAGE_HEAP=small: what optimize-for-size would save. */
  serviceSmall: UnderLoad;
  hello: UnderLoad;
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

export async function runMemory(opts: { connections?: number; seconds?: number } = {}): Promise<MemoryFigure> {
  const connections = opts.connections ?? 500;
  const seconds = opts.seconds ?? 15;
  const service = await serviceUnderLoad(connections, seconds, {}, true);
  const serviceSmall = await serviceUnderLoad(connections, seconds, { COVERAGE_HEAP: 'small' });
  const port = await freePort();
  const hello = await startNode(['bench/servers/hello.ts'], {
    env: { PORT: String(port) },
    port,
    stdoutFile: join(tmpdir(), 'coverage-bench-hello.log'),
    readyPath: '/',
  });
  let helloFigure: UnderLoad;
  try {
    const h = await sampleRss(hello.pid, () =>
      load({ url: `${hello.url}/`, connections, seconds, headers: { 'content-type': 'application/json' }, body: ESTIMATE_BODY }),
    );
    helloFigure = { rss: h.rss, load: h.result };
  } finally {
    await hello.stop();
  }
  return {
    connections,
    seconds,
    service,
    serviceSmall,
    hello: helloFigure,
    idle: { node: await idleRss([]), tsx: await idleRss(['--import', 'tsx']) },
  };
}
