/**
 * A practice's fee schedule as CSV (coverage fees import; docs/good-faith-estimate.md): a header
 * naming `code` (CPT/HCPCS; also `cpt`, `hcpcs`, `procedure_code`), an optional `modifier`, and
 * `charge` (dollars: 150, 150.00, $1,250.50; also `fee`, `amount`). Charges become exact integer
 * cents. Every bad row is named with its line and what is wrong; a file with any is imported not at all.
 */
import { CsvError, parseCsv } from './csv.ts';

export interface FeeScheduleRow {
  code: string;
  modifier: string | null;
  charge_cents: number;
}

export interface FeeScheduleProblem {
  /** 1-based line of the file (0: the file as a whole). */
  line: number;
  message: string;
}

const CODE = /^(?:[0-9]{4}[0-9AFTU]|[A-V][0-9]{4})$/;
const MODIFIER = /^[A-Z0-9]{2}$/;
const DOLLARS = /^\$?((?:[0-9]{1,3}(?:,[0-9]{3})+)|[0-9]+)(?:\.([0-9]{1,2}))?$/;
const COLUMNS = {
  code: ['code', 'cpt', 'hcpcs', 'cpt_hcpcs', 'procedure_code', 'service_code'],
  modifier: ['modifier', 'mod'],
  charge: ['charge', 'fee', 'amount', 'price', 'charge_dollars'],
};
/** The most rows one schedule may have: every CPT and HCPCS code is fewer. */
export const MAX_FEE_ROWS = 20_000;
/** $1,000,000.00: above it a charge is a typo. */
const MAX_CENTS = 100_000_000;

/** Dollars as exact cents, or null when not a plain amount of dollars and cents. */
export function dollarsToCents(text: string): number | null {
  const m = DOLLARS.exec(text.trim());
  if (!m) return null;
  const cents = Number(m[1]!.replaceAll(',', '')) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

const normalized = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s/-]+/g, '_');

export function parseFeeSchedule(text: string): { rows: FeeScheduleRow[]; problems: FeeScheduleProblem[] } {
  let records;
  try {
    records = parseCsv(text, { maxRecords: MAX_FEE_ROWS + 1, maxCells: 50, maxValueChars: 200 });
  } catch (err) {
    if (err instanceof CsvError) return { rows: [], problems: [{ line: err.line, message: err.message }] };
    throw err;
  }
  const [header, ...body] = records;
  if (!header) return { rows: [], problems: [{ line: 0, message: 'the file is empty: a header line (code,modifier,charge) and one row per service' }] };
  const names = header.cells.map(normalized);
  const find = (aliases: string[]) => names.findIndex((n) => aliases.includes(n));
  const at = { code: find(COLUMNS.code), modifier: find(COLUMNS.modifier), charge: find(COLUMNS.charge) };
  const problems: FeeScheduleProblem[] = [];
  if (at.code < 0) problems.push({ line: header.line, message: `no code column: name one ${COLUMNS.code.join(', ')}` });
  if (at.charge < 0) problems.push({ line: header.line, message: `no charge column: name one ${COLUMNS.charge.join(', ')}` });
  if (problems.length > 0) return { rows: [], problems };
  const rows: FeeScheduleRow[] = [];
  const seen = new Map<string, number>();
  for (const r of body) {
    if (r.cells.every((c) => c.trim() === '')) continue;
    const cell = (i: number) => (i < 0 ? '' : (r.cells[i] ?? '').trim());
    const code = cell(at.code).toUpperCase();
    const modifier = cell(at.modifier).toUpperCase() || null;
    const chargeText = cell(at.charge);
    const wrong: string[] = [];
    if (!CODE.test(code)) wrong.push(`code ${JSON.stringify(code)} is not a CPT or HCPCS code (five characters, e.g. 90837 or H0031)`);
    if (modifier !== null && !MODIFIER.test(modifier)) wrong.push(`modifier ${JSON.stringify(modifier)} is not two letters or digits`);
    const cents = dollarsToCents(chargeText);
    if (cents === null) wrong.push(`charge ${JSON.stringify(chargeText)} is not an amount in dollars (e.g. 150 or 150.00)`);
    else if (cents > MAX_CENTS) wrong.push(`charge ${chargeText} is over $1,000,000`);
    const key = `${code}:${modifier ?? ''}`;
    if (wrong.length === 0 && seen.has(key)) wrong.push(`${code}${modifier ? ` modifier ${modifier}` : ''} is already on line ${seen.get(key)}`);
    if (wrong.length > 0) {
      problems.push({ line: r.line, message: wrong.join('; ') });
      continue;
    }
    seen.set(key, r.line);
    rows.push({ code, modifier, charge_cents: cents! });
  }
  if (rows.length === 0 && problems.length === 0) problems.push({ line: 0, message: 'the file has a header and no rows' });
  return { rows, problems };
}
