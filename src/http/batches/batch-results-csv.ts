/**
 * The results of a batch as CSV for spreadsheets: one line per row, what the front desk reads, money
 * in dollars. `row` is the spreadsheet's row (the header is row 1); `verdict` and `next_step` are the
 * console card's own words (console/verdict.js); a sandbox batch's file leads with a column saying so.
 */
import { CANCELLED_OUTCOME, outcomeOf, PENDING_OUTCOME } from '../../domain/batch.ts';
import type { StoredRow } from '../../store/batches.ts';
import { verdict } from '../console/verdict.js';
import { csvLine } from '../../formats/csv.ts';
import { excelSafeId } from '../../formats/spreadsheet-cells.ts';

/** The first column of a sandbox batch's file, and every one of its cells: no one mistakes it for real data. */
export const SANDBOX_COLUMN = 'sandbox';
export const SANDBOX_MARK = 'SANDBOX — not real coverage data';

export const RESULT_COLUMNS = [
  'row',
  'verdict',
  'next_step',
  'endpoint',
  'status',
  'outcome',
  'message',
  'member_id',
  'member_first_name',
  'member_last_name',
  'member_dob',
  'payer_id',
  'payer_name',
  'plan_name',
  'plan_status',
  'insurance_type',
  'plan_begin_date',
  'plan_end_date',
  'in_network',
  'copay_dollars',
  'coinsurance_percent',
  'deductible_dollars',
  'remaining_deductible_dollars',
  'oop_max_dollars',
  'remaining_oop_max_dollars',
  'patient_pays_dollars',
  'payer_pays_dollars',
  'telehealth_patient_pays_dollars',
  'alerts',
] as const;

const dollars = (cents: unknown) => (typeof cents === 'number' ? (cents / 100).toFixed(2) : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** A check not run (yet) has no verdict: said as the table says it. */
function verdictOf(row: StoredRow, body: Record<string, unknown>, today: string | null): { text: string; next: string | null } {
  if (row.state === 'cancelled') return { text: 'Cancelled: not checked', next: null };
  if (row.state !== 'done' || row.status === null) return { text: 'Not checked yet', next: null };
  const v = verdict(row.endpoint, row.status, { error_code: row.error_code, ...body }, today);
  return { text: v.text, next: v.next };
}

/**
 * A row's number as the upload numbers it, the same in the JSON and the CSV results and in the
 * upload's errors (docs/batch.md, "Row numbers"): a CSV's spreadsheet row (the header is row 1), a
 * JSON upload's 1-based check.
 */
export const uploadRow = (rowNo: number, source: 'csv' | 'json'): number => (source === 'csv' ? rowNo + 1 : rowNo);

export interface CsvContext {
  /** How the rows were sent: numbers the rows as the upload did. */
  source: 'csv' | 'json';
  /** The batch's environment: only `sandbox` marks the file (a batch from before modes were recorded says `unknown`). */
  env: string;
  /** YYYY-MM-DD, for "coverage not started" against "ended". */
  today: string | null;
}

export function resultCsvLine(row: StoredRow, context: CsvContext = { source: 'csv', env: 'production', today: null }): string {
  const body = (row.result ? JSON.parse(row.result) : {}) as Record<string, unknown>;
  const req = row.request;
  const telehealth = (body.telehealth ?? null) as Record<string, unknown> | null;
  const alerts = Array.isArray(body.alerts) ? (body.alerts as { code: string; message: string }[]) : [];
  const ok = row.state === 'done' && row.status !== null && row.status < 300;
  const v = verdictOf(row, body, context.today);
  const values: Record<(typeof RESULT_COLUMNS)[number], string | number | boolean | null> = {
    row: uploadRow(row.row_no, context.source),
    verdict: v.text,
    next_step: v.next,
    endpoint: row.endpoint,
    status: row.status,
    outcome: row.state === 'done' ? outcomeOf(row.error_code) : row.state === 'cancelled' ? CANCELLED_OUTCOME : PENDING_OUTCOME,
    message: ok ? null : str(body.message),
    member_id: excelSafeId(str(req.member_id)),
    member_first_name: str(req.member_first_name),
    member_last_name: str(req.member_last_name),
    member_dob: str(req.member_dob),
    payer_id: str(body.payer_id) ?? str(req.payer_id),
    payer_name: str(body.payer_name),
    plan_name: str(body.plan_name),
    plan_status: str(body.plan_status),
    insurance_type: str(body.insurance_type),
    plan_begin_date: str(body.plan_begin_date),
    plan_end_date: str(body.plan_end_date),
    in_network: typeof body.in_network === 'boolean' ? body.in_network : null,
    copay_dollars: dollars(body.copayment),
    coinsurance_percent: typeof body.coinsurance === 'number' ? body.coinsurance : null,
    deductible_dollars: dollars(body.deductible),
    remaining_deductible_dollars: dollars(body.remaining_deductible),
    oop_max_dollars: dollars(body.oop_max),
    remaining_oop_max_dollars: dollars(body.remaining_oop_max),
    patient_pays_dollars: dollars(body.member_obligation),
    payer_pays_dollars: dollars(body.payer_obligation),
    telehealth_patient_pays_dollars: dollars(telehealth?.member_obligation),
    alerts: alerts.map((a) => `${a.code}: ${a.message}`).join(' | ') || null,
  };
  const cells = RESULT_COLUMNS.map((c) => values[c]);
  return csvLine(context.env === 'sandbox' ? [SANDBOX_MARK, ...cells] : cells);
}

export const resultCsvHeader = (env = 'production') => csvLine(env === 'sandbox' ? [SANDBOX_COLUMN, ...RESULT_COLUMNS] : RESULT_COLUMNS);
