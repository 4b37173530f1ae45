/** Table types of the Good Faith Estimate (migration-steps/good-faith-estimates.ts). */
export interface GoodFaithEstimateTable {
  id: string;
  version: number;
  /** The owner of the key that wrote it (keys.ts ownerOf). */
  key_id: string;
  /** Keyed HMAC of the client's name and date of birth (member-hash.ts). */
  client_hash: string;
  status: string;
  service_date: string | null;
  due_date: string | null;
  total_cents: number;
  created_at: string;
  given_at: string | null;
  /** The estimate's content (client, providers, services, notices) as JSON, sealed with the data key. */
  payload: string;
}

export interface FeeScheduleTable {
  key_id: string;
  code: string;
  modifier: string;
  charge_cents: number;
  updated_at: string;
}
