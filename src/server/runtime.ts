/** Assembles a running service from a Config: store, keys, payer network, operations, HTTP app. */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from '../http/app.ts';
import { Metrics } from '../http/metrics.ts';
import type { PayerNetwork } from '../payers/network.ts';
import { AuditWriter } from '../store/audit.ts';
import { openDb, type Db } from '../store/db.ts';
import { KeyStore } from '../store/keys.ts';
import { ConsoleSessionStore } from '../store/console-sessions.ts';
import { DataKey } from '../store/data-key.ts';
import { UserStore } from '../store/users.ts';
import { PasswordQueue } from '../store/password-queue.ts';
import { auditHmacKey, memberHasher } from '../store/member-hash.ts';
import type { BatchRunner } from '../operations/batch-runner.ts';
import { createBatchWorker } from './batch-worker.ts';
import { createMonitorWorker, type MonitorWorker } from './monitor-worker.ts';
import { checkProductionDataKey, type Config } from './config.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { openCoverageCache, openPayerNetwork } from './payer-network.ts';
import { keepEstimates } from './keep-estimates.ts';
import { remittanceAdvice } from './remittance-advice.ts';
import { RemittanceStore } from '../store/remittances.ts';
import { SealedText } from '../store/sealed-text.ts';

export interface Runtime {
  app: FastifyInstance;
  db: Db;
  keys: KeyStore;
  network: PayerNetwork;
  audit: AuditWriter;
  metrics: Metrics;
  /** Shared state across instances when REDIS_URL is set. */
  redis: Redis | null;
  /** The dev key's secret when this start generated one (sandbox without COVERAGE_DEV_KEY). */
  generatedDevKey: string | null;
  /** Runs this instance's share of the batch rows. */
  batchRunner: BatchRunner;
  /** Monitors' scheduled checks and webhook deliveries (docs/monitoring.md). */
  monitoring: MonitorWorker;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * The service's one clock (src/domain/clock.ts), the machine's by default: today's date, monitors'
   * schedules and webhook deliveries, leases, the payer connections' token lifetimes, breaker periods
   * and waits between polls. Tests inject theirs.
   */
  clock?: Clock;
  logStream?: NodeJS.WritableStream;
  logLevel?: string | false;
}

const GENERATED_DEV_KEY_NAME = 'dev (generated at start)';
const CONFIGURED_DEV_KEY_NAME = 'dev (COVERAGE_DEV_KEY)';

