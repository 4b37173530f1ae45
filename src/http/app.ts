/** The Fastify application: auth, validation, error mapping, the operations and the probes. */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { isIsoDate, isNpi } from '../domain/formats.ts';
import type { OperationDeps } from '../operations/index.ts';
import type { KeyStore } from '../store/keys.ts';
import { installAuth } from './auth.ts';
import { installErrorHandling } from './errors.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerPayerRoutes } from './routes/payers.ts';
import { registerSandboxRoutes } from './routes/sandbox.ts';
import { registerV1Routes } from './routes/v1.ts';
import { installRequestLog, loggerOptions } from './logging.ts';

export interface AppOptions {
  deps: OperationDeps;
  keys: KeyStore;
  ready: () => Promise<void>;
  /** pino level, or false for no logs (tests); a destination stream may be given for capture. */
  logLevel?: string | false;
  logStream?: NodeJS.WritableStream;
  bodyLimitBytes?: number;
}

/** Fixed security headers on the JSON API; helmet is reserved for HTML pages (it costs throughput). */
const API_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const serverOptions: FastifyServerOptions = {
    logger: loggerOptions(options.logLevel, options.logStream),
    disableRequestLogging: true,
    bodyLimit: options.bodyLimitBytes ?? 64 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    ajv: {
      customOptions: {
        allErrors: true,
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        formats: { date: isIsoDate, npi: isNpi },
      },
    },
  };
  const app = Fastify(serverOptions);
  installErrorHandling(app);
  installRequestLog(app);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/v1/')) {
      for (const [k, v] of Object.entries(API_HEADERS)) reply.header(k, v);
    }
    reply.header('x-request-id', request.id);
    return payload;
  });
  installAuth(app, options.keys, options.deps.network.mode);
  registerHealthRoutes(app, options.ready);
  registerV1Routes(app, options.deps);
  registerPayerRoutes(app, options.deps.network);
  if (options.deps.network.mode === 'sandbox') registerSandboxRoutes(app);
  await app.ready();
  return app;
}
