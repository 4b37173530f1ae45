/** The Fastify application: auth, validation, error mapping, the operations and the probes. */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { AJV_OPTIONS, formatsPlugin } from './ajv.ts';
import type { OperationDeps } from '../operations/index.ts';
import type { AuditWriter } from '../store/audit.ts';
import type { KeyStore } from '../store/keys.ts';
import type { MemberHasher } from '../store/member-hash.ts';
import { installApiHeaders } from './api-headers.ts';
import { installAuditHook } from './audit-hook.ts';
import { lazyCompilers } from './lazy-compilers.ts';
import { newRequestId } from './request-id.ts';
import { installAuth } from './auth/auth.ts';
import { accessRecorder } from './auth/console-audit.ts';
import { type ConsoleAccess, installConsoleAccess } from './auth/console-auth.ts';
import { clientLimits } from './client-limits.ts';
import { frameworkErrors, HttpErrors, installErrorHandling } from './errors.ts';
import { registerOpenApi } from './openapi/openapi.ts';
import { registerBatchRoutes, type BatchRouteOptions } from './routes/batches.ts';
import { registerConsole } from './routes/console.ts';
import { registerConsoleSessionRoutes } from './routes/console-session.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerMonitorRoutes, type MonitorRouteOptions } from './routes/monitors.ts';
import { registerRemittanceRoutes, type RemittanceRouteOptions } from './routes/remittances.ts';
import { registerWebhookRoutes, type WebhookRouteOptions } from './routes/webhooks.ts';
import { registerPayerRoutes } from './routes/payers.ts';
import { registerRootRoute } from './routes/root.ts';
import { registerSandboxRoutes } from './routes/sandbox.ts';
import { registerV1Routes } from './routes/v1.ts';
import { registerFhirRoutes } from './routes/fhir.ts';
import { depthLimited } from './json-depth.ts';
import { installRequestLog, loggerOptions } from './logging.ts';
import { installMetrics, Metrics } from './metrics.ts';
import { installOverload, type OverloadOptions } from './overload.ts';
import { installRateLimit } from './rate-limit.ts';
import { dropApiTrailingSlash } from './trailing-slash.ts';

export interface AppOptions {
  deps: OperationDeps;
  keys: KeyStore;
  ready: () => Promise<void>;
  /** pino level, or false for no logs (tests); a destination stream may be given for capture. */
  logLevel?: string | false;
  logStream?: NodeJS.WritableStream;
  bodyLimitBytes?: number;
  /** How long a client has to send a whole request (client-limits.ts). */
  requestTimeoutMs?: number;
  /** Shared rate-limit counters across instances; in memory when absent. */
  redis?: Redis | null;
  /** Where checks are recorded; without it no audit trail is kept. */
  audit?: { writer: AuditWriter; hashMember: MemberHasher };
  metrics?: Metrics;
  /** When set, /metrics answers only `Authorization: Bearer <token>` (scrapers carry no API key). */
  metricsToken?: string | null;
  /** The batch API; without it /v1/batches is not served. */
  batches?: BatchRouteOptions;
  /** Monitors and webhooks (docs/monitoring.md); without them /v1/monitors and /v1/webhooks are not served. */
  monitoring?: { monitors: MonitorRouteOptions; webhooks: WebhookRouteOptions };
  /** The remittance loop (docs/remittances.md); without it /v1/remittances and /v1/accuracy are not served. */
  remittances?: RemittanceRouteOptions;
  /** Console sign-in for people; without it only API keys authenticate. */
  consoleAccess?: ConsoleAccess;
  /** Load shedding (overload.ts); without it no request is shed. */
  overload?: OverloadOptions;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const serverOptions: FastifyServerOptions = {
    logger: loggerOptions(options.logLevel, options.logStream),
    // Our own hook writes the one line per request (logging.ts); fastify's two would be redundant.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes ?? 64 * 1024,
    genReqId: () => newRequestId(options.deps.clock.now()),
    // /v1/scan/ routes as /v1/scan (trailing-slash.ts).
    rewriteUrl: dropApiTrailingSlash,
    requestIdHeader: false,
    // Requests arriving while closing get our own 503 body (below), not fastify's.
    return503OnClosing: false,
    ...clientLimits(options.requestTimeoutMs),
    frameworkErrors,
    ajv: {
      customOptions: { ...AJV_OPTIONS },
      plugins: [formatsPlugin],
    },
    schemaController: { compilersFactory: lazyCompilers() },
  };
  const app = Fastify(serverOptions);
  // JSON only: without this, fastify would accept text/plain bodies as strings.
  app.removeContentTypeParser('text/plain');
  // Depth is refused before parsing: deep nesting costs the event loop before any schema could refuse it (json-depth.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthLimited(app.getDefaultJsonParser('error', 'error')));
  installErrorHandling(app);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request take a callback rather than return a promise: one promise less per hook and request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(HttpErrors.shuttingDown());
  });
  if (options.overload) await installOverload(app, options.overload);
  installRequestLog(app);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  // By route, before any route is added: the API's headers, then auth (fail closed).
  installApiHeaders(app);
  installConsoleAccess(app, options.consoleAccess ?? null);
  installAuth(app, options.keys, options.deps.network.mode);
  await installRateLimit(app, { redis: options.redis ?? null });
  if (options.audit) {
    const network = options.deps.network;
    installAuditHook(app, {
      audit: options.audit.writer,
      hashMember: options.audit.hashMember,
      knownPayer: (id) => network.payer(id) !== undefined,
      clock: options.deps.clock,
    });
  }
  installMetrics(app, options.metrics ?? new Metrics(), options.metricsToken ?? null);
  await registerOpenApi(app, { mode: options.deps.network.mode });
  registerRootRoute(app);
  registerHealthRoutes(app, options.ready);
  registerV1Routes(app, options.deps);
  await registerFhirRoutes(app, options.deps);
  registerPayerRoutes(app, options.deps.network);
  if (options.batches) await registerBatchRoutes(app, options.batches);
  if (options.monitoring) {
    await registerMonitorRoutes(app, options.monitoring.monitors);
    await registerWebhookRoutes(app, options.monitoring.webhooks);
  }
  if (options.remittances) await registerRemittanceRoutes(app, options.remittances);
  await registerConsole(app);
  if (options.consoleAccess)
    await registerConsoleSessionRoutes(app, { ...options.consoleAccess, recordAccess: accessRecorder(options.audit?.writer ?? null, options.deps.clock) });
  if (options.deps.network.mode === 'sandbox') registerSandboxRoutes(app);
  await app.ready();
  return app;
}
