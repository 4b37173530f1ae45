/** Table types of the store, shared by SQLite and PostgreSQL through Kysely. */
import type { ColumnType, Generated } from 'kysely';
import type { EstimateRecordTable, RemittanceClaimTable, RemittanceLineTable, RemittanceTable } from './remittance-tables.ts';
import type { FeeScheduleTable, GoodFaithEstimateTable } from './gfe-tables.ts';
import type { MonitorPacingTable, MonitorTable, MonitorUploadTable, WebhookDeliveryTable, WebhookTable } from './monitor-tables.ts';
import type { RowAudit } from '../domain/batch.ts';
import type { Mode } from '../domain/mode.ts';

export interface ApiKeyTable {
  id: string;
  name: string;
  env: Mode;
  /** The first characters of the secret, shown in listings so operators can tell keys apart. */
  prefix: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Who the key belongs to: its own id, inherited by the keys that rotate it; batches belong to it. */
  owner_id: string | null;
}

/** One check, as the operator needs it to prove who checked whom: never names, IDs or dates of birth. */
export interface AuditEventTable extends RowAudit {
  request_id: string;
  key_id: string;
  /** The person signed in to the console who made the check (users.id); null for machine keys. */
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The directory connection that answered (production, after any failover). */
  route: ColumnType<string | null, string | null | undefined, string | null>;
  /** ISA13 of the 270 that was answered, nine digits. */
  control_number: ColumnType<string | null, string | null | undefined, string | null>;
  /** BHT03 and TRN02 of that 270. */
  trace_number: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A payer of the imported catalog (coverage payers import). */
export interface PayerCatalogTable {
  payer_id: string;
  name: string;
  /** JSON array of strings. */
  aliases: string;
  /** Derived from its routes' at each import; the record's own for a payer without routes. */
  eligibility: 'supported' | 'enrollment_required' | 'not_supported';
  medicaid_state: string | null;
  updated_at: string;
}

/** A catalog payer's ID at one connection of the directory. */
export interface PayerCatalogRouteTable {
  payer_id: string;
  connection: string;
  connection_payer_id: string;
  /** What this connection's payer list says; the payer's eligibility is derived from its routes'. */
  eligibility: 'supported' | 'enrollment_required' | 'not_supported';
}

/** A provider of the practice (coverage providers add): a person (first/last name) or an organization. */
export interface ProviderTable {
  npi: string;
  first_name: string | null;
  last_name: string | null;
  organization_name: string | null;
  taxonomy: string | null;
  updated_at: string;
}

/** A person who signs in to the console (docs/console-access.md). */
export interface UserTable {
  id: string;
  /** Lowercase; unique. */
  username: string;
  env: Mode;
  /** argon2id PHC string. */
  password_hash: string;
  /** The TOTP secret, sealed with COVERAGE_DATA_KEY when one is set (data-key.ts), else `plain:`; null without TOTP. */
  totp_secret: string | null;
  /** The last accepted TOTP time step: a code is accepted once. */
  totp_last_step: number | null;
  /** Failed sign-ins since the last success. */
  failed_attempts: number;
  locked_until: string | null;
  created_at: string;
  password_changed_at: string;
  disabled_at: string | null;
  last_sign_in_at: string | null;
}

/** A used sign-in round trip (OpenID Connect state), kept until the round trip would have expired anyway. */
export interface OidcStateTable {
  /** SHA-256 of the state, hex. */
  state_hash: string;
  expires_at: string;
}

/** A console sign-in: only the SHA-256 of the cookie's token is kept. */
export interface ConsoleSessionTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  /** The last request made with the session; idle logoff counts from it. */
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
}

/** Values a deployment generates once and keeps, such as the audit HMAC key when none is configured. */
export interface SettingTable {
  name: string;
  value: string;
}

/** A batch of checks (docs/batch.md); it belongs to the owner of the key that created it. */
export interface BatchTable {
  id: string;
  key_id: string;
  /** The owner of key_id (api_keys.owner_id): every key of that owner reaches the batch. */
  owner_id: string;
  /** The environment of key_id: only an instance of that mode runs the rows ('unknown' for batches whose key was gone at migration). */
  env: BatchEnv;
  source: 'json' | 'csv';
  /** The uploaded file's name without its extension, cleaned (spreadsheet-cells.ts uploadName) and sealed; null when none was given. */
  name?: string | null;
  total: number;
  created_at: string;
  /**
   * Set while a large batch's rows are still being written (store/batches.ts create): until then the
   * batch is neither visible nor run, and past this instant an unfinished creation is deleted.
   */
  staged_until?: string | null;
}

export type BatchEnv = Mode | 'unknown';

/** One check of a batch: pending, then running under a worker's claim, then done with its result. */
export interface BatchRowTable {
  batch_id: string;
  /** 1-based position in the batch. */
  row_no: number;
  /** The batch's key, kept on each row for the audit record. */
  key_id: string;
  /** The batch's owner and environment, kept on each row for claims, budgets and cancellation. */
  owner_id: string;
  env: BatchEnv;
  /** The person signed in to the console who queued the batch, for the audit record; null for machine keys. */
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  endpoint: string;
  /** The payer the row goes to, or *scan: rows are claimed per payer to bound each payer's concurrency. */
  payer_key: string;
  /** The check's JSON body. */
  request: string;
  /** cancelled: never run (the batch was cancelled or its owner has no live key). */
  state: 'pending' | 'running' | 'done' | 'cancelled';
  /** The claim a running row is held under; only that claim may write its result. */
  claimed_by: string | null;
  /** ISO 8601; past it, a running row is taken back to pending (its worker is gone). */
  lease_until: string | null;
  /** How many times a worker took the row. */
  attempts: number;
  status: number | null;
  error_code: string | null;
  /** The response body, JSON. */
  result: string | null;
  finished_at: string | null;
}

export interface MigrationMarker {
  id: Generated<number>;
}

export interface Database {
  api_keys: ApiKeyTable;
  audit_events: AuditEventTable;
  payer_catalog: PayerCatalogTable;
  payer_catalog_routes: PayerCatalogRouteTable;
  providers: ProviderTable;
  settings: SettingTable;
  batches: BatchTable;
  batch_rows: BatchRowTable;
  users: UserTable;
  console_sessions: ConsoleSessionTable;
  oidc_states: OidcStateTable;
  monitors: MonitorTable;
  monitor_pacing: MonitorPacingTable;
  monitor_uploads: MonitorUploadTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  estimate_records: EstimateRecordTable;
  remittances: RemittanceTable;
  remittance_lines: RemittanceLineTable;
  remittance_claims: RemittanceClaimTable;
  good_faith_estimates: GoodFaithEstimateTable;
  fee_schedule: FeeScheduleTable;
}
