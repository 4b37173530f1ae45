/** Table types of the Good Faith Estimate (migration-steps/good-faith-estimates.ts). */
import type { GfeVersion } from '../domain/gfe/version.ts';

export interface GoodFaithEstimateTable extends GfeVersion {
  /** The owner of the key that wrote it (keys.ts ownerOf). */
  key_id: string;
  /** Keyed HMAC of the client's name and date of birth (member-hash.ts). */
  client_hash: string;
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
