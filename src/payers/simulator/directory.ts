/** A payer directory whose payers all point at a running simulator. */
import { CATALOG } from '../../sandbox/catalog.ts';
import type { DirectoryPayer, PayerDirectory } from '../directory.ts';
import type { PayerSimulator } from './server.ts';

export const SIMULATOR_USERNAME_ENV = 'COVERAGE_SIM_USERNAME';
export const SIMULATOR_PASSWORD_ENV = 'COVERAGE_SIM_PASSWORD';

export interface SimulatorDirectoryOptions {
  /** Medicaid programs on MIME and everyone else on SOAP (mixed), or one protocol for all. */
  protocol?: 'mixed' | 'core-soap' | 'core-mime';
  timeoutMs?: number;
  /** Only these payers, in this order (default: all the simulator serves). */
  payerIds?: string[];
  overrides?: Partial<DirectoryPayer>;
}

export function simulatorDirectory(sim: PayerSimulator, options: SimulatorDirectoryOptions = {}): PayerDirectory {
  const administrators = Object.keys(CATALOG.administratorPlans);
  const all = sim.payers();
  const chosen = options.payerIds ? options.payerIds.map((id) => all.find((p) => p.payer_id === id) ?? fail(id)) : all;
  return {
    sender_id: 'COVERAGESVC',
    payers: chosen.map((p): DirectoryPayer => {
      const protocol = options.protocol && options.protocol !== 'mixed' ? options.protocol : p.medicaid_state ? 'core-mime' : 'core-soap';
      return {
        payer_id: p.payer_id,
        name: p.name,
        endpoint: sim.endpoint(p.payer_id, protocol === 'core-mime' ? 'mime' : 'soap'),
        protocol,
        credentials: { username_env: SIMULATOR_USERNAME_ENV, password_env: SIMULATOR_PASSWORD_ENV },
        supports_search: p.supports_search,
        medicaid_state: p.medicaid_state,
        carve_out_administrators: administrators.includes(p.payer_id) ? [] : administrators,
        max_concurrency: 10,
        ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}),
        ...options.overrides,
      };
    }),
  };
}

function fail(id: string): never {
  throw new Error(`the simulator serves no payer ${id}`);
}
