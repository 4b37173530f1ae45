/** Settings of monitors and webhooks (docs/monitoring.md), from the environment. */
import { parseCheckWindow, type CheckWindow } from '../domain/monitoring/schedule.ts';

export interface MonitorConfig {
  /** COVERAGE_MONITOR_WINDOW: scheduled checks run only while it is open (UTC); null: any hour. */
  window: CheckWindow | null;
  /** COVERAGE_MONITOR_PAYER_INTERVAL_MS: least time between two scheduled checks to one payer, across instances. */
  payerIntervalMs: number;
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  /** Monitors one owner may have. */
  maxPerOwner: number;
  /** COVERAGE_MONITOR_BULK_PER_MINUTE: POST /v1/monitors/bulk uploads one key may make a minute. */
  bulkPerMinute: number;
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** COVERAGE_WEBHOOK_DELIVERY=0: this instance queues events but sends none (instances sharing the store with egress do). */
  deliver: boolean;
  /** COVERAGE_WEBHOOK_ALLOW_INSECURE=1: http and loopback receivers (development and tests). */
  allowInsecure: boolean;
  timeoutMs: number;
  /** The first retry's wait; each next one doubles (with jitter) up to 6 h, for 24 h. */
  retryBaseMs: number;
  pollMs: number;
  concurrency: number;
  maxPerOwner: number;
}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0, got "${value}"`);
}

export function loadMonitorConfig(env: NodeJS.ProcessEnv): MonitorConfig {
  return {
    window: parseCheckWindow(env.COVERAGE_MONITOR_WINDOW),
    payerIntervalMs: int('COVERAGE_MONITOR_PAYER_INTERVAL_MS', env.COVERAGE_MONITOR_PAYER_INTERVAL_MS, 1_000, 0, 3_600_000),
    concurrency: int('COVERAGE_MONITOR_CONCURRENCY', env.COVERAGE_MONITOR_CONCURRENCY, 4, 1, 64),
    pollMs: int('COVERAGE_MONITOR_POLL_MS', env.COVERAGE_MONITOR_POLL_MS, 1_000, 10, 60_000),
    leaseMs: int('COVERAGE_MONITOR_LEASE_MS', env.COVERAGE_MONITOR_LEASE_MS, 60_000, 200, 3_600_000),
    maxPerOwner: int('COVERAGE_MONITOR_MAX_PER_KEY', env.COVERAGE_MONITOR_MAX_PER_KEY, 10_000, 1, 1_000_000),
    bulkPerMinute: int('COVERAGE_MONITOR_BULK_PER_MINUTE', env.COVERAGE_MONITOR_BULK_PER_MINUTE, 10, 1, 100_000),
    webhooks: {
      deliver:
        env.COVERAGE_WEBHOOK_DELIVERY === undefined || env.COVERAGE_WEBHOOK_DELIVERY === ''
          ? true
          : flag('COVERAGE_WEBHOOK_DELIVERY', env.COVERAGE_WEBHOOK_DELIVERY),
      allowInsecure: flag('COVERAGE_WEBHOOK_ALLOW_INSECURE', env.COVERAGE_WEBHOOK_ALLOW_INSECURE),
      timeoutMs: int('COVERAGE_WEBHOOK_TIMEOUT_MS', env.COVERAGE_WEBHOOK_TIMEOUT_MS, 10_000, 100, 60_000),
      retryBaseMs: int('COVERAGE_WEBHOOK_RETRY_BASE_MS', env.COVERAGE_WEBHOOK_RETRY_BASE_MS, 30_000, 10, 3_600_000),
      pollMs: int('COVERAGE_WEBHOOK_POLL_MS', env.COVERAGE_WEBHOOK_POLL_MS, 1_000, 10, 60_000),
      concurrency: int('COVERAGE_WEBHOOK_CONCURRENCY', env.COVERAGE_WEBHOOK_CONCURRENCY, 8, 1, 64),
      maxPerOwner: 20,
    },
  };
}
