/** What the operations need from the outside world, injected so tests can fix the clock and the network. */
import type { IsoDate } from '../domain/coverage.ts';
import type { PayerNetwork } from '../payers/network.ts';
import type { CoverageCache } from './cache.ts';

export interface OperationDeps {
  network: PayerNetwork;
  /** Today's date where the service runs; the plan rules compare against it. */
  today: () => IsoDate;
  /** Deadline for one payer exchange, in milliseconds. */
  payerTimeoutMs: number;
  /** Deadline for a whole scan across payers, in milliseconds. */
  scanTimeoutMs: number;
  /** Short-lived answers per (payer, identity, date); production only. */
  cache?: CoverageCache;
  /** Told about every payer exchange: how long it took and `ok` or the PayerError kind (metrics). */
  onPayerCall?: (payerId: string, ms: number, outcome: string) => void;
}

export interface CallContext {
  request_id: string;
  /** Aborts the payer exchange (a scan's global deadline). */
  signal?: AbortSignal;
}
