/**
 * A directory in the connections + routes shape pointing at running vendor simulators: each payer
 * routes through every simulator that serves it, in the order given (so failover can be tried on
 * loopback). Secrets are named by environment variable; the simulators accept `sim` for each.
 */
import { CATALOG } from '../../../sandbox/catalog.ts';
import type { DirectoryConnection } from '../../connections.ts';
import type { DirectoryPayer, PayerDirectory } from '../../directory.ts';
import { AVAILITY_CLIENT_ID_ENV, AVAILITY_CLIENT_SECRET_ENV, AVAILITY_DEMO_SCOPE, AvailitySimulator } from './availity.ts';
import { OPTUM_CLIENT_ID_ENV, OPTUM_CLIENT_SECRET_ENV, OptumSimulator } from './optum.ts';
import { STEDI_API_KEY_ENV, STEDI_MOCK_PAYERS, StediSimulator } from './stedi.ts';

export type VendorSimulator = StediSimulator | OptumSimulator | AvailitySimulator;

/** The environment variables a simulator directory names, each to be set to `sim`. */
export const SIM_SECRET_ENVS = [STEDI_API_KEY_ENV, OPTUM_CLIENT_ID_ENV, OPTUM_CLIENT_SECRET_ENV, AVAILITY_CLIENT_ID_ENV, AVAILITY_CLIENT_SECRET_ENV] as const;

export function simConnection(sim: VendorSimulator, name: string): DirectoryConnection {
  if (sim instanceof AvailitySimulator) {
    return {
      name,
      kind: 'availity',
      base_url: sim.baseUrl,
      client_id_env: AVAILITY_CLIENT_ID_ENV,
      client_secret_env: AVAILITY_CLIENT_SECRET_ENV,
      scope: AVAILITY_DEMO_SCOPE,
      timeout_ms: 15_000,
    };
  }
  if (sim instanceof OptumSimulator) {
    return { name, kind: 'optum', base_url: sim.baseUrl, client_id_env: OPTUM_CLIENT_ID_ENV, client_secret_env: OPTUM_CLIENT_SECRET_ENV, timeout_ms: 15_000 };
  }
  return { name, kind: 'stedi', base_url: sim.baseUrl, api_key_env: STEDI_API_KEY_ENV, max_in_flight: 5, timeout_ms: 15_000 };
}

interface Served {
  payer_id: string;
  name: string;
  aliases: string[];
  supports_search: boolean;
  medicaid_state: string | null;
}

function served(sim: VendorSimulator): Served[] {
  const mocks =
    sim instanceof StediSimulator ? STEDI_MOCK_PAYERS.map((p) => ({ ...p, aliases: [...p.aliases], supports_search: false, medicaid_state: null })) : [];
  return [
    ...mocks,
    ...sim.catalog.payers.map((p) => ({
      payer_id: p.payer_id,
      name: p.name,
      aliases: [],
      supports_search: p.supports_search,
      medicaid_state: p.medicaid_state,
    })),
  ];
}

export function vendorDirectory(sims: { name: string; sim: VendorSimulator }[]): PayerDirectory {
  const administrators = Object.keys(CATALOG.administratorPlans);
  const payers = new Map<string, DirectoryPayer>();
  for (const { name, sim } of sims) {
    for (const p of served(sim)) {
      // A mock payer is listed under its best-known name (AETNA), its vendor ID as an alias and a route.
      const id = p.aliases[0] && /^[0-9]+$/.test(p.payer_id) ? p.aliases[0] : p.payer_id;
      const entry = payers.get(id) ?? {
        payer_id: id,
        name: p.name,
        aliases: [...new Set([p.payer_id, ...p.aliases].filter((a) => a !== id))],
        supports_search: p.supports_search,
        medicaid_state: p.medicaid_state,
        ...(p.payer_id.startsWith('SBX-') ? { carve_out_administrators: administrators.includes(p.payer_id) ? [] : administrators } : {}),
        routes: [],
      };
      entry.routes!.push({ connection: name, payer_id: p.payer_id });
      payers.set(id, entry);
    }
  }
  return {
    submitter: { id: 'COVERAGESVC', name: 'COVERAGE SIMULATOR CLINIC' },
    connections: sims.map(({ name, sim }) => simConnection(sim, name)),
    payers: [...payers.values()].map((p) => (p.aliases!.length === 0 ? (({ aliases: _a, ...rest }) => rest)(p) : p)),
  };
}
