/**
 * What an 835 (005010X221A1) says, as read by read-835.ts and written by write-835.ts: amounts in
 * integer cents, dates ISO, codes as sent beside what our tables decide of them (docs/remittances.md).
 */
import type { IsoDate } from '../../domain/coverage.ts';

/** CLP02, as codes/clp02.json decides it; 'unknown' for a value outside that list. */
export type ClaimStatus = 'primary' | 'secondary' | 'tertiary' | 'denied' | 'reversal' | 'not_ours' | 'predetermination' | 'unknown';

/** What kind of member share a PR adjustment is (codes/carc.json `kind`, 'other' for the rest). */
export type ShareKind = 'deductible' | 'coinsurance' | 'copay' | 'other';

export interface Adjustment {
  /** CAS01: PR, CO, OA, PI (CR from 4010 senders). */
  group: string;
  /** The claim adjustment reason code (CAS02, 05, ...). */
  reason: string;
  /** Positive reduces the payment; negative (a reversal's) increases it. */
  amount_cents: number;
  quantity: number | null;
}

export interface Person {
  last_name: string | null;
  first_name: string | null;
  /** NM108 as sent (MI member ID, 34 SSN, II, HN, MR, FI ...). */
  id_qualifier: string | null;
  id: string | null;
}

export interface Procedure {
  /** SVC01-1: HC (CPT/HCPCS), AD, ER, HP, IV, N4, N6, NU, UI, WK. */
  qualifier: string;
  code: string;
  modifiers: string[];
}

export interface ServiceLine {
  procedure: Procedure;
  charge_cents: number;
  paid_cents: number;
  /** SVC04 revenue code, when sent. */
  revenue_code: string | null;
  /** SVC05; null when not sent (one unit by the TR3's default). */
  units: number | null;
  /** SVC06: the procedure billed, when the payer adjudicated another. */
  original_procedure: Procedure | null;
  /** DTM 472, or the first day of a DTM 150/151 period. */
  date_of_service: IsoDate | null;
  service_end: IsoDate | null;
  /** AMT B6. */
  allowed_cents: number | null;
  adjustments: Adjustment[];
  /** LQ HE: remittance advice remark codes. */
  remarks: string[];
  /** REF 6R: the provider's line item control number. */
  line_control: string | null;
  /** Position of the SVC segment (1-based in the interchange). */
  segment_index: number;
}

export interface Claim {
  /** CLP01: the provider's patient control number. */
  claim_id: string;
  status_code: string;
  status: ClaimStatus;
  charge_cents: number;
  paid_cents: number;
  /** CLP05; null when not sent. */
  patient_responsibility_cents: number | null;
  /** CLP06: 12-17 Medicare secondary, MA/MB Medicare, MC Medicaid, CI commercial, HM HMO, ... */
  filing_indicator: string | null;
  /** CLP07. */
  payer_claim_id: string | null;
  /** CLP08: the place of service of a professional claim. */
  facility_code: string | null;
  /** CLP09. */
  frequency: string | null;
  patient: Person | null;
  subscriber: Person | null;
  corrected_insured: Person | null;
  rendering_provider: Person | null;
  statement_start: IsoDate | null;
  statement_end: IsoDate | null;
  /** Claim-level CAS (not spread over the lines). */
  adjustments: Adjustment[];
  lines: ServiceLine[];
  /** LX01 of the header number loop holding the claim, when sent. */
  header_number: string | null;
  segment_index: number;
}

export interface ProviderAdjustment {
  provider_id: string;
  /** PLB02: the last day of the provider's fiscal period. */
  date: IsoDate | null;
  /** PLB03-1 (codes/plb.json). */
  reason: string;
  /** PLB03-2: the reference the payer gives (often the claim it concerns). */
  reference: string | null;
  /** Positive reduces the payment (an overpayment recovered); negative increases it. */
  amount_cents: number;
}

export interface Party {
  name: string | null;
  /** N103 as sent (XV, FI, XX). */
  id_qualifier: string | null;
  id: string | null;
}

export interface Remittance {
  /** ST02. */
  control_number: string;
  /** BPR01: I remittance with payment, H notification only, C/D/P/U/X as the TR3 lists. */
  handling: string;
  /** BPR02. */
  total_paid_cents: number;
  /** BPR03: C credit, D debit. */
  credit_debit: string | null;
  /** BPR04: ACH, CHK, BOP, FWT, NON. */
  payment_method: string | null;
  /** BPR16. */
  payment_date: IsoDate | null;
  /** TRN02: the check or EFT trace number. */
  trace: string | null;
  /** DTM 405. */
  production_date: IsoDate | null;
  payer: Party & { /** REF 2U. */ additional_id: string | null };
  payee: Party;
  claims: Claim[];
  provider_adjustments: ProviderAdjustment[];
}
