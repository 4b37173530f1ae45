/** Table types of the remittance loop (migration-steps/remittances.ts). */
import type { ComparedLine, Observed } from '../domain/remittance-line.ts';

export interface EstimateRecordTable {
  id: string;
  key_id: string;
  member_id_hash: string;
  payer_id: string;
  date_of_service: string;
  at: string;
  expires_at: string;
  /** The KeptEstimate as JSON, sealed with the data key when there is one. */
  payload: string;
}

export interface RemittanceTable {
  id: string;
  key_id: string;
  created_at: string;
  claims: number;
  service_lines: number;
  matched: number;
  /** The lines with their matches and verdicts as JSON, sealed. */
  payload: string;
}

/** A compared line: its verdict for the accuracy report and, since 0015, what it observed of each benefit. */
export interface RemittanceLineTable extends ComparedLine, Observed {
  remittance_id: string;
  line_no: number;
  key_id: string;
  /** 0015: the claim of the remittance it belongs to (1-based); null on rows kept before. */
  claim_no: number | null;
  /** The remittance whose reversal or correction withdrew this line's comparison; null while it counts. */
  withdrawn_by: string | null;
}

/** One claim of a remittance with a payer claim control number (CLP07): what reversals and corrections are matched on. */
export interface RemittanceClaimTable {
  remittance_id: string;
  claim_no: number;
  key_id: string;
  created_at: string;
  /** Keyed hash of the payer and CLP07 (never CLP07 itself). */
  claim_hash: string;
  /** CLP04 in cents, as sent (a reversal's is negative). */
  paid: number;
  /** 1: CLP02 22, a reversal of an earlier payment. */
  reversal: number;
  /** A payment: the remittance whose reversal or correction withdrew it. A reversal: the remittance of the payment it withdrew (null: none yet). */
  settled_by: string | null;
}
