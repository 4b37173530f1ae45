/** The service's configuration, from the environment as EnvSchema reads it (env-schema.ts; the README's table is made from it). */
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { OverloadOptions } from '../http/overload.ts';
import { parseDataKeyHex } from '../store/data-key.ts';
import { type ConsoleConfig, consoleConfig } from './console-config.ts';
import { parseEnv } from './env.ts';
import type { Env } from './env-schema.ts';
import { monitorConfig, type MonitorConfig } from './monitor-config.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  mode: 'sandbox' | 'production';
  devKey: string | undefined;
  logLevel: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** HMAC key for member hashes in the audit trail; generated once and kept in the store when unset. */
  auditKey: string | undefined;
  /** COVERAGE_DATA_KEY: 32 bytes that encrypt the coverage cache (store/data-key.ts). */
  dataKey: Buffer | undefined;
  payerTimeoutMs: number;
  scanTimeoutMs: number;
  /** COVERAGE_SESSION_COST_FLOOR_CENTS: below it an estimate warns SESSION_COST_LOW. */
  sessionCostFloorCents: number;
  /** How long a client has to send a whole request, headers and body. */
  requestTimeoutMs: number;
  /** When requests are shed with 503 (http/overload.ts). */
  overload: OverloadOptions;
  /** The payer directory file (production mode). */
  payersFile: string | undefined;
  /** How long a payer's answer is reused for the same person, payer and day; 0 turns the cache off. */
  cacheTtlMs: number;
  /** Background batch checks (docs/batch.md). */
  batch: BatchConfig;
  /** Console sign-in for people (docs/console-access.md). */
  console: ConsoleConfig;
  /** Monitors and webhooks (docs/monitoring.md). */
  monitors: MonitorConfig;
  /** How long answered estimates are kept for remittances (docs/remittances.md). */
  estimateRetentionDays: number;
  /** How long remittances received are kept (docs/remittances.md). */
  remittanceRetentionDays: number;
  /** COVERAGE_METRICS_TOKEN: when set, GET /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

export interface BatchConfig {
  /** Rows this instance checks at once. */
  concurrency: number;
  /** Rows of one payer this instance checks at once; below a payer connection's own limit (10). */
  perPayer: number;
  /** Rows a key may have waiting or running. */
  maxQueuedRows: number;
  leaseMs: number;
  pollMs: number;
  /** Days a batch and its results are kept; 0 keeps them. */
  retentionDays: number;
  /** Batches one key may create per minute. */
  createPerMinute: number;
}

/**
 * Fewest different characters a COVERAGE_DEV_KEY must use: one character repeated, or a tiny
 * alphabet (`abab...`), is refused. 32 random hexadecimal characters (`openssl rand -hex 16`) use
 * fewer than 8 less than once in 25 million draws (docs/security.md).
 */
export const DEV_KEY_MIN_DISTINCT = 8;

/**
 * COVERAGE_DEV_KEY is a sandbox convenience: long enough to resist guessing (its length and spaces
 * are EnvSchema's), and never a production credential.
 */
function devKey(value: string | undefined, mode: Config['mode']): string | undefined {
  if (!value) return undefined;
  if (mode === 'production') {
    throw new Error(
      'COVERAGE_DEV_KEY is for the sandbox only: in production create keys with `coverage keys create --env production` and unset COVERAGE_DEV_KEY',
    );
  }
  const distinct = new Set(value).size;
  if (distinct < DEV_KEY_MIN_DISTINCT) {
    throw new Error(
      `COVERAGE_DEV_KEY uses ${distinct} different characters; a key needs at least ${DEV_KEY_MIN_DISTINCT} ` +
        `(use a random one, such as \`openssl rand -hex 16\`), or unset it to have a key generated at each start`,
    );
  }
  return value;
}

/**
 * The coverage cache holds names, DOBs and addresses; shared through Redis it must be encrypted
 * with a key every instance has. Production with REDIS_URL and the cache on refuses to start
 * without one rather than keep member data in Redis in plain text (or quietly stop caching).
 */
