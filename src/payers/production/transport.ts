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

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;

export async function request(pool: Pool, payerId: string, call: HttpCall, signal: AbortSignal): Promise<HttpAnswer> {
  try {
    const res = await pool.request({ method: call.method, path: call.path, headers: { accept: '*/*', ...call.headers }, body: call.body ?? null, signal });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw new PayerError('protocol', payerId, `answer larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return {
      status: res.statusCode,
      contentType: header(res.headers['content-type']) ?? '',
      retryAfter: header(res.headers['retry-after']),
      location: header(res.headers.location),
      body: Buffer.concat(chunks),
    };
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
