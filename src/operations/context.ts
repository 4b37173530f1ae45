/** What the operations need from the outside world, injected so tests can fix the clock and the network. */
import type { IsoDate } from '../domain/coverage.ts';
import type { PayerNetwork } from '../payers/network.ts';

export interface OperationDeps {
  network: PayerNetwork;
  /** Today's date where the service runs; the plan rules compare against it. */
  today: () => IsoDate;
  /** Deadline for one payer exchange, in milliseconds. */
  payerTimeoutMs: number;
  /** Deadline for a whole scan across payers, in milliseconds. */
  scanTimeoutMs: number;
}

export interface CallContext {
  request_id: string;
}
