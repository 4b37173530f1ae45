/**
 * Figure 2: production-mode POST /v1/estimate (CORE SOAP to the payer simulator, no added latency,
 * coverage cache off so every estimate reaches the payer) against the same CORE SOAP exchange
 * POSTed straight to the simulator. Service, simulator and load generator are three processes.
 */
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
}

export async function runProductionVsSimulator(opts: RoundOptions = {}): Promise<ProductionVsSimulator> {
  const connections = opts.connections ?? 50;
  const payerId = ESTIMATE_REQUEST.payer_id;
  const sim = await startSimulator({ latencyMs: 0 });
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
    };
  } finally {
    await service.stop();
    await sim.stop();
  }
}