export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  checkProductionDataKey(config);
  const clock = options.clock ?? systemClock;
  const metrics = new Metrics({ processMetrics: true });
  const network = await openPayerNetwork(config, clock, metrics, process.env);
  const db = await openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, checkpointInBackground: true });
  // Production: payers imported into the store (coverage payers import) join the directory's.
  if (network.addCatalog) {
    const { PayerCatalogStore } = await import('../store/payer-catalog.ts');
    for (const warning of network.addCatalog(await new PayerCatalogStore(db).list())) process.stderr.write(`payer catalog: ${warning}\n`);
  }
  if (network.addProviders) network.addProviders(await new (await import('../store/providers.ts')).ProviderStore(db).list());
  const keys = new KeyStore(db, clock);
  let generatedDevKey: string | null = null;
  // Production keys made from COVERAGE_DEV_KEY by earlier versions: a configured string, not a generated secret.
  const retiredDevKeys = config.mode === 'production' ? await keys.revokeNamed(CONFIGURED_DEV_KEY_NAME, 'production') : 0;
  if (config.devKey) {
    if (!(await keys.ensure(config.devKey, CONFIGURED_DEV_KEY_NAME, 'sandbox'))) {
      await Promise.all([db.close(), network.close()]);
      throw new Error('COVERAGE_DEV_KEY was revoked and a revoke is final: set a new value (32+ characters) or unset it to have a key generated at each start');
    }
  } else if (config.mode === 'sandbox') {
    // One generated key lives at a time: the previous start's key (printed in an old terminal) stops working.
    await keys.revokeNamed(GENERATED_DEV_KEY_NAME);
    generatedDevKey = (await keys.create({ name: GENERATED_DEV_KEY_NAME, env: 'sandbox' })).secret;
  }
  // Errors of the writer and of Redis surface after the app (and its logger) exists.
  let app: FastifyInstance | undefined;
  const audit = new AuditWriter(db, {
    onError: (err, info) => app?.log.error({ err_type: (err as Error)?.name, ...info }, 'audit write failed; records kept for retry'),
  });
  const hashMember = memberHasher(await auditHmacKey(db, config.auditKey));
  const redis = config.redisUrl
    ? await (await import('./redis.ts')).openRedis(config.redisUrl, (err) => app?.log.warn({ err_type: err.name }, 'redis connection error'))
    : null;
  const dataKey = config.dataKey ? DataKey.fromBytes(config.dataKey) : null;
  const remittances = new RemittanceStore(db, new SealedText(dataKey));
  const deps = {
    network,
    clock,
    payerTimeoutMs: config.payerTimeoutMs,
    scanTimeoutMs: config.scanTimeoutMs,
    sessionCostFloorCents: config.sessionCostFloorCents,
    cache: openCoverageCache(config, redis, metrics, clock),
    onPayerCall: metrics.onPayerCall,
    keepEstimate: keepEstimates(
      remittances,
      hashMember,
      { estimateDays: config.estimateRetentionDays, remittanceDays: config.remittanceRetentionDays },
      clock,
      (err) => app?.log.warn({ err_type: (err as Error)?.name }, 'an answered estimate could not be kept for remittances'),
    ),
    remittanceAdvice: remittanceAdvice(remittances, clock, (err) =>
      app?.log.warn({ err_type: (err as Error)?.name }, "the remittances' advisory could not be read; the estimate is answered without it"),
    ),
  };
  const monitoring = createMonitorWorker({
    config: config.monitors,
    db,
    deps,
    dataKey,
    log: () => app?.log,
    audit: { writer: audit, hashMember },
    metrics: metrics.registry,
  });
  const batches = createBatchWorker({
    config: config.batch,
    db,
    deps,
    hashMember,
    dataKey,
    log: () => app?.log,
    onRowDone: (id) => monitoring.batchRowDone(id),
  });
  app = await buildApp({
    deps,
    keys,
    ready: () => db.ping(),
    logLevel: options.logLevel ?? config.logLevel,
    requestTimeoutMs: config.requestTimeoutMs,
    overload: config.overload,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    redis,
    audit: { writer: audit, hashMember },
    metrics,
    metricsToken: config.metricsToken ?? null,
    batches: {
      store: batches.store,
      network,
      maxQueuedRows: config.batch.maxQueuedRows,
      createPerMinute: config.batch.createPerMinute,
      clock,
      wake: () => batches.runner.wake(),
    },
    monitoring: monitoring.routes,
    remittances: {
      store: remittances,
      network,
      hash: hashMember,
      audit,
      clock,
      onVerdict: metrics.onRemittanceVerdict,
      webhooks: { store: monitoring.webhooks, wakeDeliveries: monitoring.routes.webhooks.wakeDeliveries },
    },
    consoleAccess: {
      users: new UserStore(db, {
        clock,
        dataKey,
        maxFailures: config.console.maxFailures,
        lockoutMs: config.console.lockoutMs,
        hashing: new PasswordQueue({ atOnce: config.console.hashesAtOnce, waiting: config.console.hashQueue }),
      }),
      sessions: new ConsoleSessionStore(db, { clock, idleMs: config.console.idleMs, lifetimeMs: config.console.lifetimeMs }),
      mode: config.mode,
      trustProxy: config.console.trustProxy,
      signInsPerMinute: config.console.signInsPerMinute,
      signInsPerUserPerMinute: config.console.signInsPerUserPerMinute,
      oidc: config.console.oidc,
    },
  });
  const server = app;
  if (retiredDevKeys > 0) {
    server.log.warn(
      { revoked: retiredDevKeys },
      'revoked production keys registered from COVERAGE_DEV_KEY by an earlier version; create production keys with `coverage keys create`',
    );
  }
  batches.runner.start();
  monitoring.start();
  return {
    app: server,
    db,
    keys,
    network,
    audit,
    metrics,
    redis,
    generatedDevKey,
    batchRunner: batches.runner,
    monitoring,
    async close() {
      // In-flight checks finish and queue their records first; then the queue is written.
      await server.close();
      await batches.runner.close();
      await monitoring.close();
      await audit.close();
      await redis?.quit().catch(() => redis.disconnect());
      await network.close();
      await db.close();
    },
  };
}
