/**
 * The production payer network: one connector per connection of the directory, and each payer's
 * routes through them, tried in order (failover) when a route fails as a route.
 */
import { effectiveEligibility, PayerIdIndex, type Eligibility } from '../../domain/payer-ids.ts';
import { DEFAULT_SERVICE_TYPES, type DirectoryConnection } from '../connections.ts';
import { resolveDirectory, type PayerDirectory, type PayerRoute, type ResolvedDirectory, type ResolvedPayer } from '../directory.ts';
import {
  PayerError,
  type CatalogEntry,
  type ExchangeContext,
  type InterchangeIds,
  type PayerInfo,
  type PayerNetwork,
  type ProviderName,
  type RouteEnvelope,
  type RoutedAnswer,
} from '../network.ts';
import { systemClock, type Clock } from '../../domain/clock.ts';
import { ROUTE_FAILURE_AAA, answersAaa } from './aaa42.ts';
import { CONNECTOR_DEFAULTS, PayerConnector, type BreakerState, type ConnectorDefaults } from './connector.ts';

export interface ProductionNetworkOptions {
  /** Deadline for one exchange when the directory sets none (COVERAGE_PAYER_TIMEOUT_MS). */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  defaults?: Partial<Omit<ConnectorDefaults, 'timeoutMs'>>;
  /** Told each connection's circuit breaker state at start and at every change (metrics). */
  onBreakerState?: (connection: string, state: BreakerState) => void;
  /** The connections' clock (token lifetimes, breaker periods, waits between polls); the system's by default. */
  clock?: Clock;
}

/** Failures of the route, not answers about the member: the next route may do better. */
const ROUTE_FAILURES = new Set<PayerError['kind']>(['failure', 'timeout', 'circuit_open', 'protocol']);

/** The routes an inquiry goes through, in order: those the catalog marks not_supported are left out. */
const triedRoutes = (payer: ResolvedPayer) => payer.routes.filter((r) => r.eligibility !== 'not_supported');

/**
 * A payer's eligibility from its routes, a route the catalog says nothing of (the directory's)
 * counting as supported; undefined when the catalog says nothing.
 */
function routedEligibility(routes: readonly { eligibility?: Eligibility }[]): Eligibility | undefined {
  if (!routes.some((r) => r.eligibility !== undefined)) return undefined;
  return effectiveEligibility(routes.map((r) => r.eligibility ?? 'supported'));
}

export class ProductionNetwork implements PayerNetwork {
  readonly mode = 'production' as const;
  readonly anyPayerId = null;
  private readonly payersById = new Map<string, ResolvedPayer>();
  /** Payer IDs, aliases and route payer IDs (any case) to the directory's payer_id. */
  private readonly ids = new PayerIdIndex();
  private readonly connectors = new Map<string, PayerConnector>();
  private readonly connections = new Map<string, DirectoryConnection>();
  private readonly senderId: string;
  private readonly submitterName: string | null;
  private readonly providers: ResolvedDirectory['providers'];
  private readonly clock: Clock;

  constructor(directory: PayerDirectory, options: ProductionNetworkOptions) {
    this.clock = options.clock ?? systemClock;
    const env = options.env ?? process.env;
    const resolved = resolveDirectory(directory);
    const defaults: ConnectorDefaults = { ...CONNECTOR_DEFAULTS, ...options.defaults, timeoutMs: options.timeoutMs };
    this.senderId = resolved.submitter.id;
    this.submitterName = resolved.submitter.name;
    this.providers = resolved.providers;
    for (const p of resolved.payers) {
      this.payersById.set(p.info.payer_id, p);
      this.ids.add(p.info.payer_id, p.info.payer_id);
      for (const a of p.aliases) this.ids.add(a, p.info.payer_id);
    }
    // A connection's own payer ID names its payer too, unless the directory gave it to another.
    for (const p of resolved.payers) for (const r of p.routes) this.ids.add(r.payer_id, p.info.payer_id);
    for (const c of resolved.connections) {
      this.connections.set(c.name, c);
      this.connectors.set(c.name, new PayerConnector(c, defaults, env, this.clock));
    }
    const onBreakerState = options.onBreakerState;
    if (onBreakerState) for (const [id, c] of this.connectors) c.onBreakerState((state) => onBreakerState(id, state));
  }

  payers(): readonly PayerInfo[] {
    return [...this.payersById.values()].map((p) => (p.aliases.length > 0 ? { ...p.info, aliases: p.aliases } : p.info));
  }

  payer(payerId: string): PayerInfo | undefined {
    const p = this.payersById.get(payerId);
    return p && p.aliases.length > 0 ? { ...p.info, aliases: p.aliases } : p?.info;
  }

