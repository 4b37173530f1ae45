/** A payer simulator plus the service in production mode pointed at it, both on loopback. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/domain/clock.ts';
import type { DirectoryPayer } from '../../src/payers/directory.ts';
import type { ProductionNetwork } from '../../src/payers/production/network.ts';
import { simulatorDirectory, SIMULATOR_PASSWORD_ENV, SIMULATOR_USERNAME_ENV } from '../../src/payers/simulator/directory.ts';
import type { FaultPlan } from '../../src/payers/simulator/faults.ts';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { startTestServer, TEST_TODAY, type TestServer } from './server.ts';
import { onDay } from './clock.ts';

export interface ProductionSetup {
  sim: PayerSimulator;
  server: TestServer;
  network: ProductionNetwork;
  close(): Promise<void>;
}

export async function startProduction(
  opts: {
    faults?: FaultPlan;
    latencyMs?: number;
    extraPayers?: number;
    payerIds?: string[];
    overrides?: Partial<DirectoryPayer>;
    env?: Record<string, string>;
    /** Where the service logs (at info level) instead of nowhere. */
    logStream?: NodeJS.WritableStream;
    /** The simulator answers from the recorded 271s in this folder (simulate-payer --replay). */
    replayDir?: string;
    /** The service's clock (token lifetimes, breaker periods), on the suites' day. */
    payerClock?: Clock;
  } = {},
): Promise<ProductionSetup> {
  process.env[SIMULATOR_USERNAME_ENV] = 'coverage-test';
  process.env[SIMULATOR_PASSWORD_ENV] = 'not-a-real-secret';
  const sim = await PayerSimulator.start({
    clock: onDay(TEST_TODAY),
    ...(opts.faults ? { faults: opts.faults } : {}),
    ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}),
    ...(opts.extraPayers ? { extraPayers: opts.extraPayers } : {}),
    ...(opts.replayDir ? { replayDir: opts.replayDir } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'coverage-payers-'));
  const file = join(dir, 'payers.json');
  const directory = simulatorDirectory(sim, {
    ...(opts.payerIds ? { payerIds: opts.payerIds } : {}),
    overrides: {
      retry: { max_attempts: 2, initial_delay_ms: 10 },
      circuit_breaker: { consecutive_failures: 5, half_open_after_ms: 300 },
      ...opts.overrides,
    },
  });
  writeFileSync(file, JSON.stringify(directory));
  let server: TestServer;
  try {
    server = await startTestServer({
      // Deadlines no loaded machine reaches: a suite firing every request at once on a busy machine
      // once saw exchanges pass a 600 ms deadline (502 PAYER_FAILURE). A suite that tests the
      // deadline sets a short one itself (faults.test.ts).
      env: { COVERAGE_MODE: 'production', COVERAGE_PAYERS: file, COVERAGE_PAYER_TIMEOUT_MS: '30000', COVERAGE_SCAN_TIMEOUT_MS: '45000', ...opts.env },
      ...(opts.logStream ? { logStream: opts.logStream } : {}),
      ...(opts.payerClock ? { payerClock: opts.payerClock } : {}),
    });
  } catch (err) {
    // A start the test expects to fail leaves nothing listening behind it.
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    sim,
    server,
    network: server.runtime.network as ProductionNetwork,
    async close() {
      await server.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
