/**
 * Command groups whose modules load only when that command runs: their stores, native modules and
 * simulators would otherwise cost every `coverage --help` a few hundred milliseconds. Top-level help
 * lists them by the names and descriptions here (test/cli/on-demand.test.ts keeps these equal to the
 * ones the modules register).
 */
import type { Command } from 'commander';

export interface OnDemandCommand {
  name: string;
  description: string;
  load(): Promise<(program: Command) => void>;
}

export const ON_DEMAND_COMMANDS: OnDemandCommand[] = [
  {
    name: 'keys',
    description: 'issue, list, revoke and rotate API keys (same store as serve)',
    load: async () => (await import('./keys.ts')).registerKeysCommands,
  },
  {
    name: 'usage',
    description: 'count checks by key, endpoint and outcome (from the audit trail)',
    load: async () => (await import('./usage.ts')).registerUsageCommand,
  },
  {
    name: 'users',
    description: 'people who sign in to the console: add, list, disable, enable, reset (same store as serve)',
    load: async () => (await import('./users.ts')).registerUsersCommands,
  },
  {
    name: 'simulate-payer',
    description:
      'run a payer simulator answering 270s from the sandbox catalog, with fault modes: ' +
      "CAQH CORE SOAP + MIME, or a clearinghouse's API (--as stedi|optum|availity)",
    load: async () => (await import('./simulate-payer.ts')).registerSimulatePayerCommand,
  },
  {
    name: 'payers',
    description: 'the payer catalog in the store: import a clearinghouse payer list (same store as serve)',
    load: async () => (await import('./payers.ts')).registerPayersCommands,
  },
  {
    name: 'providers',
    description: "the practice's providers by NPI: the name a 270 carries when a check gives only an NPI (same store as serve)",
    load: async () => (await import('./providers.ts')).registerProvidersCommands,
  },
  {
    name: 'fees',
    description:
      "a practice's fee schedule per API key, for Good Faith Estimates: import a CSV (code, modifier, charge in dollars), list (same store as serve)",
    load: async () => (await import('./fees.ts')).registerFeesCommands,
  },
  {
    name: 'check',
    description: 'run one check against a server (COVERAGE_URL, default http://localhost:8080; COVERAGE_API_KEY)',
    load: async () => (await import('./check.ts')).registerCheckCommand,
  },
  {
    name: 'remit',
    description: 'send a remittance (X12 835) to a server and print how its lines compared with the estimates (COVERAGE_URL, COVERAGE_API_KEY)',
    load: async () => (await import('./remit.ts')).registerRemitCommand,
  },
];

/**
 * Registers the command the arguments name (also after `help`) from its module, and every other
 * one as a listing only: its module is never loaded in this process.
 */
export async function registerOnDemand(program: Command, args: string[]): Promise<void> {
  const named = args[0] === 'help' ? args[1] : args[0];
  for (const command of ON_DEMAND_COMMANDS) {
    if (command.name === named) (await command.load())(program);
    else program.command(command.name).description(command.description);
  }
}
