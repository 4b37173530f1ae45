/**
 * `coverage providers add|list|remove`: the practice's providers by NPI, in the store (same as serve).
 * A production server reads them at start: a check that gives only `provider_npi` goes out with that
 * provider's name in 2100B (the directory's `providers` win for an NPI listed in both).
 */
import type { Command } from 'commander';
import { isNpi, NUCC_TAXONOMY } from '../domain/formats.ts';
import { ProviderStore, type ProviderRecord } from '../store/providers.ts';
import { type CliIo, formatTable, processIo, withConfiguredStore } from './io.ts';
import { RESTART_HINT } from './payers.ts';

export interface ProviderInput {
  npi: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  organization?: string | undefined;
  taxonomy?: string | undefined;
}

/** The record to store, or why not. */
export function providerRecord(o: ProviderInput): ProviderRecord | string {
  if (!isNpi(o.npi)) return '--npi must be a 10-digit NPI that passes its check digit';
  const person = Boolean(o.firstName || o.lastName);
  if (person === Boolean(o.organization)) return 'give --last-name (and --first-name) for a person, or --organization for an organization';
  if (person && !o.lastName) return 'a person needs --last-name';
  if (o.taxonomy !== undefined && !NUCC_TAXONOMY.test(o.taxonomy)) return '--taxonomy must be a 10-character NUCC code such as 103T00000X';
  const text = (v: string | undefined, max: number) => (v ? v.trim().slice(0, max) : null);
  return {
    npi: o.npi,
    first_name: text(o.firstName, 35),
    last_name: text(o.lastName, 60),
    organization_name: text(o.organization, 60),
    taxonomy: o.taxonomy ?? null,
  };
}

export async function addProvider(store: ProviderStore, input: ProviderInput, io: CliIo): Promise<number> {
  const record = providerRecord(input);
  if (typeof record === 'string') {
    io.stderr(`coverage providers add: ${record}\n`);
    return 2;
  }
  const added = await store.put(record);
  io.stderr(`${added ? 'Added' : 'Updated'} provider ${record.npi}.\n${RESTART_HINT}\n`);
  return 0;
}

export async function listProviders(store: ProviderStore, io: CliIo): Promise<number> {
  const rows = (await store.list()).map((p) => [
    p.npi,
    p.organization_name ?? `${p.last_name ?? ''}, ${p.first_name ?? ''}`.replace(/, $/, ''),
    p.taxonomy ?? '-',
  ]);
  io.stdout(formatTable(['NPI', 'NAME', 'TAXONOMY'], rows));
  return 0;
}

export function registerProvidersCommands(program: Command): void {
  const providers = program
    .command('providers')
    .description("the practice's providers by NPI: the name a 270 carries when a check gives only an NPI (same store as serve)");
  providers
    .command('add')
    .description('add or replace a provider')
    .requiredOption('--npi <npi>', 'the 10-digit NPI')
    .option('--first-name <name>', 'a person: first name')
    .option('--last-name <name>', 'a person: last name')
    .option('--organization <name>', 'an organization: its name')
    .option('--taxonomy <code>', 'NUCC taxonomy code, e.g. 103T00000X')
    .action((opts: ProviderInput) => withConfiguredStore((db) => addProvider(new ProviderStore(db), opts, processIo)));
  providers
    .command('list')
    .description('list the providers')
    .action(() => withConfiguredStore((db) => listProviders(new ProviderStore(db), processIo)));
  providers
    .command('remove')
    .description('remove a provider')
    .argument('<npi>')
    .action((npi: string) =>
      withConfiguredStore(async (db) => {
        const removed = await new ProviderStore(db).remove(npi);
        processIo.stderr(removed ? `Removed provider ${npi}.\n${RESTART_HINT}\n` : `No provider ${npi}.\n`);
        return removed ? 0 : 1;
      }),
    );
}
