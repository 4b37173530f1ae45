/**
 * Sends the OpenAPI document's example calls (src/http/openapi/openapi-examples.ts) to a sandbox server:
 * the recorder (scripts/record-openapi-examples.ts) stores the answers, and the test suite
 * (test/openapi/examples.test.ts) replays them. Built on the service's own runtime and fetch only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { startRuntime, type Runtime } from '../src/server/runtime.ts';
import { EXAMPLE_BATCH_BUDGET, EXAMPLE_CALLS, exampleKey, type ExampleCall } from '../src/http/openapi/openapi-examples.ts';
import { REMITTANCE_OPERATIONS } from '../src/http/openapi/openapi-remittances.ts';
import { systemClock, withReadings } from '../src/domain/clock.ts';

/** The date the examples are recorded and replayed on: calendar-year plans are mid-year. */
export const EXAMPLE_TODAY = '2026-06-15';
const EXAMPLE_KEY = 'cov_example_calls_key_000000000001';

export interface ExampleServer {
  url: string;
  runtime: Runtime;
  /** Each operation's method and path, by operationId, as the server documents them. */
  routes: ReadonlyMap<string, OperationRoute>;
  /** Told every JSON answer (the test suite holds it against the served OpenAPI document). */
  check?: (method: string, path: string, status: number, body: unknown) => void;
  close(): Promise<void>;
}

export interface OperationRoute {
  method: string;
  path: string;
}

/** Where each operation of an OpenAPI document is served: method (upper case) and path, by operationId. */
export function operationRoutes(document: unknown): ReadonlyMap<string, OperationRoute> {
  const routes = new Map<string, OperationRoute>();
  const paths = (document as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths ?? {};
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.operationId) routes.set(operation.operationId, { method: method.toUpperCase(), path });
    }
  }
  return routes;
}

const routeOf = (server: ExampleServer, call: ExampleCall): OperationRoute => {
  const route = server.routes.get(call.operation);
  if (!route) throw new Error(`${call.operation}/${call.name}: the served document has no operation ${call.operation}`);
  return route;
};

