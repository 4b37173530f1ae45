/**
 * The generic payer CSV: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state (aliases
 * `;`-separated; eligibility supported|enrollment_required|not_supported, default supported;
 * connection_payer_id defaults to payer_id). Example: examples/payers-catalog.csv.
 */
import { parseCsv } from '../../formats/csv.ts';
import { ELIGIBILITY, NAME_MAX, PAYER_ID, ROUTE_ID, refuseBadRecords, repeatedIds, type PayerList } from './imported-payer.ts';

export function parseCatalogCsv(text: string): PayerList {
  const records = parseCsv(text, { maxCells: 20, maxRecords: 100_000 });
  const [header, ...rows] = records;
  const columns = (header?.cells ?? []).map((c) => c.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  for (const required of ['payer_id', 'name'])
    if (at(required) < 0) throw new Error(`the CSV needs a ${required} column (columns: payer_id,name,aliases,connection_payer_id,eligibility,medicaid_state)`);
  const cell = (r: string[], name: string) => (at(name) >= 0 ? (r[at(name)] ?? '').trim() : '');
  const problems: string[] = [];
  const payers: PayerList['payers'] = [];
  const repeated = repeatedIds('payer_id');
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
    const repeat = repeated(payerId, `row ${row}`);
    if (repeat) {
      problems.push(repeat);
      continue;
    }
    payers.push({
      entry: { payer_id: payerId, name: cell(cells, 'name').slice(0, NAME_MAX), aliases, eligibility: eligibility!, medicaid_state: state || null },
      connection_payer_id: routeId || payerId,
    });
  }
  refuseBadRecords(problems, 'rows');
  return { payers, notes: [] };
}
