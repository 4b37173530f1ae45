/** The results of a batch as CSV for spreadsheets: one line per row, what the front desk reads, money in dollars. */
import { CANCELLED_OUTCOME, outcomeOf, PENDING_OUTCOME } from '../domain/batch.ts';
import type { StoredRow } from '../store/batches.ts';
import { csvLine } from './csv.ts';
import { excelSafeId } from './spreadsheet-cells.ts';

export const RESULT_COLUMNS = [
  'row',
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

export function resultCsvLine(row: StoredRow): string {
  const body = (row.result ? JSON.parse(row.result) : {}) as Record<string, unknown>;
  const req = row.request;
  const telehealth = (body.telehealth ?? null) as Record<string, unknown> | null;
  const alerts = Array.isArray(body.alerts) ? (body.alerts as { code: string; message: string }[]) : [];
  const ok = row.state === 'done' && row.status !== null && row.status < 300;
  const values: Record<(typeof RESULT_COLUMNS)[number], string | number | boolean | null> = {
    row: row.row_no,
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
  return csvLine(RESULT_COLUMNS.map((c) => values[c]));
}

export const resultCsvHeader = () => csvLine(RESULT_COLUMNS);
