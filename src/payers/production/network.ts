/**
 * The production payer network: one connector per connection of the directory, and each payer's
 * routes through them, tried in order (failover) when a route fails as a route.
 */
import type { DirectoryConnection } from '../connections.ts';
import { resolveDirectory, type PayerDirectory, type PayerRoute, type ResolvedPayer } from '../directory.ts';
import { PayerError, type ExchangeContext, type InterchangeIds, type PayerInfo, type PayerNetwork, type RouteEnvelope, type RoutedAnswer } from '../network.ts';
import { ROUTE_FAILURE_AAA, answersAaa } from './aaa42.ts';
import { CONNECTOR_DEFAULTS, PayerConnector, type BreakerState, type ConnectorDefaults } from './connector.ts';

export interface ProductionNetworkOptions {
  /** Deadline for one exchange when the directory sets none (COVERAGE_PAYER_TIMEOUT_MS). */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  defaults?: Partial<Omit<ConnectorDefaults, 'timeoutMs'>>;
  /** Told each connection's circuit breaker state at start and at every change (metrics). */
  onBreakerState?: (connection: string, state: BreakerState) => void;
}

/** Failures of the route, not answers about the member: the next route may do better. */
const ROUTE_FAILURES = new Set<PayerError['kind']>(['failure', 'timeout', 'circuit_open', 'protocol']);

export class ProductionNetwork implements PayerNetwork {
  readonly mode = 'production' as const;
  readonly anyPayerId = null;
  private readonly payersById = new Map<string, ResolvedPayer>();
  /** Upper-cased payer IDs and aliases to the directory's payer_id. */
  private readonly ids = new Map<string, string>();
  private readonly connectors = new Map<string, PayerConnector>();
  private readonly connections = new Map<string, DirectoryConnection>();
  private readonly senderId: string;

  constructor(directory: PayerDirectory, options: ProductionNetworkOptions) {
    const env = options.env ?? process.env;
    const resolved = resolveDirectory(directory);
    const defaults: ConnectorDefaults = { ...CONNECTOR_DEFAULTS, ...options.defaults, timeoutMs: options.timeoutMs };
    this.senderId = resolved.submitter.id;
    for (const p of resolved.payers) {
      this.payersById.set(p.info.payer_id, p);
      this.ids.set(p.info.payer_id.toUpperCase(), p.info.payer_id);
      for (const a of p.aliases) this.ids.set(a.toUpperCase(), p.info.payer_id);
    }
    // A connection's own payer ID names its payer too, unless the directory gave it to another.
    for (const p of resolved.payers) for (const r of p.routes) if (!this.ids.has(r.payer_id.toUpperCase())) this.ids.set(r.payer_id.toUpperCase(), p.info.payer_id);
    for (const c of resolved.connections) {
      this.connections.set(c.name, c);
      this.connectors.set(c.name, new PayerConnector(c, defaults, env));
    }
    const onBreakerState = options.onBreakerState;
    if (onBreakerState) for (const [id, c] of this.connectors) c.onBreakerState((state) => onBreakerState(id, state));
  }

  payers(): readonly PayerInfo[] {
    return [...this.payersById.values()].map((p) => p.info);
  }

  payer(payerId: string): PayerInfo | undefined {
    return this.payersById.get(payerId)?.info;
  }

  /** The directory's payer_id for an ID or alias (any case), or undefined. */
  canonicalId(id: string): string | undefined {
    return this.ids.get(id.toUpperCase());
  }

  private envelope(route: PayerRoute): RouteEnvelope {
    const c = this.connections.get(route.connection)!;
    return { sender_id: this.senderId, receiver_id: c.receiver_id ?? route.payer_id, usage: c.test ? 'T' : 'P', payer_id: route.payer_id, connection: c.name };
  }

  /** The first route's interchange identities, as the CORE envelope around it carries them. */
  interchange(payerId: string): InterchangeIds | undefined {
    const route = this.payersById.get(payerId)?.routes[0];
    if (!route) return undefined;
    const { sender_id, receiver_id, usage } = this.envelope(route);
    return { sender_id, receiver_id, usage };
  }

  /** A connection's connector by name (for a payer of the original directory shape: its payer_id). */
  connector(name: string): PayerConnector | undefined {
    return this.connectors.get(name);
  }

  async inquire(payerId: string, build: (route: RouteEnvelope) => string, ctx: ExchangeContext): Promise<RoutedAnswer> {
    const payer = this.payersById.get(payerId);
    if (!payer) throw new PayerError('failure', payerId, 'payer is not in the directory');
    let lastAnswer: RoutedAnswer | null = null;
    let lastError: unknown = null;
    for (const [i, route] of payer.routes.entries()) {
      if (i > 0 && (Date.now() >= ctx.deadline || ctx.signal?.aborted)) break;
      const target = this.envelope(route);
      try {
        const x12 = await this.connectors.get(route.connection)!.exchange(build(target), ctx, target);
        lastAnswer = { x12, route: route.connection };
        if (!answersAaa(x12, ROUTE_FAILURE_AAA)) return lastAnswer;
      } catch (err) {
        if (!(err instanceof PayerError) || !ROUTE_FAILURES.has(err.kind)) throw err;
        lastError = err;
      }
    }
    if (lastAnswer) return lastAnswer;
    throw lastError ?? new PayerError('failure', payerId, 'no route answered');
  }

  async exchange(payerId: string, x12: string, ctx: ExchangeContext): Promise<string> {
    return (await this.inquire(payerId, () => x12, ctx)).x12;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connectors.values()].map((c) => c.close()));
  }
}
