/** Settings of monitors and webhooks (docs/monitoring.md), from the environment as EnvSchema reads it. */
import { parseCheckWindow, type CheckWindow } from '../domain/monitoring/schedule.ts';
import type { Env } from './env-schema.ts';

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

const flag = (value: string) => value === '1' || value === 'true';

export function monitorConfig(env: Env): MonitorConfig {
  return {
    window: parseCheckWindow(env.COVERAGE_MONITOR_WINDOW),
    payerIntervalMs: env.COVERAGE_MONITOR_PAYER_INTERVAL_MS,
    concurrency: env.COVERAGE_MONITOR_CONCURRENCY,
    pollMs: env.COVERAGE_MONITOR_POLL_MS,
    leaseMs: env.COVERAGE_MONITOR_LEASE_MS,
    maxPerOwner: env.COVERAGE_MONITOR_MAX_PER_KEY,
    bulkPerMinute: env.COVERAGE_MONITOR_BULK_PER_MINUTE,
    webhooks: {
      deliver: flag(env.COVERAGE_WEBHOOK_DELIVERY),
      allowInsecure: flag(env.COVERAGE_WEBHOOK_ALLOW_INSECURE),
      timeoutMs: env.COVERAGE_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: env.COVERAGE_WEBHOOK_RETRY_BASE_MS,
      pollMs: env.COVERAGE_WEBHOOK_POLL_MS,
      concurrency: env.COVERAGE_WEBHOOK_CONCURRENCY,
      maxPerOwner: 20,
    },
  };
}