  addCatalog(entries: readonly CatalogEntry[]): string[] {
    const warnings: string[] = [];
    for (const e of entries) {
      const known = [e.payer_id, ...e.aliases].map((id) => this.ids.get(id)).find((id) => id !== undefined);
      const routes = Object.entries(e.routes)
        .filter(([connection]) => this.connections.has(connection))
        .map(([connection, r]) => ({ connection, payer_id: r.payer_id, eligibility: r.eligibility }));
      const unknown = Object.keys(e.routes).filter((c) => !this.connections.has(c));
      if (unknown.length > 0) warnings.push(`${e.payer_id}: connection ${unknown.join(', ')} is not in the directory; its route is ignored`);
      const payer = known !== undefined ? this.payersById.get(known)! : null;
      if (payer) {
        // The directory file wins for route IDs and order; the catalog adds routes through other
        // connections, aliases, and what each connection's list says of eligibility.
        const merged = [...payer.routes];
        for (const r of routes) {
          const i = merged.findIndex((x) => x.connection === r.connection);
          if (i < 0) merged.push(r);
          else merged[i] = { ...merged[i]!, eligibility: r.eligibility };
        }
        payer.routes = merged;
        // A catalog payer without routes still says whether it takes inquiries at all.
        const eligibility = Object.keys(e.routes).length === 0 ? e.eligibility : routedEligibility(merged);
        if (eligibility) payer.info = { ...payer.info, eligibility };
        this.claim(payer, [e.payer_id, ...e.aliases, ...routes.map((r) => r.payer_id)]);
        continue;
      }
      if (routes.length === 0 && e.eligibility !== 'not_supported') {
        warnings.push(`${e.payer_id}: no route through a connection of the directory; not added`);
        continue;
      }
      const added: ResolvedPayer = {
        info: {
          payer_id: e.payer_id,
          name: e.name,
          supports_search: false,
          medicaid_state: e.medicaid_state,
          carve_out_administrators: [],
          eligibility: routedEligibility(routes) ?? e.eligibility,
        },
        aliases: [],
        routes,
      };
      this.payersById.set(e.payer_id, added);
      this.claim(added, [e.payer_id, ...e.aliases, ...routes.map((r) => r.payer_id)]);
    }
    return warnings;
  }

  /** IDs not yet naming another payer now name this one. */
  private claim(payer: ResolvedPayer, ids: string[]): void {
    for (const id of ids) {
      if (this.ids.has(id)) continue;
      this.ids.add(id, payer.info.payer_id);
      if (id !== payer.info.payer_id && !payer.aliases.includes(id)) payer.aliases.push(id);
    }
  }

  addProviders(providers: readonly (ProviderName & { npi: string })[]): void {
    for (const p of providers) {
      if (this.providers.has(p.npi)) continue;
      this.providers.set(p.npi, {
        npi: p.npi,
        ...(p.first_name ? { first_name: p.first_name } : {}),
        ...(p.last_name ? { last_name: p.last_name } : {}),
        ...(p.organization_name ? { organization_name: p.organization_name } : {}),
        ...(p.taxonomy ? { taxonomy: p.taxonomy } : {}),
      });
    }
  }

  providerName(npi: string | null): ProviderName | null {
    const p = npi ? this.providers.get(npi) : undefined;
    if (p)
      return { first_name: p.first_name ?? null, last_name: p.last_name ?? null, organization_name: p.organization_name ?? null, taxonomy: p.taxonomy ?? null };
    return this.submitterName ? { first_name: null, last_name: null, organization_name: this.submitterName } : null;
  }

  /** The directory's payer_id for an ID or alias (any case), or undefined. */
  canonicalId(id: string): string | undefined {
    return this.ids.get(id);
  }

  private envelope(route: PayerRoute): RouteEnvelope {
    const c = this.connections.get(route.connection)!;
    return {
      sender_id: this.senderId,
      receiver_id: c.receiver_id ?? route.payer_id,
      usage: c.test ? 'T' : 'P',
      payer_id: route.payer_id,
      connection: c.name,
      service_types: route.service_types ?? c.service_types ?? DEFAULT_SERVICE_TYPES,
    };
  }

  /** The first route's interchange identities, as the CORE envelope around it carries them. */
  interchange(payerId: string): InterchangeIds | undefined {
    const payer = this.payersById.get(payerId);
    const route = payer && triedRoutes(payer)[0];
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
    let lastError: PayerError | null = null;
    for (const [i, route] of triedRoutes(payer).entries()) {
      if (i > 0 && (this.clock.now() >= ctx.deadline || ctx.signal?.aborted)) break;
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
    throw lastError instanceof PayerError ? lastError : new PayerError('failure', payerId, 'no route answered');
  }

  async exchange(payerId: string, x12: string, ctx: ExchangeContext): Promise<string> {
    return (await this.inquire(payerId, () => x12, ctx)).x12;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connectors.values()].map((c) => c.close()));
  }
}
