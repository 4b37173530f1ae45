/**
 * Stedi's payer list as CSV (GET /payers/csv, or the Payer Network download): one row per payer, a
 * header row naming the columns. Read by name, in any order, case and spacing ignored:
 *   PrimaryPayerId                         payer_id and the connection's payer ID (required)
 *   DisplayName                            name (required; else the first of Names)
 *   Names, Aliases                         `|`-separated; Aliases and StediId become aliases
 *   StediId
 *   EligibilityInquiry                     true/false: whether Stedi routes eligibility checks (required)
 *   EligibilityInquiryEnrollmentRequired   true/false: the provider must enroll first
 * Stedi's other columns (claims, remittances, coverage types, states...) are left alone.
 */
import { parseCsv } from '../../formats/csv.ts';
import type { Eligibility } from '../../store/payer-catalog.ts';
import { NAME_MAX, PAYER_ID, refuseBadRecords, repeatedIds, usableAliases, type PayerList } from './imported-payer.ts';

const COLUMNS = ['StediId', 'PrimaryPayerId', 'DisplayName', 'Names', 'Aliases', 'EligibilityInquiry', 'EligibilityInquiryEnrollmentRequired'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ['PrimaryPayerId', 'DisplayName', 'EligibilityInquiry'];

const key = (header: string) => header.replace(/[\s_]/g, '').toLowerCase();
const list = (cell: string) =>
  cell
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);

/** "true"/"false" as Stedi writes them; an empty cell is `fallback`; anything else undefined. */
function flag(cell: string, fallback: boolean | undefined): boolean | undefined {
  const v = cell.trim().toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : v === '' ? fallback : undefined;
}

export function parseStediCsv(text: string): PayerList {
  // Stedi's CSV has about 50 columns today; room for more.
  const [header, ...rows] = parseCsv(text, { maxCells: 400, maxRecords: 100_000 });
  const index = new Map((header?.cells ?? []).map((c, i) => [key(c), i]));
  const at = (c: Column) => index.get(key(c));
  const missing = REQUIRED.filter((c) => at(c) === undefined);
  if (missing.length > 0)
    throw new Error(
      `not Stedi's payer CSV: no ${missing.join(', ')} column (the columns read: ${COLUMNS.join(', ')}; case, spaces and underscores are ignored)`,
    );
  const cell = (cells: string[], c: Column) => {
    const i = at(c);
    return i === undefined ? '' : (cells[i] ?? '').trim();
  };
  const problems: string[] = [];
  const notes: string[] = [];
  const payers: PayerList['payers'] = [];
  const repeated = repeatedIds('PrimaryPayerId');
  for (const { row, cells } of rows) {
    const where = `row ${row}`;
    const id = cell(cells, 'PrimaryPayerId');
    const name = (cell(cells, 'DisplayName') || list(cell(cells, 'Names'))[0] || '').slice(0, NAME_MAX);
    const inquiry = flag(cell(cells, 'EligibilityInquiry'), undefined);
    const enrollment = flag(cell(cells, 'EligibilityInquiryEnrollmentRequired'), false);
    const bad = [
      !PAYER_ID.test(id) && 'PrimaryPayerId (letters, digits, . _ -)',
      name === '' && 'DisplayName',
      inquiry === undefined && 'EligibilityInquiry (true or false)',
      enrollment === undefined && 'EligibilityInquiryEnrollmentRequired (true, false or empty)',
    ].filter(Boolean);
    if (bad.length > 0) {
      problems.push(`${where}: ${bad.join(', ')}`);
      continue;
    }
    const repeat = repeated(id, where);
    if (repeat) {
      problems.push(repeat);
      continue;
    }
    const stediId = cell(cells, 'StediId');
    const eligibility: Eligibility = !inquiry ? 'not_supported' : enrollment ? 'enrollment_required' : 'supported';
    payers.push({
      entry: {
        payer_id: id,
        name,
        aliases: usableAliases(id, [...list(cell(cells, 'Aliases')), ...(stediId ? [stediId] : [])], where, notes),
        eligibility,
        medicaid_state: null,
      },
      connection_payer_id: id,
    });
  }
  refuseBadRecords(problems, 'rows');
  return { payers, notes };
}
