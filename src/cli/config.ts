/** Configuration from environment variables (documented in the README). */
import { resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { OverloadOptions } from '../http/overload.ts';
import { parseDataKeyHex } from '../store/data-key.ts';
import { type ConsoleConfig, loadConsoleConfig } from './console-config.ts';
import { loadMonitorConfig, type MonitorConfig } from './monitor-config.ts';

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

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

/** Shortest COVERAGE_DEV_KEY accepted: as long as a generated key's random part. */
export const DEV_KEY_MIN_LENGTH = 32;
/**
 * Fewest different characters a COVERAGE_DEV_KEY must use: one character repeated, or a tiny
 * alphabet (`abab...`), is refused. 32 random hexadecimal characters (`openssl rand -hex 16`) use
 * fewer than 8 less than once in 25 million draws (docs/security.md).
 */
export const DEV_KEY_MIN_DISTINCT = 8;

/** COVERAGE_DEV_KEY is a sandbox convenience: long enough to resist guessing, and never a production credential. */
function devKey(value: string | undefined, mode: 'sandbox' | 'production'): string | undefined {
  if (!value) return undefined;
  if (mode === 'production') {
    throw new Error(
      'COVERAGE_DEV_KEY is for the sandbox only: in production create keys with `coverage keys create --env production` and unset COVERAGE_DEV_KEY',
    );
  }
  if (value.length < DEV_KEY_MIN_LENGTH || /\s/.test(value)) {
    throw new Error(
      `COVERAGE_DEV_KEY must be at least ${DEV_KEY_MIN_LENGTH} characters without spaces (it is ${value.length}); unset it to have a key generated at each start`,
    );
  }
  const distinct = new Set(value).size;
  if (distinct < DEV_KEY_MIN_DISTINCT) {
    throw new Error(
      `COVERAGE_DEV_KEY uses ${distinct} different characters; a key needs at least ${DEV_KEY_MIN_DISTINCT} (use a random one, such as \`openssl rand -hex 16\`), or unset it to have a key generated at each start`,
    );
  }
  return value;
}

/**
 * The coverage cache holds names, DOBs and addresses; shared through Redis it must be encrypted
 * with a key every instance has. Production with REDIS_URL and the cache on refuses to start
 * without one rather than keep member data in Redis in plain text (or quietly stop caching).
 */
function dataKey(env: NodeJS.ProcessEnv, mode: 'sandbox' | 'production'): Buffer | undefined {
  if (env.COVERAGE_DATA_KEY) return parseDataKeyHex(env.COVERAGE_DATA_KEY);
  const cacheOn = env.COVERAGE_CACHE_TTL_MS !== '0';
  if (mode === 'production' && env.REDIS_URL && cacheOn) {
    throw new Error(
      'COVERAGE_DATA_KEY is required in production with REDIS_URL: the coverage cache in Redis holds member data and is kept encrypted. ' +
        'Set COVERAGE_DATA_KEY to 64 hexadecimal characters (`openssl rand -hex 32`, the same on every instance), or turn the cache off with COVERAGE_CACHE_TTL_MS=0',
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
  'Make one with `openssl rand -hex 32` (64 hexadecimal characters), keep it with your other secrets, give every instance the same one, and do not lose it: what it sealed cannot be read without it';

export function checkProductionDataKey(config: Pick<Config, 'mode' | 'dataKey'>): void {
  if (config.mode === 'production' && !config.dataKey) throw new Error(DATA_KEY_REQUIRED);
}

function metricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 32 || /\s/.test(value))
    throw new Error(`COVERAGE_METRICS_TOKEN must be at least 32 characters without spaces (e.g. \`openssl rand -hex 32\`); it has ${value.length}`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = env.COVERAGE_MODE ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') throw new Error(`COVERAGE_MODE must be sandbox or production, got "${mode}"`);
  return {
    port: int('PORT', env.PORT, 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.COVERAGE_DATA_DIR || './data'),
    mode,
    devKey: devKey(env.COVERAGE_DEV_KEY, mode),
    logLevel: env.LOG_LEVEL || 'info',
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    auditKey: env.COVERAGE_AUDIT_KEY || undefined,
    dataKey: dataKey(env, mode),
    payerTimeoutMs: int('COVERAGE_PAYER_TIMEOUT_MS', env.COVERAGE_PAYER_TIMEOUT_MS, 20_000, 100, 120_000),
    scanTimeoutMs: int('COVERAGE_SCAN_TIMEOUT_MS', env.COVERAGE_SCAN_TIMEOUT_MS, 25_000, 100, 120_000),
    requestTimeoutMs: int('COVERAGE_REQUEST_TIMEOUT_MS', env.COVERAGE_REQUEST_TIMEOUT_MS, 30_000, 100, 600_000),
    overload: {
      maxEventLoopDelayMs: int('COVERAGE_MAX_EVENT_LOOP_DELAY_MS', env.COVERAGE_MAX_EVENT_LOOP_DELAY_MS, 1_000, 0, 60_000),
      // Default: 90 % of V8's heap limit, before the process would die of it.
      maxHeapUsedBytes:
        int('COVERAGE_MAX_HEAP_USED_MB', env.COVERAGE_MAX_HEAP_USED_MB, Math.floor((getHeapStatistics().heap_size_limit * 0.9) / 2 ** 20), 0, 1_000_000) *
        2 ** 20,
      retryAfterSeconds: int('COVERAGE_OVERLOAD_RETRY_AFTER_S', env.COVERAGE_OVERLOAD_RETRY_AFTER_S, 5, 1, 3_600),
    },
    payersFile: env.COVERAGE_PAYERS ? resolve(env.COVERAGE_PAYERS) : undefined,
    cacheTtlMs: int('COVERAGE_CACHE_TTL_MS', env.COVERAGE_CACHE_TTL_MS, 300_000, 0, 3_600_000),
    batch: {
      concurrency: int('COVERAGE_BATCH_CONCURRENCY', env.COVERAGE_BATCH_CONCURRENCY, 16, 1, 256),
      perPayer: int('COVERAGE_BATCH_PER_PAYER', env.COVERAGE_BATCH_PER_PAYER, 4, 1, 64),
      maxQueuedRows: int('COVERAGE_BATCH_MAX_QUEUED_ROWS', env.COVERAGE_BATCH_MAX_QUEUED_ROWS, 50_000, 1, 10_000_000),
      leaseMs: int('COVERAGE_BATCH_LEASE_MS', env.COVERAGE_BATCH_LEASE_MS, 60_000, 200, 3_600_000),
      pollMs: int('COVERAGE_BATCH_POLL_MS', env.COVERAGE_BATCH_POLL_MS, 1_000, 10, 60_000),
      retentionDays: int('COVERAGE_BATCH_RETENTION_DAYS', env.COVERAGE_BATCH_RETENTION_DAYS, 7, 0, 3650),
      createPerMinute: int('COVERAGE_BATCH_CREATE_PER_MINUTE', env.COVERAGE_BATCH_CREATE_PER_MINUTE, 20, 1, 100_000),
    },
    console: loadConsoleConfig(env),
    monitors: loadMonitorConfig(env),
    metricsToken: metricsToken(env.COVERAGE_METRICS_TOKEN),
  };
}
