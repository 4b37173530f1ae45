/** What the reliability suites send and check: raw requests, and "still healthy and still right". */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { TEST_KEY, type TestServer } from '../helpers/server.ts';

export const VALID: Record<string, Record<string, unknown>> = {
  '/v1/estimate': {
    member_id: '10010MHNA',
    member_first_name: 'Avery',
    member_last_name: 'Walsh',
    member_dob: '1988-03-14',
    payer_id: 'SBX-EVERGREEN',
    provider_npi: '1234567893',
    provider_session_cost: '15000',
    in_network: true,
  },
  '/v1/discover': { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001', payer_id: 'SBX-EVERGREEN' },
  '/v1/scan': { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' },
  '/v1/medicaid': { member_id: '10070MHOMCD', member_first_name: 'Luis', member_last_name: 'Herrera', member_dob: '1999-11-11', patient_state: 'NY' },
};
export const ENDPOINTS = Object.keys(VALID);

export interface Answer {
  status: number;
  text: string;
  body: unknown;
}

/** The suites send more checks than a minute's default quota; rate limits have their own tests. */
export async function liftRateLimit(server: TestServer): Promise<void> {
  await server.runtime.db.kysely.updateTable('api_keys').set({ rate_limit_per_minute: 1_000_000 }).execute();
}

/** POSTs bytes as they are: any content type (or none), any text. */
export async function send(server: TestServer, path: string, body: string, contentType: string | null = 'application/json'): Promise<Answer> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { apikey: TEST_KEY, ...(contentType === null ? {} : { 'content-type': contentType }) },
    body,
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* checked by the caller */
  }
  return { status: res.status, text, body: parsed };
}

/** No 5xx; every 4xx (and every other non-2xx) in the service's error shape. */
export function assertWellFormed(answer: Answer, what: string): void {
  assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.status >= 300) {
    const b = answer.body as { error_code?: unknown; message?: unknown; request_id?: unknown } | undefined;
    assert.equal(typeof b?.error_code, 'string', `${what}: ${answer.status} without an error_code: ${answer.text.slice(0, 300)}`);
    assert.equal(typeof b?.message, 'string', `${what}: no message`);
    assert.equal(typeof b?.request_id, 'string', `${what}: no request_id`);
  }
}

/** /healthz answers, and a known sandbox member still gets the known obligation. */
export async function assertHealthy(server: TestServer): Promise<void> {
  const health = await fetch(`${server.url}/healthz`);
  assert.equal(health.status, 200);
  await health.arrayBuffer();
  const known = await send(server, '/v1/estimate', JSON.stringify(VALID['/v1/estimate']));
  assert.equal(known.status, 200, known.text);
  const b = known.body as { member_obligation: number; payer_obligation: number; copayment: number };
  assert.deepEqual([b.copayment, b.member_obligation, b.payer_obligation], [3000, 3000, 12000]);
}

/** A raw TCP client, for what fetch will not send: dribbled bytes, lying lengths, oversized headers. */
export class RawClient {
  readonly socket: Socket;
  private received = '';
  readonly closed: Promise<string>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.on('data', (d: Buffer) => (this.received += d.toString('latin1')));
    // The server may reset a socket it gave up on; what was received until then still counts.
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(this.received)));
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readyState === 'closed';
  }

  write(data: string | Buffer): void {
    if (!this.isClosed) this.socket.write(data);
  }

  /** Sends `data` one byte every `everyMs`; stops early, returning how many bytes were sent, once the server closes. */
  async dribble(data: string, everyMs: number): Promise<number> {
    let closed = false;
    void this.closed.then(() => (closed = true));
    for (let i = 0; i < data.length; i++) {
      if (closed) return i;
      this.write(data[i]!);
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return data.length;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The status line and JSON body of a raw HTTP/1.1 answer. */
export function parseRaw(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? NaN);
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, body };
}
