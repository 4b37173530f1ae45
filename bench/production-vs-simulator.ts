/**
 * Figure 2: production-mode POST /v1/estimate (CORE SOAP to the payer simulator, coverage cache off
 * so every estimate reaches the payer) against the same CORE SOAP exchange POSTed straight to the
 * simulator. Service, simulator and load generator are three processes. With latencyMs 0 all three
 * compete for the CPU; with a payer latency (a payer is another machine, and answers in tens of ms
 * at best) the figure shows whether the service keeps up with what the payer can answer.
 *
 * With `sandbox`, a sandbox `coverage serve` (figure 1's, which does the same X12 round trip in
 * process) runs as a third side of the same interleaved rounds, held to the rate the production
 * estimate reached in the round before it at an even pace (lib/paced-load.ts), and the server CPU per estimate of both services is read
 * from /proc (as figure 1 does): what production costs beyond the sandbox at the same load.
 * After the rounds, one profiled round of each service shows where the CPU goes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startCoverageServer, type CoverageServer } from './lib/coverage-server.ts';
import { expectOnly, interleavedAll, load, type LoadResult, type Side } from './lib/load.ts';
import { cpuMs } from './lib/processes.ts';
import { PROFILE_NODE_ARGS, profileFile, profileWhile } from './lib/profile.ts';
import { coreSoapEstimateBody, SIMULATOR_CREDENTIALS, startSimulator } from './lib/simulator.ts';
import { ESTIMATE_BODY, ESTIMATE_REQUEST, type ProfiledRun, type RoundOptions } from './estimate-vs-hello.ts';

export interface ProductionVsSimulator {
  connections: number;
  estimate: Side;
  simulator: Side;
  ratio: number;
  /** max_concurrency of the payer in the directory: connections the service opens to it. */
  payerConnections: number;
  /** Added by the simulator to every answer. */
  latencyMs: number;
  /** CPU time each service process used per estimate over the measured rounds, from /proc. */
  cpuPerRequestUs: { production: number; sandbox?: number };
  /** The sandbox estimate, a third side of the same rounds (with `sandbox`). */
  sandbox?: Side;
  profiles?: { production: ProfiledRun; sandbox: ProfiledRun };
}

export interface ProductionOptions extends RoundOptions {
  latencyMs?: number;
  /** Run the sandbox estimate beside it and profile both (the CPU comparison). */
  sandbox?: boolean;
}

export async function runProductionVsSimulator(opts: ProductionOptions = {}): Promise<ProductionVsSimulator> {
  const connections = opts.connections ?? 50;
  const latencyMs = opts.latencyMs ?? 0;
  const payerId = ESTIMATE_REQUEST.payer_id;
  const sim = await startSimulator({ latencyMs });
  if (latencyMs > 0) {
    // A slow payer is reached with as many connections as the load has: the directory says so.
    const directory = JSON.parse(readFileSync(sim.directoryFile, 'utf8')) as typeof sim.directory;
    for (const payer of directory.payers) payer.max_concurrency = connections;
    writeFileSync(sim.directoryFile, JSON.stringify(directory, null, 2));
    sim.directory = directory;
  }
  const productionProfile = profileFile();
  const sandboxProfile = profileFile();
  const service = await startCoverageServer({
    mode: 'production',
    env: { ...SIMULATOR_CREDENTIALS, COVERAGE_PAYERS: sim.directoryFile, COVERAGE_CACHE_TTL_MS: '0', BENCH_PROFILE_FILE: productionProfile },
    nodeArgs: PROFILE_NODE_ARGS,
  });
  let sandbox: CoverageServer | null = null;
  try {
    if (opts.sandbox) sandbox = await startCoverageServer({ mode: 'sandbox', env: { BENCH_PROFILE_FILE: sandboxProfile }, nodeArgs: PROFILE_NODE_ARGS });
    const soap = coreSoapEstimateBody(
      {
        member_id: ESTIMATE_REQUEST.member_id,
        first_name: ESTIMATE_REQUEST.member_first_name,
        last_name: ESTIMATE_REQUEST.member_last_name,
        dob: ESTIMATE_REQUEST.member_dob,
      },
      payerId,
    );
    let cpu = { production: { ms: 0, requests: 0 }, sandbox: { ms: 0, requests: 0 } };
    const counted = async (pid: number, side: 'production' | 'sandbox', run: () => Promise<LoadResult>) => {
      const before = cpuMs(pid);
      const result = await run();
      cpu[side].ms += cpuMs(pid) - before;
      cpu[side].requests += result.total;
      return result;
    };
    const estimateOn = (server: CoverageServer, what: string, rate?: number) => async (s: number) =>
      expectOnly(
        await load({
          url: `${server.url}/v1/estimate`,
          connections,
          seconds: s,
          headers: { apikey: server.key, 'content-type': 'application/json' },
          body: ESTIMATE_BODY,
          ...(rate !== undefined ? { rate } : {}),
        }),
        200,
        what,
      );
    // CPU per request falls as a server gets busier (more work per wake-up): the sandbox is held to the
    // rate the production estimate reached in the round just before, its requests spread evenly as the
    // payer's answers spread production's, so both are compared at one load.
    let productionRate = 0;
    const productionRun = async (s: number) => {
      const r = await counted(service.pid, 'production', () => estimateOn(service, 'production estimate')(s));
      productionRate = Math.max(1, Math.round(r.requestsPerSecond));
      return r;
    };
    const sandboxRun = sandbox ? (s: number) => counted(sandbox!.pid, 'sandbox', () => estimateOn(sandbox!, 'sandbox estimate', productionRate)(s)) : null;
    const simulatorRun = async (s: number) =>
      expectOnly(
        await load({
          url: `${sim.url}/core/${payerId}/soap`,
          connections,
          seconds: s,
          headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
          body: soap,
        }),
        200,
        'simulator CORE SOAP',
      );
    const [estimate, simulator, sandboxSide] = await interleavedAll(sandboxRun ? [productionRun, simulatorRun, sandboxRun] : [productionRun, simulatorRun], {
      rounds: opts.rounds ?? 3,
      seconds: opts.seconds ?? 8,
      warmupSeconds: opts.warmupSeconds ?? 3,
      afterWarmup: () => (cpu = { production: { ms: 0, requests: 0 }, sandbox: { ms: 0, requests: 0 } }),
    });
    const perRequest = (c: { ms: number; requests: number }) => (c.ms * 1000) / c.requests;
    let profiles: ProductionVsSimulator['profiles'];
    if (sandboxRun && sandbox) {
      const production = await profileWhile(service.pid, productionProfile, () => productionRun(5));
      const sandboxed = await profileWhile(sandbox.pid, sandboxProfile, () => sandboxRun(5));
      profiles = { production: { load: production.result, cpu: production.cpu }, sandbox: { load: sandboxed.result, cpu: sandboxed.cpu } };
    }
    const entry = sim.directory.payers.find((p) => p.payer_id === payerId);
    return {
      connections,
      estimate: estimate!,
      simulator: simulator!,
      ratio: estimate!.requestsPerSecond / simulator!.requestsPerSecond,
      payerConnections: entry?.max_concurrency ?? 10,
      latencyMs,
      cpuPerRequestUs: { production: perRequest(cpu.production), ...(sandboxSide ? { sandbox: perRequest(cpu.sandbox) } : {}) },
      ...(sandboxSide ? { sandbox: sandboxSide } : {}),
      ...(profiles ? { profiles } : {}),
    };
  } finally {
    await sandbox?.stop();
    await service.stop();
    await sim.stop();
  }
}
