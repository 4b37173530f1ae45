/** One HTTP POST through a payer's undici Pool, with the body size capped and errors classified. */
import type { Pool } from 'undici';
import { PayerError } from '../network.ts';
import { ConnectionFailure, connectionCode } from './errors.ts';

export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export interface HttpAnswer {
  status: number;
  contentType: string;
  retryAfter: string | null;
  body: Buffer;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;

export async function post(pool: Pool, payerId: string, path: string, body: string | Buffer, contentType: string, signal: AbortSignal): Promise<HttpAnswer> {
  try {
    const res = await pool.request({ method: 'POST', path, headers: { 'content-type': contentType, accept: '*/*' }, body, signal });
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
