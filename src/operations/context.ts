/**
 * The types the operations share: what they need from the outside world (injected so tests can fix
 * the clock and the network), a payer's answer, and the cache that holds it. Nothing here imports
 * another operations file, so the modules that use these types never form a circle.
 */
import type { Coverage } from '../domain/coverage.ts';
import type { EstimateRequest } from '../domain/schemas/requests.ts';
import type { Alert, EstimateResponse, PayerErrorEntry } from '../domain/schemas/responses.ts';
import type { PayerNetwork } from '../payers/network.ts';
import type { Clock } from '../domain/clock.ts';

export interface PayerAnswerResult {
  coverage: Coverage;
  warnings: string[];
  /** The connection that answered (production networks with routes). */
  route?: string | null;
  /** AAA segments beside the benefits (the payer could not answer part of the inquiry). */
  payer_errors?: PayerErrorEntry[];
}

/** Which exchange answered for a payer: the connection and the control numbers a support ticket names. */
export interface ExchangeRecord {
  route: string | null;
  /** ISA13 of the 270 that was answered; null for an answer from the cache. */
  control_number: number | null;
  /** BHT03 and TRN02 of that 270. */
  trace_number: string;
  payer_errors?: PayerErrorEntry[];
}

export interface CoverageCache {
  get(key: string): Promise<PayerAnswerResult | null>;
  set(key: string, value: PayerAnswerResult): Promise<void>;
  close(): Promise<void>;
}

export interface OperationDeps {
  network: PayerNetwork;
  /** The service's clock: its day is the one the plan rules compare against. */
  clock: Clock;
  /** Deadline for one payer exchange, in milliseconds. */
  payerTimeoutMs: number;
  /** Deadline for a whole scan across payers, in milliseconds. */
  scanTimeoutMs: number;
  /** A session cost below this many cents gets the SESSION_COST_LOW alert (default $10.00; 0: never). */
  sessionCostFloorCents?: number;
  /** Short-lived answers per (payer, identity, date); production only. */
  cache?: CoverageCache;
  /** Told about every payer exchange: how long it took and `ok` or the PayerError kind (metrics). */
  onPayerCall?: (payerId: string, ms: number, outcome: string) => void;
  /** Keeps each answered estimate for comparison with remittances (docs/remittances.md); awaited before the answer leaves. */
  keepEstimate?: (answered: AnsweredEstimate) => Promise<void>;
  /**
   * The desk's advisories from the owner's remittances for the estimate's payer and group
   * (REMITTANCE_MISMATCH, docs/remittances.md 'Feedback at the desk'). Never changes a figure; a
   * failure answers none (and is logged by whoever fills it).
   */
  remittanceAdvice?: (owner: CallOwner, body: EstimateResponse) => Promise<Alert[]>;
}

/** Who asked for a check and through which door: the key owner whose remittances may be compared with it. */
export interface CallOwner {
  /** The key's owner (store/keys.ts ownerOf: a rotated key keeps its predecessor's), or the batch row's key. */
  key_id: string;
  surface: 'api' | 'batch' | 'monitor' | 'fhir';
}

/** An estimate as answered, with the coverage it was read from (operations/remittance/kept-estimate.ts keeps it). */
export interface AnsweredEstimate {
  owner: CallOwner;
  request_id: string;
  request: EstimateRequest;
  body: EstimateResponse;
  coverage: Coverage;
}

export interface CallContext {
  request_id: string;
  /** Aborts the payer exchange (a scan's global deadline). */
  signal?: AbortSignal;
  /** The caller's network address chain, origin first (a vendor may have to pass it on: Stedi to CMS). */
  client_ips?: readonly string[];
  /** Filled by askPayer, per directory payer_id: who answered (the response's `route`, the audit record). */
  exchanges?: Map<string, ExchangeRecord>;
  /** Who asked: an estimate is kept for remittances only when the call names its owner. */
  owner?: CallOwner;
}

/**
 * What the exchange adds to an answer, the same in real time and in a batch row: the connection
 * that answered (`route`) and, on a 206, what the payer reported about the part it could not give.
 */
export function annotateAnswer(status: number, body: unknown, exchange: ExchangeRecord | null | undefined): void {
  if (!exchange) return;
  const b = body as { route?: string; payer_errors?: PayerErrorEntry[] };
  if (exchange.route) b.route = exchange.route;
  if (status === 206 && exchange.payer_errors) b.payer_errors = exchange.payer_errors;
}

/**
 * The exchange behind an answer. The answer names the payer that answered, which is not always the
 * one asked (the sandbox's any-payer is answered by a catalog payer): with one exchange, it is that one.
 */
export function exchangeFor(exchanges: Map<string, ExchangeRecord>, payerId: string | null): ExchangeRecord | null {
  const named = payerId === null ? undefined : exchanges.get(payerId);
  if (named) return named;
  if (exchanges.size === 1) return exchanges.values().next().value ?? null;
  return null;
}