function dataKey(env: Env): Buffer | undefined {
  if (env.COVERAGE_DATA_KEY) return parseDataKeyHex(env.COVERAGE_DATA_KEY);
  if (env.COVERAGE_MODE === 'production' && env.REDIS_URL && env.COVERAGE_CACHE_TTL_MS !== 0) {
    throw new Error(
      'COVERAGE_DATA_KEY is required in production with REDIS_URL: the coverage cache in Redis holds member data and is kept encrypted. ' +
        'Set COVERAGE_DATA_KEY to 64 hexadecimal characters (`openssl rand -hex 32`, the ' +
        'same on every instance), or turn the cache off with COVERAGE_CACHE_TTL_MS=0',
    );
  }
  return undefined;
}

/**
 * A production server keeps member data outside the answers it sends: batch rows, monitors'
 * snapshots and webhook payloads, TOTP secrets, the coverage cache. It seals them with the data key,
 * so it does not start without one (docs/security.md, "Member data at rest"). The sandbox may.
 */
export const DATA_KEY_REQUIRED =
  'COVERAGE_DATA_KEY is required in production: batch rows, monitors, TOTP secrets and the coverage cache hold member data and are stored encrypted with it. ' +
  'Make one with `openssl rand -hex 32` (64 hexadecimal characters), keep it with your other secrets, ' +
  'give every instance the same one, and do not lose it: what it sealed cannot be read without it';

export function checkProductionDataKey(config: Pick<Config, 'mode' | 'dataKey'>): void {
  if (config.mode === 'production' && !config.dataKey) throw new Error(DATA_KEY_REQUIRED);
}

export function loadConfig(processEnv: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(processEnv);
  const mode = env.COVERAGE_MODE;
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.COVERAGE_DATA_DIR),
    mode,
    devKey: devKey(env.COVERAGE_DEV_KEY, mode),
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    auditKey: env.COVERAGE_AUDIT_KEY,
    dataKey: dataKey(env),
    payerTimeoutMs: env.COVERAGE_PAYER_TIMEOUT_MS,
    scanTimeoutMs: env.COVERAGE_SCAN_TIMEOUT_MS,
    sessionCostFloorCents: env.COVERAGE_SESSION_COST_FLOOR_CENTS,
    requestTimeoutMs: env.COVERAGE_REQUEST_TIMEOUT_MS,
    overload: {
      maxEventLoopDelayMs: env.COVERAGE_MAX_EVENT_LOOP_DELAY_MS,
      // Default: 90 % of V8's heap limit, before the process would die of it.
      maxHeapUsedBytes: (env.COVERAGE_MAX_HEAP_USED_MB ?? Math.floor((getHeapStatistics().heap_size_limit * 0.9) / 2 ** 20)) * 2 ** 20,
      retryAfterSeconds: env.COVERAGE_OVERLOAD_RETRY_AFTER_S,
    },
    payersFile: env.COVERAGE_PAYERS ? resolve(env.COVERAGE_PAYERS) : undefined,
    cacheTtlMs: env.COVERAGE_CACHE_TTL_MS,
    batch: {
      concurrency: env.COVERAGE_BATCH_CONCURRENCY,
      perPayer: env.COVERAGE_BATCH_PER_PAYER,
      maxQueuedRows: env.COVERAGE_BATCH_MAX_QUEUED_ROWS,
      leaseMs: env.COVERAGE_BATCH_LEASE_MS,
      pollMs: env.COVERAGE_BATCH_POLL_MS,
      retentionDays: env.COVERAGE_BATCH_RETENTION_DAYS,
      createPerMinute: env.COVERAGE_BATCH_CREATE_PER_MINUTE,
    },
    console: consoleConfig(env),
    monitors: monitorConfig(env),
    estimateRetentionDays: env.COVERAGE_ESTIMATE_RETENTION_DAYS,
    remittanceRetentionDays: env.COVERAGE_REMITTANCE_RETENTION_DAYS,
    metricsToken: env.COVERAGE_METRICS_TOKEN,
  };
}
