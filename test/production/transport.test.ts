/**
 * The payer transport (src/payers/production/transport.ts) reads answers through the pool's dispatch;
 * checked here against the undici request() reading it replaced, on random answers from a local
 * server: statuses, repeated and odd-case headers, bodies in chunks, over the size cap, cut short.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { Pool } from 'undici';
import { PayerError } from '../../src/payers/network.ts';
import { ConnectionFailure, connectionCode } from '../../src/payers/production/errors.ts';
import { request, type HttpAnswer, type HttpCall } from '../../src/payers/production/transport.ts';

/** The reading before: undici's request() and its body stream, as transport.ts had it. */
async function requestBefore(pool: Pool, payerId: string, call: HttpCall, signal: AbortSignal, maxBytes: number): Promise<HttpAnswer> {
  const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  try {
    const res = await pool.request({ method: call.method, path: call.path, headers: { accept: '*/*', ...call.headers }, body: call.body ?? null, signal });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new PayerError('protocol', payerId, `answer larger than ${maxBytes} bytes`);
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

interface Answer {
  status: number;
  headers: [string, string][];
  chunks: string[];
  cut: boolean;
}
const answers = new Map<string, Answer>();
const server = createServer((req, res: ServerResponse) => {
  req.resume();
  req.on('end', () => {
    const a = answers.get(req.url!)!;
    const flat: string[] = [];
    for (const [k, v] of a.headers) flat.push(k, v);
    res.writeHead(a.status, flat);
    for (const c of a.chunks) res.write(c);
    if (a.cut) res.socket?.destroy();
    else res.end();
  });
});
let pool: Pool;
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 4 });
});
after(async () => {
  await pool.destroy();
  server.close();
});

const outcome = async (read: () => Promise<HttpAnswer>) => {
  try {
    const a = await read();
    return { ok: { ...a, body: a.body.toString('latin1') } };
  } catch (err) {
    return { error: `${(err as Error).constructor.name} ${(err as PayerError).kind} ${(err as PayerError).reason}` };
  }
};

const headerName = fc.constantFrom('Content-Type', 'content-type', 'CONTENT-TYPE', 'Retry-After', 'retry-after', 'Location', 'X-Other', 'Set-Cookie');
const headerValue = fc
  .string({ unit: fc.constantFrom('a', 'b', '/', ';', '=', ' ', '1', '0', 'é', 'x'), minLength: 1, maxLength: 20 })
  .map((s) => s.trim() || 'v');

test('dispatch reads every answer as request() did: status, the first of each header, the body, the cap and cut answers', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        status: fc.constantFrom(200, 201, 204, 400, 404, 429, 500, 503),
        headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
        chunks: fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }),
        cut: fc.boolean(),
        maxBytes: fc.constantFrom(10, 60, 1000),
      }),
      async (a) => {
        const path = `/a${n++}`;
        const status = a.status === 204 ? 200 : a.status;
        answers.set(path, { ...a, status });
        const call: HttpCall = { method: 'POST', path, headers: { 'content-type': 'text/plain' }, body: 'x' };
        const signal = new AbortController().signal;
        const before = await outcome(() => requestBefore(pool, 'P', call, signal, a.maxBytes));
        const now = await outcome(() => request(pool, 'P', call, signal, a.maxBytes));
        assert.deepStrictEqual(now, before);
      },
    ),
    { numRuns: 300 },
  );
});

test('an aborted signal is a timeout, before the exchange and during it', async () => {
  answers.set('/slow', { status: 200, headers: [], chunks: ['x'], cut: false });
  const aborted = AbortSignal.abort();
  await assert.rejects(request(pool, 'P', { method: 'GET', path: '/slow' }, aborted), (e: PayerError) => e.kind === 'timeout');
  const never = createServer(() => undefined);
  await new Promise<void>((r) => never.listen(0, '127.0.0.1', () => r()));
  const stuck = new Pool(`http://127.0.0.1:${(never.address() as AddressInfo).port}`);
  const c = new AbortController();
  const pending = request(stuck, 'P', { method: 'GET', path: '/' }, c.signal);
  setImmediate(() => c.abort());
  await assert.rejects(pending, (e: PayerError) => e.kind === 'timeout' && e.reason === 'no answer before the deadline');
  await stuck.destroy();
  never.closeAllConnections();
  never.close();
});
