/** Sends the OpenAPI document's example calls (src/http/openapi-examples.ts) to a test server. */
import { EXAMPLE_BATCH_BUDGET, EXAMPLE_CALLS, OPERATION_ROUTES, type ExampleCall } from '../../src/http/openapi-examples.ts';
import { waitForBatch } from '../batch/helpers.ts';
import { checkerForServer } from './openapi-check.ts';
import { startTestServer, TEST_KEY, type TestServer } from './server.ts';

export interface ExampleAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** The server the examples are recorded on and replayed against. */
export const startExampleServer = () => startTestServer({ env: { COVERAGE_BATCH_MAX_QUEUED_ROWS: String(EXAMPLE_BATCH_BUDGET) } });

/** The {id} of calls that name no batch: well formed, and no batch's. */
const UNKNOWN_BATCH = 'bat_000000000000000000000000';

async function pathOf(server: TestServer, call: ExampleCall): Promise<string> {
  const { path } = OPERATION_ROUTES[call.operation];
  if (!path.includes('{id}')) return path;
  if (!call.batch) return path.replace('{id}', UNKNOWN_BATCH);
  const create = EXAMPLE_CALLS.find((c) => c.operation === 'createBatch' && c.name === call.batch);
  if (!create) throw new Error(`${call.operation}/${call.name}: no createBatch example named ${call.batch}`);
  const created = await sendExampleCall(server, create);
  return path.replace('{id}', created.body.id);
}

export async function sendExampleCall(server: TestServer, call: ExampleCall): Promise<ExampleAnswer> {
  const answer = await sendCall(server, call);
  // A queued batch is read, and the next call sent, once every row has its result.
  if (call.operation === 'createBatch' && answer.status === 202) await waitForBatch(server.url, TEST_KEY, answer.body.id);
  return answer;
}

async function sendCall(server: TestServer, call: ExampleCall): Promise<ExampleAnswer> {
  const { method } = OPERATION_ROUTES[call.operation];
  const path = await pathOf(server, call);
  const send = (body: unknown, headers?: Record<string, string>) => (method === 'GET' ? server.get(path, headers) : server.post(path, body, headers));
  if (call.csv !== undefined) return send(call.csv, { 'content-type': 'text/csv' });
  if (call.accept) {
    // Not JSON: the suite's checked get() would hold it against the JSON schema.
    const res = await fetch(server.url + path, { headers: { apikey: TEST_KEY, accept: call.accept } });
    return { status: res.status, body: await res.text(), headers: res.headers };
  }
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
      // Past the route's body limit: 64 KiB, or 8 MiB for a batch.
      return send({ ...call.body, member_first_name: 'A'.repeat(call.operation === 'createBatch' ? 9_000_000 : 70_000) });
    case 'past_rate_limit': {
      const { secret } = await server.runtime.keys.create({ name: `example ${call.operation} rate limit`, env: 'sandbox', rate_limit_per_minute: 1 });
      await send(call.body, { apikey: secret });
      return send(call.body, { apikey: secret });
    }
    default:
      return send(call.body);
  }
}

const BATCH_ID = /\bbat_[0-9a-f]{24}\b/g;
const INSTANTS = new Set(['created_at', 'completed_at']);

/** A batch gets a new id and new times on every run. */
function withoutRunDetails(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(BATCH_ID, '<batch id>');
  if (Array.isArray(value)) return value.map(withoutRunDetails);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, INSTANTS.has(k) && typeof v === 'string' ? '<time>' : withoutRunDetails(v)]));
}

/** An answer as the replay compares it: the request id differs on every call, and so may a countdown and a batch's id and times. */
export function comparable(body: unknown): unknown {
  const copy = withoutRunDetails(body);
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return copy;
  const top = copy as Record<string, unknown>;
  if ('request_id' in top) top.request_id = '<request id>';
  if (typeof top.message === 'string') top.message = top.message.replace(/retry in \d+ seconds/, 'retry in <n> seconds');
  return top;
}
