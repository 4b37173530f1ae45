/** Table types of the remittance loop (migration-steps/remittances.ts). */
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

export interface RemittanceLineTable {
  remittance_id: string;
  line_no: number;
  key_id: string;
  created_at: string;
  payer_id: string;
  group_id: string | null;
  benefit_structure: string | null;
  verdict: string;
  difference: number | null;
  cause: string | null;
}
