/**
 * Prometheus metrics on GET /metrics: requests by route and status, payer latency, circuit
 * breaker states and cache lookups. One registry per Metrics, so several apps in one process
 * (tests) do not collide. Lower layers never import this: they are handed its functions.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
// For the `hide` schema keyword's type: /metrics stays out of the OpenAPI document.
import type {} from '@fastify/swagger';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BreakerState } from '../payers/production/connector.ts';
import { HttpErrors } from './errors.ts';

const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'route'>;
  private readonly payerSeconds: Histogram<'payer_id' | 'outcome'>;
  private readonly breaker: Gauge<'connection'>;
  private readonly cacheLookups: Counter<'cache' | 'result'>;
  private readonly remittanceLines: Counter<'payer_id' | 'verdict'>;

  /** processMetrics: CPU, memory, event loop lag and GC, for the one Metrics a server process has. */
  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'coverage_http_requests_total',
      help: 'HTTP requests by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'coverage_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.payerSeconds = new Histogram({
      name: 'coverage_payer_request_duration_seconds',
      help: 'One 270/271 exchange with a payer, by payer and outcome (ok, or the failure kind)',
      labelNames: ['payer_id', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.breaker = new Gauge({
      name: 'coverage_payer_breaker_state',
      help: 'Circuit breaker per connection of the payer directory (each route goes through one): 0 closed, 1 half-open, 2 open',
      labelNames: ['connection'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'coverage_cache_lookups_total',
      help: 'Coverage cache lookups by cache and result (hit or miss)',
      labelNames: ['cache', 'result'],
      registers,
    });
    this.remittanceLines = new Counter({
      name: 'coverage_remittance_lines_total',
      help: 'Remittance service lines compared with their estimate, by payer and verdict (docs/remittances.md)',
      labelNames: ['payer_id', 'verdict'],
      registers,
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  // Label children per (method, route, status): prom-client would otherwise hash the labels on every request.
  private readonly requestChildren = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const id = `${method} ${status} ${route}`;
    let child = this.requestChildren.get(id);
    if (!child) {
      child = { count: this.requests.labels({ method, route, status: String(status) }), time: this.requestSeconds.labels({ route }) };
      this.requestChildren.set(id, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }

  /** Matches OperationDeps.onPayerCall. */
  readonly onPayerCall = (payerId: string, ms: number, outcome: string): void => {
    this.payerSeconds.observe({ payer_id: payerId, outcome }, ms / 1000);
  };

  /** The breaker guards a connection (a clearinghouse account or a CORE endpoint), shared by every payer routed through it. */
  setBreakerState(connection: string, state: BreakerState): void {
    this.breaker.set({ connection }, BREAKER_VALUES[state]);
  }

  /** Matches RemittanceRouteOptions.onVerdict. */
  readonly onRemittanceVerdict = (payerId: string, verdict: string): void => {
    this.remittanceLines.inc({ payer_id: payerId, verdict });
  };

  recordCacheLookup(cache: string, hit: boolean): void {
    this.cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** Constant-time comparison of the scraper's bearer token: the answer's timing says nothing of the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  const given = createHash('sha256')
    .update(header ?? '')
    .digest();
  return timingSafeEqual(expected, given);
}

export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string | null = null): void {
  // A callback, not an async function: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: bounded label values, and nothing a caller typed.
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== null && !bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw HttpErrors.metricsToken();
    }
    reply.type(metrics.registry.contentType);
    return metrics.render();
  });
}
