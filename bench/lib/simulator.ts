/** `coverage simulate-payer` in a child process, with the payer directory it writes for the service. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInquiry } from '../../src/operations/inquiry.ts';
import { newCoreRequest } from '../../src/payers/core/fields.ts';
import { encodeSoapRequest } from '../../src/payers/core/soap.ts';
import type { PayerDirectory } from '../../src/payers/directory.ts';
import { build270 } from '../../src/x12/index.ts';
import { freePort, serviceEntry, startNode, type Child } from './processes.ts';

/** The directory's payers read their CORE credentials from these (the simulator only checks they are present). */
export const SIMULATOR_CREDENTIALS = { COVERAGE_SIM_USERNAME: 'bench', COVERAGE_SIM_PASSWORD: 'bench-not-a-secret' };

export interface SimulatorChild extends Child {
  directoryFile: string;
  directory: PayerDirectory;
}

export async function startSimulator(opts: { latencyMs?: number; faults?: object } = {}): Promise<SimulatorChild> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-bench-sim-'));
  const directoryFile = join(dir, 'payers.json');
  const port = await freePort();
  const args = [
    (await serviceEntry()).script,
    'simulate-payer',
    '--port',
    String(port),
    '--directory-out',
    directoryFile,
    '--latency-ms',
    String(opts.latencyMs ?? 0),
  ];
  if (opts.faults) args.push('--faults', JSON.stringify(opts.faults));
  const child = await startNode(args, { env: {}, port, stdoutFile: join(dir, 'simulator.log'), readyPath: '/' });
  return {
    ...child,
    directoryFile,
    directory: JSON.parse(readFileSync(directoryFile, 'utf8')) as PayerDirectory,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CORE SOAP envelope the service would send for the estimate's 270, to POST straight to the simulator. */
export function coreSoapEstimateBody(member: { member_id: string; first_name: string; last_name: string; dob: string }, payerId: string): string {
  const today = new Date().toISOString().slice(0, 10);
  const inquiry = buildInquiry({ payer_id: payerId, ...member, provider_npi: '1234567893' }, today);
  const x12 = build270(inquiry, { control_number: 1 });
  return encodeSoapRequest(newCoreRequest(x12, 'COVERAGE-SERVICE', payerId), {
    username: SIMULATOR_CREDENTIALS.COVERAGE_SIM_USERNAME,
    password: SIMULATOR_CREDENTIALS.COVERAGE_SIM_PASSWORD,
  });
}
