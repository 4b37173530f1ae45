/** Table types of the store, shared by SQLite and PostgreSQL through Kysely. */
import type { Generated } from 'kysely';

export interface ApiKeyTable {
  id: string;
  name: string;
  env: 'sandbox' | 'production';
  /** The first characters of the secret, shown in listings so operators can tell keys apart. */
  prefix: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** One check, as the operator needs it to prove who checked whom: never names, IDs or dates of birth. */
export interface AuditEventTable {
  request_id: string;
  /** ISO 8601 UTC; sorts and compares as text on both dialects. */
  at: string;
  key_id: string;
  /** The operation: estimate, discover, scan or medicaid. */
  endpoint: string;
  payer_id: string | null;
  status: number;
  error_code: string | null;
  latency_ms: number;
  /** Keyed HMAC of the normalized member identity (member-hash.ts); null when the body was invalid. */
  member_hash: string | null;
}

/** Values a deployment generates once and keeps, such as the audit HMAC key when none is configured. */
export interface SettingTable {
  name: string;
  value: string;
}

export interface MigrationMarker {
  id: Generated<number>;
}

export interface Database {
  api_keys: ApiKeyTable;
  audit_events: AuditEventTable;
  settings: SettingTable;
}
