/** One HTTP request through a connection's undici Pool, with the body size capped and errors classified. */
import type { Pool } from 'undici';
import { PayerError } from '../network.ts';
import { ConnectionFailure, connectionCode } from './errors.ts';

export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export interface HttpAnswer {
  status: number;
  contentType: string;
  retryAfter: string | null;
  location: string | null;
  body: Buffer;
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** The first content-type, retry-after and location values (names are lowercase), as undici's request() reads them; one pass. */
export function answerHeaders(raw: Buffer[]): { contentType: string; retryAfter: string | null; location: string | null } {
  let contentType: string | null = null;
  let retryAfter: string | null = null;
  let location: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    // Only names of these lengths can match: no string is made of any other header's name.
    const n = key.length;
    if (n !== 12 && n !== 11 && n !== 8) continue;
    const name = key.toString('latin1').toLowerCase();
    if (name === 'content-type') contentType ??= raw[i + 1]!.toString('latin1');
    else if (name === 'retry-after') retryAfter ??= raw[i + 1]!.toString('latin1');
    else if (name === 'location') location ??= raw[i + 1]!.toString('latin1');
  }
  return { contentType: contentType ?? '', retryAfter, location };
}

/**
 * The exchange through the pool's dispatch with a handler that keeps the chunks: no response stream
 * and no async iteration per answer (undici's request() builds both), the same answer and errors.
 */
function dispatch(pool: Pool, call: HttpCall, signal: AbortSignal, maxBytes: number, tooLarge: () => Error) {
  return new Promise<HttpAnswer>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    let abortRequest: ((err: Error) => void) | null = null;
    let failed: Error | null = null;
    let status = 0;
    let rawHeaders: Buffer[] = [];
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      failed ??= (signal.reason as Error) ?? new Error('aborted');
      abortRequest?.(failed);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (err: Error | null) => {
      signal.removeEventListener('abort', onAbort);
      if (err) return reject(err);
      const { contentType, retryAfter, location } = answerHeaders(rawHeaders);
      resolve({ status, contentType, retryAfter, location, body: Buffer.concat(chunks, size) });
    };
    pool.dispatch(
      { method: call.method, path: call.path, headers: { accept: '*/*', ...call.headers }, body: call.body ?? null },
      {
        onConnect(abort: (err: Error) => void) {
          if (failed) abort(failed);
          else abortRequest = abort;
        },
        onHeaders(statusCode: number, headers: Buffer[]) {
          // An informational answer (1xx) is not the answer, as request() skips it.
          if (statusCode < 200) return true;
          status = statusCode;
          rawHeaders = headers;
          return true;
        },
        onData(chunk: Buffer) {
          size += chunk.length;
          if (size > maxBytes) {
            failed ??= tooLarge();
            abortRequest?.(failed);
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          settle(null);
        },
        onError(err: Error) {
          settle(err);
        },
      },
    );
  });
}

export async function request(pool: Pool, payerId: string, call: HttpCall, signal: AbortSignal, maxBytes = MAX_ANSWER_BYTES): Promise<HttpAnswer> {
  try {
    return await dispatch(pool, call, signal, maxBytes, () => new PayerError('protocol', payerId, `answer larger than ${maxBytes} bytes`));
  } catch (err) {
    if (err instanceof PayerError) throw err;
    if (signal.aborted) throw new PayerError('timeout', payerId, 'no answer before the deadline');
    const code = connectionCode(err);
    if (code) throw new ConnectionFailure(payerId, code);
    const name = (err as { code?: string; name?: string }).code ?? (err as Error).name ?? 'error';
    throw new PayerError('failure', payerId, `HTTP exchange failed (${name})`);
  }
}

export function post(pool: Pool, payerId: string, path: string, body: string | Buffer, contentType: string, signal: AbortSignal): Promise<HttpAnswer> {
  return request(pool, payerId, { method: 'POST', path, headers: { 'content-type': contentType }, body }, signal);
}

/** 429/503 are the far end asking us to slow down; other failures are failures. */
export function httpFailure(payerId: string, answer: HttpAnswer): PayerError {
  if (answer.status === 429 || answer.status === 503) {
    const seconds = Number(answer.retryAfter);
    return new PayerError('throttled', payerId, `HTTP ${answer.status}`, Number.isFinite(seconds) && seconds > 0 ? seconds : 60);
  }
  return new PayerError('failure', payerId, `HTTP ${answer.status}`);
}

/** A JSON body, or null when it is not one. */
export function jsonBody(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return null;
  }
}
