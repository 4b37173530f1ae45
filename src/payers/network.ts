/** The seam between operations and payers: a network answers a 270 with a 271 (or a 999). */
import type { Eligibility } from '../domain/payer-ids.ts';
import type { PayerErrorEntry } from '../domain/schemas/responses.ts';
import type { Mode } from '../domain/mode.ts';
import type { CostShareFallback } from '../x12/index.ts';

export interface PayerInfo {
  payer_id: string;
  name: string;
  /** Answers name + DOB (+ ZIP) searches without a member ID. */
  supports_search: boolean;
  /** The state whose Medicaid program this payer is, if any. */
  medicaid_state: string | null;
  /** Payers that mental-health benefits are handed to (carve-out administrators this network can reach). */
  carve_out_administrators?: string[];
  /** The office visit (98) and plan (30) cost shares' order when no behavioral-health one is stated; absent: 98 then 30. */
  cost_share_fallback?: CostShareFallback;
  /** Other IDs callers may send for this payer (directory aliases, the imported catalog's). */
  aliases?: string[];
  /** From the imported catalog, over the payer's routes: not_supported answers 400 PAYER_NOT_SUPPORTED without a call. */
  eligibility?: Eligibility;
}

export interface ExchangeContext {
  request_id: string;
  /** Epoch milliseconds by which the answer must be back. */
  deadline: number;
  signal?: AbortSignal;
  /** The caller's network address chain, origin first, for a vendor that must pass it on (Stedi to CMS). */
  client_ips?: readonly string[];
}

/** The payer did not answer with X12: its endpoint failed, throttled, timed out or sent garbage. */
export class PayerError extends Error {
  constructor(
    readonly kind: 'failure' | 'throttled' | 'timeout' | 'circuit_open' | 'protocol' | 'refused',
    readonly payer_id: string,
    /** For the operator: never contains member data. */
    readonly reason: string,
    readonly retryAfterSeconds?: number,
    /** What the far end reported in its own words (a clearinghouse's JSON errors), mapped to ours. */
    readonly payerErrors?: PayerErrorEntry[],
  ) {
    super(`${payer_id}: ${reason}`);
    this.name = 'PayerError';
  }
}

/** Who a payer's 270s are from and to: ISA06/GS02, ISA08/GS03, and ISA15 (T test, P production). */
export interface InterchangeIds {
  sender_id: string;
  receiver_id: string;
  usage: 'T' | 'P';
}

export interface ProviderName {
  first_name: string | null;
  last_name: string | null;
  organization_name: string | null;
  /** NUCC taxonomy code of a registered provider: the 270 then carries PRV*PE*PXC in 2100B. */
  taxonomy?: string | null;
}

/** A payer of the imported catalog (store/payer-catalog.ts). */
export interface CatalogEntry {
  payer_id: string;
  name: string;
  aliases: string[];
  /** Derived from the routes' (supported if any route is); the payer's own when it has no route. */
  eligibility: Eligibility;
  medicaid_state: string | null;
  /** connection name -> that connection's payer ID and whether it takes eligibility inquiries for this payer. */
  routes: Record<string, { payer_id: string; eligibility: Eligibility }>;
}

/** Where one route of a payer sends its 270: the interchange identities and the connection's own payer ID (2100A NM109). */
export interface RouteEnvelope extends InterchangeIds {
  payer_id: string;
  connection: string;
  /** The service types of each inquiry through this route, the first always sent (connections.ts ServiceTypePlan). */
  service_types?: readonly (readonly string[])[];
}

/** An X12 answer and the connection (route) that gave it. */
export interface RoutedAnswer {
  x12: string;
  route: string;
  /** ISA13 of the 270 that was answered. */
  control_number?: number;
}

export interface PayerNetwork {
  readonly mode: Mode;
  /** Payer id to address when the caller left payer_id blank, or null when one is required. */
  readonly anyPayerId: string | null;
  payers(): readonly PayerInfo[];
  payer(payerId: string): PayerInfo | undefined;
  /**
   * The 2100B name for a request that gave only an NPI: the directory's provider of that NPI, else the
   * submitter's (practice's) name as an organization; null when the network knows neither.
   */
  providerName(npi: string | null): ProviderName | null;
  /** Production: adds the store's providers (coverage providers add); the directory's win for an NPI in both. */
  addProviders?(providers: readonly (ProviderName & { npi: string })[]): void;
  /** Production: adds the imported catalog's payers (routes through the directory's connections); returns warnings. */
  addCatalog?(payers: readonly CatalogEntry[]): string[];
  /** The payer_id an alias or a connection's own payer ID stands for (any case); undefined when the network knows no alias of it. */
  canonicalId(id: string): string | undefined;
  /** The interchange identities for a payer's 270s; undefined: the X12 writer's test defaults. */
  interchange(payerId: string): InterchangeIds | undefined;
  /**
   * Networks with routes (production): build a 270 for each route tried, in order, until one answers
   * as the payer; a route that fails as a route (AAA 42/79/80, 5xx, timeout, breaker open, payer not
   * configured) hands over to the next.
   */
  inquire?(payerId: string, build: (route: RouteEnvelope) => string, ctx: ExchangeContext): Promise<RoutedAnswer>;
  /** Send one X12 270 and return the payer's X12 answer (a 271 or a 999). */
  exchange(payerId: string, x12: string, ctx: ExchangeContext): Promise<string>;
  close(): Promise<void>;
}
