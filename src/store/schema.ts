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

export interface MigrationMarker {
  id: Generated<number>;
}

export interface Database {
  api_keys: ApiKeyTable;
}