export interface ExampleAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** The sandbox the examples are recorded on and replayed against: a batch budget one example exceeds, no rate limit on the example key. */
export async function startExampleServer(): Promise<ExampleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-examples-'));
  const config = loadConfig({
    COVERAGE_DATA_DIR: dataDir,
    COVERAGE_DEV_KEY: EXAMPLE_KEY,
    PORT: '0',
    COVERAGE_BATCH_MAX_QUEUED_ROWS: String(EXAMPLE_BATCH_BUDGET),
    COVERAGE_BATCH_CREATE_PER_MINUTE: '1000',
    // Monitors make their first check at once; webhook events are queued but not sent (the examples' receiver is a documentation address).
    COVERAGE_MONITOR_POLL_MS: '50',
    COVERAGE_WEBHOOK_DELIVERY: '0',
    // No load shedding: a busy machine's event-loop lag would record (or replay) a 503 in place of the example.
    COVERAGE_MAX_EVENT_LOOP_DELAY_MS: '0',
    COVERAGE_MAX_HEAP_USED_MB: '0',
  });
  const runtime = await startRuntime(config, { clock: withReadings(systemClock, { today: () => EXAMPLE_TODAY }), logLevel: false });
  await runtime.db.kysely.updateTable('api_keys').set({ rate_limit_per_minute: 1_000_000 }).execute();
  const url = await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    runtime,
    routes: operationRoutes(runtime.app.swagger()),
    async close() {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The {id} of calls that name nothing: well formed, and no batch's, monitor's or webhook's. */
const UNKNOWN_BATCH = 'bat_000000000000000000000000';
const UNKNOWN_ID: Record<string, string> = { '/v1/monitors': 'mon_000000000000000000000000', '/v1/webhooks': 'wh_000000000000000000000000' };
const UNKNOWN_DELIVERY = 'msg_00000000000000000000000000000000';
const UNKNOWN_REMITTANCE = 'rem_000000000000000000000000';

async function request(server: ExampleServer, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<ExampleAnswer> {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* a CSV answer stays text */
  }
  if (typeof parsed !== 'string' || headers.accept === undefined) server.check?.(method, path, res.status, parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}

async function waitForBatch(server: ExampleServer, id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${server.url}/v1/batches/${id}`, { headers: { apikey: EXAMPLE_KEY } });
    const progress = (await res.json()) as { status?: string; done?: number; total?: number };
    if (progress.status === 'completed') return;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${progress.status}: ${progress.done} of ${progress.total} done`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function waitForMonitor(server: ExampleServer, id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${server.url}/v1/monitors/${id}`, { headers: { apikey: EXAMPLE_KEY } });
    const monitor = (await res.json()) as { checks?: number };
    if ((monitor.checks ?? 0) >= 1) return;
    if (Date.now() > deadline) throw new Error(`monitor ${id} not checked yet`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The path of a monitor or webhook call: made by the create example it names (a webhook sent a test event when the call wants a delivery). */
async function monitoringPathOf(server: ExampleServer, call: ExampleCall, path: string): Promise<string> {
  const prefix = Object.keys(UNKNOWN_ID).find((p) => path.startsWith(p))!;
  const made = call.monitor ?? call.webhook;
  if (!made) return path.replace('{id}', UNKNOWN_ID[prefix]!).replace('{delivery_id}', UNKNOWN_DELIVERY);
  const operation = call.monitor ? 'createMonitor' : 'createWebhook';
  const create = EXAMPLE_CALLS.find((c) => c.operation === operation && c.name === made);
  if (!create) throw new Error(`${call.operation}/${call.name}: no ${operation} example named ${made}`);
  const id = (await sendExampleCall(server, create)).body.id as string;
  let delivery = UNKNOWN_DELIVERY;
  if (call.delivery) {
    const res = await fetch(`${server.url}/v1/webhooks/${id}/test`, { method: 'POST', headers: { apikey: EXAMPLE_KEY } });
    delivery = ((await res.json()) as { delivery: { id: string } }).delivery.id;
  }
  return path.replace('{id}', id).replace('{delivery_id}', delivery);
}

const exampleNamed = (call: ExampleCall, operation: string, name: string): ExampleCall => {
  const found = EXAMPLE_CALLS.find((c) => c.operation === operation && c.name === name);
  if (!found) throw new Error(`${exampleKey(call)}: no ${operation} example named ${name}`);
  return found;
};

const isRemittanceCall = (call: ExampleCall) => (REMITTANCE_OPERATIONS as readonly string[]).includes(call.operation);

/**
 * A remittance call is sent by a key of its own (a practice's first remittances), after what it names:
 * its estimate, or the createRemittance examples (each after its estimate). What the 835 matches and
 * the accuracy report counts is then only what the example sent, whatever ran before it.
 */
async function prepareRemittanceCall(server: ExampleServer, call: ExampleCall): Promise<{ apikey: string; remittanceId: string }> {
  const { secret } = await server.runtime.keys.create({ name: `example ${exampleKey(call)}`, env: 'sandbox' });
  const estimate = async (c: ExampleCall) => {
    if (c.estimate) await sendAs(server, exampleNamed(c, 'estimate', c.estimate), secret, await pathOf(server, exampleNamed(c, 'estimate', c.estimate)));
  };
  await estimate(call);
  let remittanceId = UNKNOWN_REMITTANCE;
  for (const name of call.remittances ?? []) {
    const create = exampleNamed(call, 'createRemittance', name);
    await estimate(create);
    const created = await sendAs(server, create, secret, routeOf(server, create).path + (create.query ?? ''));
    if (created.status !== 201) throw new Error(`${exampleKey(call)}: ${exampleKey(create)} answered ${created.status}`);
    remittanceId = created.body.id;
  }
  return { apikey: secret, remittanceId };
}

async function pathOf(server: ExampleServer, call: ExampleCall): Promise<string> {
  const { path } = routeOf(server, call);
  if (path.startsWith('/v1/monitors') || path.startsWith('/v1/webhooks')) return (await monitoringPathOf(server, call, path)) + (call.query ?? '');
  if (path.startsWith('/v1/payers')) return path.replace('{id}', encodeURIComponent(call.payer ?? 'NO-SUCH-PAYER')) + (call.query ?? '');
  if (!path.includes('{id}')) return path;
  if (!call.batch) return path.replace('{id}', UNKNOWN_BATCH);
  const create = EXAMPLE_CALLS.find((c) => c.operation === 'createBatch' && c.name === call.batch);
  if (!create) throw new Error(`${call.operation}/${call.name}: no createBatch example named ${call.batch}`);
  const created = await sendExampleCall(server, create);
  return path.replace('{id}', created.body.id);
}

export async function sendExampleCall(server: ExampleServer, call: ExampleCall): Promise<ExampleAnswer> {
  const answer = await sendCall(server, call);
  // A queued batch is read, and the next call sent, once every row has its result.
  if (call.operation === 'createBatch' && answer.status === 202) await waitForBatch(server, answer.body.id);
  // A monitor is read once its first check is made.
  if (call.operation === 'createMonitor' && answer.status === 201) await waitForMonitor(server, answer.body.id);
  return answer;
}

async function sendCall(server: ExampleServer, call: ExampleCall): Promise<ExampleAnswer> {
  if (!isRemittanceCall(call)) return sendAs(server, call, EXAMPLE_KEY, await pathOf(server, call));
  const { apikey, remittanceId } = await prepareRemittanceCall(server, call);
  return sendAs(server, call, apikey, routeOf(server, call).path.replace('{id}', remittanceId) + (call.query ?? ''));
}

async function sendAs(server: ExampleServer, call: ExampleCall, key: string, path: string): Promise<ExampleAnswer> {
  const { method } = routeOf(server, call);
  const send = (body: unknown, headers: Record<string, string> = {}, apikey: string | null = key) =>
    request(server, method, path, method === 'GET' ? undefined : body, { ...(apikey ? { apikey } : {}), ...headers });
  if (call.csv !== undefined) return send(call.csv, { 'content-type': 'text/csv' });
  if (call.x12 !== undefined) {
    const type = { 'content-type': call.send === 'as_text' ? 'text/plain' : 'application/edi-x12' };
    if (call.send === 'without_key') return send(call.x12, type, null);
    // Past the route's body limit of 5 MiB: the file followed by 6,000,000 spaces.
    if (call.send === 'oversized') return send(call.x12 + ' '.repeat(6_000_000), type);
    return send(call.x12, type);
  }
  if (call.accept) return send(undefined, { accept: call.accept });
  switch (call.send) {
    case 'without_key':
      return send(call.body, {}, null);
    case 'as_text':
      return send(JSON.stringify(call.body), { 'content-type': 'text/plain' });
    case 'oversized':
      // Past the route's body limit: 64 KiB, or 8 MiB for a batch.
      return send({ ...call.body, member_first_name: 'A'.repeat(call.operation === 'createBatch' ? 9_000_000 : 70_000) });
    case 'past_rate_limit': {
      const { secret } = await server.runtime.keys.create({ name: `example ${call.operation} rate limit`, env: 'sandbox', rate_limit_per_minute: 1 });
      await send(call.body, {}, secret);
      return send(call.body, {}, secret);
    }
    case 'past_route_limit': {
      // A route's own per-key limit (bulk monitors, payer searches): sent with a fresh key until refused.
      const { secret } = await server.runtime.keys.create({ name: `example ${call.operation} route limit`, env: 'sandbox' });
      for (let i = 0; i < 1_000; i++) {
        const answer = await send(call.body, {}, secret);
        if (answer.status === 429) return answer;
      }
      throw new Error(`${call.operation}/${call.name}: no 429 after 1,000 calls`);
    }
    default:
      return send(call.body);
  }
}

const BATCH_ID = /\bbat_[0-9a-f]{24}\b/g;
/** An OperationOutcome's diagnostics name the request (routes/fhir.ts). */
const FHIR_REQUEST_ID = /\brequest_id [0-9a-f-]{36}\b/g;
/** A countdown, in any string (an OperationOutcome's diagnostics too): 'retry in 7 seconds' or, a moment earlier, 'retry in 1 minute'. */
const COUNTDOWN = /retry in \d+ (?:seconds?|minutes?)/g;
const MONITORING_IDS: [RegExp, string][] = [
  [/\bmon_[0-9a-f]{24}(\.\d+)?/g, '<monitor id>'],
  [/\bwh_[0-9a-f]{24}\b/g, '<webhook id>'],
  [/\bmsg_[A-Za-z0-9_-]{32}/g, '<delivery id>'],
  [/^whsec_[A-Za-z0-9+/]+=*$/, '<secret>'],
];
const INSTANTS = new Set(['created_at', 'completed_at', 'next_check_at', 'at', 'last_attempt_at', 'next_attempt_at']);
const REMITTANCE_ID = /\brem_[0-9a-f]{24}\b/g;
/** Named by the run: the estimate a remittance line matched is a request id; an accuracy week is the wall clock's. */
const RUN_NAMED: Record<string, string> = { estimate_id: '<estimate id>', week: '<week>' };

/** A batch, monitor or webhook gets a new id and new times on every run (monitors and deliveries keep the wall clock). */
function withoutRunDetails(value: unknown): unknown {
  if (typeof value === 'string') {
    const named = value.replace(BATCH_ID, '<batch id>').replace(FHIR_REQUEST_ID, 'request_id <request id>').replace(COUNTDOWN, 'retry in <time>');
    return MONITORING_IDS.reduce((s, [re, name]) => s.replace(re, name), named.replace(REMITTANCE_ID, '<remittance id>'));
  }
  if (Array.isArray(value)) return value.map(withoutRunDetails);
  if (typeof value !== 'object' || value === null) return value;
  const named = (k: string) => (INSTANTS.has(k) ? '<time>' : RUN_NAMED[k]);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && named(k) !== undefined ? named(k) : withoutRunDetails(v)]));
}

/** The error_code of an answer: ours, or, in an OperationOutcome (the FHIR door), its first issue's. */
export function errorCodeOf(body: unknown): string | null {
  const b = body as { error_code?: unknown; resourceType?: unknown; issue?: { details?: { coding?: { code?: unknown }[] } }[] } | null;
  if (typeof b?.error_code === 'string') return b.error_code;
  const code = b?.resourceType === 'OperationOutcome' ? b.issue?.[0]?.details?.coding?.[0]?.code : undefined;
  return typeof code === 'string' ? code : null;
}

/** An answer as the replay compares it: the request id differs on every call, and so may a countdown and a batch's id and times. */
export function comparable(body: unknown): unknown {
  const copy = withoutRunDetails(body);
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return copy;
  const top = copy as Record<string, unknown>;
  if ('request_id' in top) top.request_id = '<request id>';
  return top;
}
