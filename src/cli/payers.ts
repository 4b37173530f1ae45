/**
 * `coverage payers import FILE --connection NAME [--format csv|stedi-json]`: adds or updates payers of
 * the catalog in the store (SQLite or PostgreSQL, as serve) and their ID at that connection. A
 * production server reads the catalog at start, beside the directory file (COVERAGE_PAYERS), whose
 * connections the routes go through.
 *
 * Generic CSV columns: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state (aliases
 * `;`-separated; eligibility supported|enrollment_required|not_supported, default supported).
 * stedi-json: Stedi's payer list (GET /payers): items with primaryPayerId, displayName, aliases[],
 * stediId, transactionSupport.eligibilityCheck.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseCsv } from '../http/csv.ts';
import { arr, obj, str, strings } from '../payers/vendors/json-read.ts';
import { PayerCatalogStore, type CatalogPayer, type Eligibility } from '../store/payer-catalog.ts';
import { type CliIo, processIo, withConfiguredStore } from './io.ts';

export interface ImportedPayer {
  entry: Omit<CatalogPayer, 'routes'>;
  /** The payer's ID at the connection imported for; null when the connection does not carry it. */
  connection_payer_id: string | null;
}

const PAYER_ID = /^[A-Za-z0-9._-]{1,80}$/;
const ROUTE_ID = /^[A-Za-z0-9._ -]{1,80}$/;
const ELIGIBILITY: Record<string, Eligibility> = { supported: 'supported', enrollment_required: 'enrollment_required', not_supported: 'not_supported' };

export function parseCatalogCsv(text: string): ImportedPayer[] {
  const records = parseCsv(text, { maxCells: 20, maxRecords: 100_000 });
  const [header, ...rows] = records;
  const columns = (header?.cells ?? []).map((c) => c.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  for (const required of ['payer_id', 'name'])
    if (at(required) < 0) throw new Error(`the CSV needs a ${required} column (columns: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state)`);
  const cell = (r: string[], name: string) => (at(name) >= 0 ? (r[at(name)] ?? '').trim() : '');
  const problems: string[] = [];
  const out: ImportedPayer[] = [];
  for (const { row, cells } of rows) {
    const payerId = cell(cells, 'payer_id');
    const eligibility = ELIGIBILITY[cell(cells, 'eligibility').toLowerCase() || 'supported'];
    const state = cell(cells, 'medicaid_state').toUpperCase();
    const aliases = cell(cells, 'aliases')
      .split(';')
      .map((a) => a.trim())
      .filter(Boolean);
    const routeId = cell(cells, 'connection_payer_id');
    const bad = [
      !PAYER_ID.test(payerId) && 'payer_id (letters, digits, . _ -)',
      cell(cells, 'name') === '' && 'name',
      !eligibility && 'eligibility (supported, enrollment_required or not_supported)',
      state !== '' && !/^[A-Z]{2}$/.test(state) && 'medicaid_state (two letters)',
      aliases.some((a) => !ROUTE_ID.test(a)) && 'aliases',
      routeId !== '' && !ROUTE_ID.test(routeId) && 'connection_payer_id',
    ].filter(Boolean);
    if (bad.length > 0) {
      problems.push(`row ${row}: ${bad.join(', ')}`);
      continue;
    }
    out.push({
      entry: { payer_id: payerId, name: cell(cells, 'name').slice(0, 200), aliases, eligibility: eligibility!, medicaid_state: state || null },
      connection_payer_id: routeId || payerId,
    });
  }
  if (problems.length > 0)
    throw new Error(
      `nothing imported; fix these rows: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ''}`,
    );
  return out;
}

export function parseStediPayers(text: string): ImportedPayer[] {
  const json = JSON.parse(text) as unknown;
  const items = Array.isArray(json) ? arr(json) : arr(obj(json).items);
  const support: Record<string, Eligibility> = { SUPPORTED: 'supported', ENROLLMENT_REQUIRED: 'enrollment_required', NOT_SUPPORTED: 'not_supported' };
  return items
    .filter((p) => PAYER_ID.test(str(p.primaryPayerId)))
    .map((p) => {
      const id = str(p.primaryPayerId);
      const eligibility = str(obj(p.transactionSupport).eligibilityCheck) || 'SUPPORTED';
      return {
        entry: {
          payer_id: id,
          name: (str(p.displayName) || strings(p.names)[0] || id).slice(0, 200),
          aliases: [...new Set([...strings(p.aliases), ...(str(p.stediId) ? [str(p.stediId)] : [])])].filter((a) => ROUTE_ID.test(a) && a !== id),
          eligibility: support[eligibility] ?? 'supported',
          medicaid_state: null,
        },
        connection_payer_id: id,
      };
    });
}

export const IMPORT_FORMATS = ['csv', 'stedi-json'] as const;

export async function importPayers(store: PayerCatalogStore, file: string, opts: { connection: string; format: string }, io: CliIo): Promise<number> {
  if (!(IMPORT_FORMATS as readonly string[]).includes(opts.format)) {
    io.stderr(`coverage payers import: --format must be ${IMPORT_FORMATS.join(' or ')}\n`);
    return 2;
  }
  if (!/^[A-Za-z0-9._-]{1,80}$/.test(opts.connection)) {
    io.stderr('coverage payers import: --connection must name a connection of the directory\n');
    return 2;
  }
  let payers: ImportedPayer[];
  try {
    const text = readFileSync(file, 'utf8');
    payers = opts.format === 'csv' ? parseCatalogCsv(text) : parseStediPayers(text);
  } catch (err) {
    io.stderr(`coverage payers import: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file ${file}` : (err as Error).message}\n`);
    return 1;
  }
  const ids = new Map(payers.filter((p) => p.connection_payer_id !== null).map((p) => [p.entry.payer_id, p.connection_payer_id!]));
  const { added, updated } = await store.upsert(
    payers.map((p) => p.entry),
    opts.connection,
    ids,
  );
  io.stderr(
    `Imported ${payers.length} payers for connection ${opts.connection}: ${added} added, ${updated} updated. A production server reads them at start.\n`,
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
    .option('--format <format>', `${IMPORT_FORMATS.join(' | ')} (csv columns: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state)`, 'csv')
    .action((file: string, opts: { connection: string; format: string }) =>
      withConfiguredStore((db) => importPayers(new PayerCatalogStore(db), file, opts, processIo)),
    );
}
