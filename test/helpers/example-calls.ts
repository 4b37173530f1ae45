/** Sends the OpenAPI document's example calls (src/http/openapi-examples.ts) to a test server. */
import { OPERATION_ROUTES, type ExampleCall } from '../../src/http/openapi-examples.ts';
import { checkerForServer } from './openapi-check.ts';
import type { TestServer } from './server.ts';

export interface ExampleAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export async function sendExampleCall(server: TestServer, call: ExampleCall): Promise<ExampleAnswer> {
  const { method, path } = OPERATION_ROUTES[call.operation];
  const send = (body: unknown, headers?: Record<string, string>) => (method === 'GET' ? server.get(path, headers) : server.post(path, body, headers));
  switch (call.send) {
    case 'without_key': {
      const res = await fetch(server.url + path, {
        method,
        ...(call.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) } : {}),
      });
      const body = (await res.json()) as unknown;
      (await checkerForServer(server.url)).check(method, path, res.status, body);
      return { status: res.status, body, headers: res.headers };
    }
    case 'as_text':
      return send(JSON.stringify(call.body), { 'content-type': 'text/plain' });
    case 'oversized':
      return send({ ...call.body, member_first_name: 'A'.repeat(70_000) });
    case 'past_rate_limit': {
      const { secret } = await server.runtime.keys.create({ name: `example ${call.operation} rate limit`, env: 'sandbox', rate_limit_per_minute: 1 });
      await send(call.body, { apikey: secret });
      return send(call.body, { apikey: secret });
    }
    default:
      return send(call.body);
  }
}

/** An answer as the replay compares it: the request id differs on every call, and so may a countdown. */
export function comparable(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if ('request_id' in copy) copy.request_id = '<request id>';
  if (typeof copy.message === 'string') copy.message = copy.message.replace(/retry in \d+ seconds/, 'retry in <n> seconds');
  return copy;
}
