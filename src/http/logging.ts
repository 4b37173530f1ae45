/**
 * Logs: pino, one line per request. No bodies and no member data are ever logged; the apikey
 * header is redacted in case anything logs headers.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { destination } from 'pino';

export const REDACT_PATHS = ['req.headers.apikey', 'headers.apikey', 'apikey', '*.apikey', 'request.headers.apikey'];

/**
 * Standard output, written in chunks of at least 4 KB or every half second, whichever comes first,
 * and flushed as the process exits (pino's asynchronous logging). One write per line costs a
 * thread-pool round trip per request when requests come one at a time, as a payer's answers do
 * (bench/RESULTS.md; docs/operating.md, logs).
 */
const stdoutInChunks = () => destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 500 });

export function loggerOptions(level: string | false | undefined, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (level === false) return false;
  return {
    level: level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    stream: stream ?? stdoutInChunks(),
  };
}

export function installRequestLog(app: FastifyInstance): void {
  // A callback, not an async function: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        // The route pattern, never the raw URL: query strings could carry anything.
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        operation: request.operation ?? undefined,
        payer_id: request.payerId ?? undefined,
        key_id: request.apiKey?.id,
        error_code: request.errorCode ?? undefined,
        reason: request.errorReason ?? undefined,
      },
      'request',
    );
    done();
  });
}
