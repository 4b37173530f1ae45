/**
 * Slow and broken clients. A client must deliver a whole request (headers and body) within
 * requestTimeoutMs or it gets a 408 and the connection is closed, so a client dribbling bytes
 * cannot hold a socket. Node checks these deadlines on a timer (every 30 s by default); it runs
 * more often here so the limit holds within a fraction of itself. The time the service takes to
 * answer does not count: a 25-second scan is not cut short.
 *
 * Errors found before a request reaches Fastify (timeouts, oversized headers, unparseable HTTP)
 * are answered in the service's one error shape, like every other non-2xx.
 */
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import type { ErrorCode } from '../domain/errors.ts';
import { newRequestId } from './request-id.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'INVALID_REQUEST', 'The request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'PAYLOAD_TOO_LARGE', 'The request headers are too large']
        : [400, 'INVALID_REQUEST', 'The request is not valid HTTP'];
  const body = JSON.stringify({ error_code: code, message, request_id: newRequestId() });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export interface ClientLimitOptions extends Pick<FastifyServerOptions, 'connectionTimeout' | 'requestTimeout' | 'clientErrorHandler'> {
  /** Passed to http.createServer by Fastify. */
  http: ServerOptions;
}

export function clientLimits(requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): ClientLimitOptions {
  return {
    // Idle sockets: at least as long as the longest answer (the scan deadline), or slow answers would be cut.
    connectionTimeout: Math.max(30_000, requestTimeoutMs),
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
    },
    clientErrorHandler,
  };
}
