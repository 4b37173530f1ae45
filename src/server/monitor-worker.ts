/** This instance's monitors and webhooks: the stores, the scheduled-check runner and the delivery worker, wired to the operations. */
import type { FastifyBaseLogger } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { DEFAULT_BACKOFF } from '../domain/monitoring/backoff.ts';
import { identityOf, type MemberHasher } from '../store/member-hash.ts';
import type { MonitorRouteOptions } from '../http/routes/monitors.ts';
import type { MonitorCheckOutcome } from '../operations/monitoring/monitor-check.ts';
import type { AuditWriter } from '../store/audit.ts';
import { USER_ID_PREFIX } from '../store/users.ts';
import type { WebhookRouteOptions } from '../http/routes/webhooks.ts';
import type { OperationDeps } from '../operations/index.ts';
import { errType } from '../operations/lease-worker.ts';
import { DeliveryWorker } from '../operations/monitoring/delivery-worker.ts';
import { MonitorRunner } from '../operations/monitoring/monitor-runner.ts';
import { batchCompletedEvent } from '../store/batch-events.ts';
import type { DataKey } from '../store/data-key.ts';
import type { Db } from '../store/db.ts';
import { MonitorStore } from '../store/monitors.ts';
import { SealedText } from '../store/sealed-text.ts';
import { WebhookStore } from '../store/webhooks.ts';
import type { MonitorConfig } from './monitor-config.ts';
import { dateOf } from '../domain/clock.ts';

export interface MonitorWorkerParts {
  config: MonitorConfig;
  db: Db;
  deps: OperationDeps;
  dataKey: DataKey | null;
  log: () => FastifyBaseLogger | undefined;
  /** The registry of GET /metrics: monitor checks and webhook deliveries are counted there. */
  metrics?: Registry;
  /** Where each check is recorded, as every other check is (docs/security.md). */
  audit?: { writer: AuditWriter; hashMember: MemberHasher };
}

export interface MonitorWorker {
  monitors: MonitorStore;
  webhooks: WebhookStore;
  runner: MonitorRunner;
  deliveries: DeliveryWorker;
  routes: { monitors: MonitorRouteOptions; webhooks: WebhookRouteOptions };
  /** Called for each finished batch row: queues batch.completed when it was the batch's last. */
  batchRowDone(batchId: string): void;
  /** Resolves when no event is being queued, no check made and no delivery sent (tests). */
  idle(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

export function createMonitorWorker(parts: MonitorWorkerParts): MonitorWorker {
  const clock = parts.deps.clock;
  const text = new SealedText(parts.dataKey);
  const webhooks = new WebhookStore(parts.db, text);
  const monitors = new MonitorStore(parts.db, webhooks, text);
  const log = {
    error: (obj: Record<string, unknown>, msg: string) => parts.log()?.error(obj, msg),
    warn: (obj: Record<string, unknown>, msg: string) => parts.log()?.warn(obj, msg),
  };
  const { config } = parts;
  // The audit names only payers of the directory, never text a caller made up.
  const knownPayer = (id: unknown) => (typeof id === 'string' && parts.deps.network.payer(id) ? id : null);
  const registers = parts.metrics ? [parts.metrics] : [];
  const checks = new Counter({
    name: 'coverage_monitor_checks_total',
    help: 'Monitor checks by outcome: unchanged, changed or failed',
    labelNames: ['outcome'],
    registers,
  });
  const attempts = new Counter({
    name: 'coverage_webhook_attempts_total',
    help: 'Webhook delivery attempts by result: delivered, retry or failed (given up)',
    labelNames: ['result'],
    registers,
  });
  const onChecked = (m: { key_id: string; what: { request: Record<string, unknown> } | null }, o: MonitorCheckOutcome) => {
    checks.inc({ outcome: o.snapshot === null ? 'failed' : o.last.changes.length > 0 ? 'changed' : 'unchanged' });
    parts.audit?.writer.record({
      request_id: o.requestId,
      at: o.last.at,
      key_id: m.key_id,
      endpoint: 'estimate',
      payer_id: o.payerId ?? knownPayer(m.what?.request.payer_id),
      status: o.status,
      error_code: o.last.error_code,
      latency_ms: Math.round(o.latencyMs),
      member_hash: m.what ? parts.audit.hashMember(identityOf(m.what.request)) : null,
      // A monitor a person created in the console checks under their user id: the record names them.
      user_id: m.key_id.startsWith(USER_ID_PREFIX) ? m.key_id : null,
    });
  };
  const deliveries = new DeliveryWorker({
    queue: webhooks,
    clock,
    concurrency: config.webhooks.concurrency,
    leaseMs: Math.max(config.webhooks.timeoutMs * 3, 30_000),
    pollMs: config.webhooks.pollMs,
    timeoutMs: config.webhooks.timeoutMs,
    backoff: { ...DEFAULT_BACKOFF, baseMs: config.webhooks.retryBaseMs, capMs: Math.max(config.webhooks.retryBaseMs, DEFAULT_BACKOFF.capMs) },
    allowInsecure: config.webhooks.allowInsecure,
    onAttempt: (o) => attempts.inc({ result: o.delivered ? 'delivered' : o.nextAttemptAt === null ? 'failed' : 'retry' }),
    log,
  });
  const runner = new MonitorRunner({
    deps: parts.deps,
    queue: monitors,
    env: parts.deps.network.mode,
    concurrency: config.concurrency,
    payerIntervalMs: config.payerIntervalMs,
    window: config.window,
    leaseMs: config.leaseMs,
    pollMs: config.pollMs,
    onChecked,
    onEvents: () => wakeDeliveries(),
    log,
  });
  /** batch.completed events being queued. */
  const queuing = new Set<Promise<void>>();
  const wakeDeliveries = () => {
    if (config.webhooks.deliver) deliveries.wake();
  };
  const wake = () => {
    void runner.runDue();
    wakeDeliveries();
  };
  return {
    monitors,
    webhooks,
    runner,
    deliveries,
    routes: {
      monitors: {
        store: monitors,
        deps: parts.deps,
        clock,
        maxPerOwner: config.maxPerOwner,
        bulkPerMinute: config.bulkPerMinute,
        wakeDeliveries: wake,
        onChecked,
      },
      webhooks: { store: webhooks, clock, allowInsecure: config.webhooks.allowInsecure, maxPerOwner: config.webhooks.maxPerOwner, wakeDeliveries },
    },
    batchRowDone(batchId) {
      const queued: Promise<void> = (async () => {
        const completed = await batchCompletedEvent(parts.db, batchId, dateOf(clock));
        if (!completed) return;
        if ((await webhooks.enqueue(null, completed.ownerId, completed.event, undefined, dateOf(clock))).length > 0) wakeDeliveries();
      })()
        .catch((err) => log.error({ err_type: errType(err) }, 'batch.completed event not queued'))
        .finally(() => queuing.delete(queued));
      queuing.add(queued);
    },
    async idle() {
      while (queuing.size > 0) await Promise.allSettled([...queuing]);
      await runner.idle();
      await deliveries.idle();
    },
    start() {
      runner.start();
      if (config.webhooks.deliver) deliveries.start();
    },
    async close() {
      await runner.close();
      await deliveries.close();
    },
  };
}
