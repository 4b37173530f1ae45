/**
 * Figure 2: production-mode POST /v1/estimate (CORE SOAP to the payer simulator, coverage cache off
 * so every estimate reaches the payer) against the same CORE SOAP exchange POSTed straight to the
 * simulator. Service, simulator and load generator are three processes. With latencyMs 0 all three
 * compete for the CPU; with a payer latency (a payer is another machine, and answers in tens of ms
 * at best) the figure shows whether the service keeps up with what the payer can answer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startCoverageServer } from './lib/coverage-server.ts';
import { expectOnly, interleaved, load, type Side } from './lib/load.ts';
import { coreSoapEstimateBody, SIMULATOR_CREDENTIALS, startSimulator } from './lib/simulator.ts';
import { ESTIMATE_BODY, ESTIMATE_REQUEST, type RoundOptions } from './estimate-vs-hello.ts';

export interface ProductionVsSimulator {
  connections: number;
  estimate: Side;
  simulator: Side;
  ratio: number;
  /** max_concurrency of the payer in the directory: connections the service opens to it. */
  payerConnections: number;
  /** Added by the simulator to every answer. */
  latencyMs: number;
}

export async function runProductionVsSimulator(opts: RoundOptions & { latencyMs?: number } = {}): Promise<ProductionVsSimulator> {
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
  const service = await startCoverageServer({
    mode: 'production',
    env: { ...SIMULATOR_CREDENTIALS, COVERAGE_PAYERS: sim.directoryFile, COVERAGE_CACHE_TTL_MS: '0' },
  });
  try {
    const soap = coreSoapEstimateBody(
      {
        member_id: ESTIMATE_REQUEST.member_id,
        first_name: ESTIMATE_REQUEST.member_first_name,
        last_name: ESTIMATE_REQUEST.member_last_name,
        dob: ESTIMATE_REQUEST.member_dob,
      },
      payerId,
    );
    const [estimate, simulator] = await interleaved(
      async (s) =>
        expectOnly(
          await load({
            url: `${service.url}/v1/estimate`,
            connections,
            seconds: s,
            headers: { apikey: service.key, 'content-type': 'application/json' },
            body: ESTIMATE_BODY,
          }),
          200,
          'production estimate',
        ),
      async (s) =>
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
        ),
      { rounds: opts.rounds ?? 3, seconds: opts.seconds ?? 8, warmupSeconds: opts.warmupSeconds ?? 3 },
    );
    const entry = sim.directory.payers.find((p) => p.payer_id === payerId);
    return {
      connections,
      estimate,
      simulator,
      ratio: estimate.requestsPerSecond / simulator.requestsPerSecond,
      payerConnections: entry?.max_concurrency ?? 10,
      latencyMs,
    };
  } finally {
    await service.stop();
    await sim.stop();
  }
}
