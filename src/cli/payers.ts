/**
 * `coverage payers import FILE --connection NAME [--format csv|stedi-json|stedi-csv|availity-json]`:
 * adds or updates payers of the catalog in the store (SQLite or PostgreSQL, as serve) and their ID at
 * that connection. A production server reads the catalog at start, beside the directory file
 * (COVERAGE_PAYERS), whose connections the routes go through. Each format is read in its own file
 * under payer-formats/; a bad record refuses the whole list, so an import never half-happens.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CatalogConflictError, PayerCatalogStore } from '../store/payer-catalog.ts';
import { parseAvailityPayers } from './payer-formats/availity-json.ts';
import { parseCatalogCsv } from './payer-formats/generic-csv.ts';
import { refusal, summarizeNotes, type PayerList } from './payer-formats/imported-payer.ts';
import { parseStediCsv } from './payer-formats/stedi-csv.ts';
import { parseStediPayers } from './payer-formats/stedi-json.ts';
import { type CliIo, processIo, withConfiguredStore } from './io.ts';

const PARSERS = {
  csv: parseCatalogCsv,
  'stedi-json': parseStediPayers,
  'stedi-csv': parseStediCsv,
  'availity-json': parseAvailityPayers,
} satisfies Record<string, (text: string) => PayerList>;

/**
 * A running server read the catalog when it started (the production network is built once from the
 * directory and the catalog): what changed here is used from its next start, which this says.
 */
export const RESTART_HINT = 'A running server keeps the list it read at start: restart `coverage serve` (every instance) to use this.';

export const IMPORT_FORMATS = Object.keys(PARSERS) as (keyof typeof PARSERS)[];

const FORMAT_HELP =
  'csv: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state; stedi-json: Stedi GET /payers; ' +
  'stedi-csv: Stedi GET /payers/csv; availity-json: Availity GET /v1/availity-payer-list';

export async function importPayers(store: PayerCatalogStore, file: string, opts: { connection: string; format: string }, io: CliIo): Promise<number> {
  const parse: ((text: string) => PayerList) | undefined = Object.hasOwn(PARSERS, opts.format) ? PARSERS[opts.format as keyof typeof PARSERS] : undefined;
  if (!parse) {
    io.stderr(`coverage payers import: --format must be ${IMPORT_FORMATS.join(', ')}\n`);
    return 2;
  }
  if (!/^[A-Za-z0-9._-]{1,80}$/.test(opts.connection)) {
    io.stderr('coverage payers import: --connection must name a connection of the directory\n');
    return 2;
  }
  let list: PayerList;
  try {
    list = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const message =
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? `no such file ${file}`
        : err instanceof SyntaxError
          ? `${file} is not valid JSON (${opts.format})`
          : (err as Error).message;
    io.stderr(`coverage payers import: ${message}\n`);
    return 1;
  }
  const { payers, notes } = list;
  let counts: { added: number; updated: number; merged: number };
  try {
    counts = await store.upsert(payers, opts.connection);
  } catch (err) {
    if (!(err instanceof CatalogConflictError)) throw err;
    io.stderr(`coverage payers import: ${refusal(err.problems, 'records, each of which must name one payer of the catalog')}\n`);
    return 1;
  }
  if (notes.length > 0) io.stderr(`coverage payers import: ${summarizeNotes(notes)}\n`);
  const { added, updated, merged } = counts;
  io.stderr(
    `Imported ${payers.length} payers for connection ${opts.connection}: ${added} added, ${updated} updated, ` +
      `${merged} merged into existing payers (their ID was another payer's alias or connection payer ID).\n${RESTART_HINT}\n`,
  );
  return 0;
}

export function registerPayersCommands(program: Command): void {
  const payers = program.command('payers').description('the payer catalog in the store: import a clearinghouse payer list (same store as serve)');
  payers
    .command('import')
    .description('add or update payers and their IDs at a connection from a file')
    .argument('<file>', 'the payer list')
    .requiredOption('--connection <name>', 'the directory connection these payer IDs belong to')
    .option('--format <format>', `${IMPORT_FORMATS.join(' | ')} (${FORMAT_HELP})`, 'csv')
    .action((file: string, opts: { connection: string; format: string }) =>
      withConfiguredStore((db) => importPayers(new PayerCatalogStore(db), file, opts, processIo)),
    );
}
