/**
 * Figure 1: sandbox POST /v1/estimate with every production feature on against a bare Fastify
 * hello-world POST, each in its own process, both driven by autocannon from this process at the
 * same concurrency. After the measured rounds, one profiled round of each shows where the CPU goes.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CpuBreakdown } from './lib/cpu-profile.ts';
import { startCoverageServer } from './lib/coverage-server.ts';
import { expectOnly, interleaved, load, type LoadResult, type Side } from './lib/load.ts';
import { cpuMs, freePort, startNode } from './lib/processes.ts';
import { PROFILE_NODE_ARGS, profileFile, profileWhile } from './lib/profile.ts';

export const ESTIMATE_REQUEST = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
  in_network: true,
};
export const ESTIMATE_BODY = JSON.stringify(ESTIMATE_REQUEST);

export interface ProfiledRun {
  load: LoadResult;
  cpu: CpuBreakdown;
}

export interface EstimateVsHello {
  connections: number;
  seconds: number;
  rounds: number;
  estimate: Side;
  hello: Side;
  ratio: number;
  /** CPU time each server process used per request over its measured rounds, from /proc. */
  cpuPerRequestUs: { estimate: number; hello: number };
  /** Request log lines per estimate the service counted in its metrics (1 expected). */
  logLinesPerRequest: number;
  profiles: { estimate: ProfiledRun; hello: ProfiledRun };
}

export interface RoundOptions {
  connections?: number;
  seconds?: number;
  rounds?: number;
  warmupSeconds?: number;
}

export async function runEstimateVsHello(opts: RoundOptions = {}): Promise<EstimateVsHello> {
  const connections = opts.connections ?? 50;
  const seconds = opts.seconds ?? 8;
  const rounds = opts.rounds ?? 3;
  const serviceProfile = profileFile();
  const helloProfile = profileFile();
  const service = await startCoverageServer({
    mode: 'sandbox',
    env: { BENCH_PROFILE_FILE: serviceProfile, ...(process.env.BENCH_HEAP ? { COVERAGE_HEAP: process.env.BENCH_HEAP } : {}) },
    nodeArgs: PROFILE_NODE_ARGS,
  });
  const helloPort = await freePort();
  const hello = await startNode(['bench/servers/hello.ts'], {
    env: { PORT: String(helloPort), BENCH_PROFILE_FILE: helloProfile },
    nodeArgs: PROFILE_NODE_ARGS,
    port: helloPort,
    stdoutFile: join(tmpdir(), 'coverage-bench-hello.log'),
    readyPath: '/',
  });
  try {
    const headers = { 'content-type': 'application/json' };
    let cpu = { estimate: { ms: 0, requests: 0 }, hello: { ms: 0, requests: 0 } };
    const counted = async (pid: number, side: 'estimate' | 'hello', run: () => Promise<LoadResult>) => {
      const before = cpuMs(pid);
      const result = await run();
      cpu[side].ms += cpuMs(pid) - before;
      cpu[side].requests += result.total;
      return result;
    };
    const estimateRun = (s: number) =>
      counted(service.pid, 'estimate', async () =>
        expectOnly(
          await load({ url: `${service.url}/v1/estimate`, connections, seconds: s, headers: { ...headers, apikey: service.key }, body: ESTIMATE_BODY }),
          200,
          'estimate',
        ),
      );
    const helloRun = (s: number) =>
      counted(hello.pid, 'hello', async () =>
        expectOnly(await load({ url: `${hello.url}/`, connections, seconds: s, headers, body: ESTIMATE_BODY }), 200, 'hello-world'),
      );
    const [estimate, reference] = await interleaved(estimateRun, helloRun, {
      rounds,
      seconds,
      warmupSeconds: opts.warmupSeconds ?? 3,
      afterWarmup: () => (cpu = { estimate: { ms: 0, requests: 0 }, hello: { ms: 0, requests: 0 } }),
    });
    const cpuPerRequestUs = { estimate: (cpu.estimate.ms * 1000) / cpu.estimate.requests, hello: (cpu.hello.ms * 1000) / cpu.hello.requests };
    const estimateProfiled = await profileWhile(service.pid, serviceProfile, () => estimateRun(5));
    const helloProfiled = await profileWhile(hello.pid, helloProfile, () => helloRun(5));
    const served = await service.requestsCounted('/v1/estimate');
    // pino writes asynchronously: give the last lines up to 5 s to land.
    for (let waited = 0; service.requestLogLines('/v1/estimate') < served && waited < 5000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    return {
      connections,
      seconds,
      rounds,
      estimate,
      hello: reference,
      ratio: estimate.requestsPerSecond / reference.requestsPerSecond,
      cpuPerRequestUs,
      logLinesPerRequest: service.requestLogLines('/v1/estimate') / served,
      profiles: { estimate: { load: estimateProfiled.result, cpu: estimateProfiled.cpu }, hello: { load: helloProfiled.result, cpu: helloProfiled.cpu } },
    };
  } finally {
    await service.stop();
    await hello.stop();
  }
}
