/** 835s for tests: a payer's remittance of sandbox sessions, written by the service's own writer (src/x12/remittance/write-835.ts). */
import type { Adjustment, Claim, Remittance, ServiceLine } from '../../src/x12/remittance/types.ts';
import { write835 } from '../../src/x12/remittance/write-835.ts';
import { VALID_NPI } from './requests.ts';
import { TEST_TODAY } from './server.ts';

export interface Patient {
  member_id: string;
  member_first_name: string;
  member_last_name: string;
}

export const PR = (reason: string, amount_cents: number): Adjustment => ({ group: 'PR', reason, amount_cents, quantity: null });

export function serviceLine(
  code: string,
  charge: number,
  paid: number,
  adjustments: Adjustment[],
  allowed: number | null = null,
  date = TEST_TODAY,
): ServiceLine {
  return {
    procedure: { qualifier: 'HC', code, modifiers: [] },
    charge_cents: charge,
    paid_cents: paid,
    revenue_code: null,
    units: 1,
    original_procedure: null,
    date_of_service: date,
    service_end: date,
    allowed_cents: allowed,
    adjustments,
    remarks: [],
    line_control: null,
    segment_index: 0,
  };
}

export function claimOf(id: string, patient: Patient, lines: ServiceLine[], status = '1'): Claim {
  const charge = lines.reduce((t, l) => t + l.charge_cents, 0);
  const paid = lines.reduce((t, l) => t + l.paid_cents, 0);
  return {
    claim_id: id,
    status_code: status,
    status: 'primary',
    charge_cents: charge,
    paid_cents: paid,
    patient_responsibility_cents: charge - paid,
    filing_indicator: 'CI',
    payer_claim_id: null,
    facility_code: '11',
    frequency: '1',
    patient: {
      last_name: patient.member_last_name.toUpperCase(),
      first_name: patient.member_first_name.toUpperCase(),
      id_qualifier: 'MI',
      id: patient.member_id,
    },
    subscriber: null,
    corrected_insured: null,
    rendering_provider: null,
    statement_start: null,
    statement_end: null,
    adjustments: [],
    lines,
    header_number: '1',
    segment_index: 0,
  };
}

/** The 835 interchange; `payerId` goes in REF 2U (null: the payer is named by name only). */
export function remittance835(payerId: string | null, claims: Claim[]): string {
  const r: Remittance = {
    control_number: '0001',
    handling: 'I',
    total_paid_cents: claims.reduce((t, c) => t + c.paid_cents, 0),
    credit_debit: 'C',
    payment_method: 'ACH',
    payment_date: TEST_TODAY,
    trace: 'EFT0001',
    production_date: TEST_TODAY,
    payer: { name: 'SANDBOX PAYER', id_qualifier: null, id: null, additional_id: payerId },
    payee: { name: 'NORTH CLINIC', id_qualifier: 'XX', id: VALID_NPI },
    claims,
    provider_adjustments: [],
  };
  return write835(r, 'PAYER', 'CLINIC', { control_number: 7, now: new Date(`${TEST_TODAY}T12:00:00Z`) });
}
