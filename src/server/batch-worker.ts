/** The batch runner of this instance, wired to the store, the operations and the audit trail. */
import type { FastifyBaseLogger } from 'fastify';
import { identityOf, type MemberHasher } from '../store/member-hash.ts';
import { BatchRunner } from '../operations/batch-runner.ts';
import type { OperationDeps } from '../operations/index.ts';
import { BatchStore } from '../store/batches.ts';
import type { Db } from '../store/db.ts';
import type { DataKey } from '../store/data-key.ts';
import { SealedText } from '../store/sealed-text.ts';
import type { BatchConfig } from './config.ts';
import { isoNow } from '../domain/clock.ts';

export interface BatchWorkerParts {
  config: BatchConfig;
  db: Db;
  deps: OperationDeps;
  hashMember: MemberHasher;
  /** Seals each row's request and result (COVERAGE_DATA_KEY); rows are plain JSON without it. */
  dataKey: DataKey | null;
  /** The app's logger, once there is one. */
  log: () => FastifyBaseLogger | undefined;
  /** Told the batch of each row whose result was written (batch.completed events). */
  onRowDone?: (batchId: string) => void;
}

const DAY_MS = 86_400_000;
/** On shutdown, rows in progress get this long to finish before they are put back for the next start. */
const CLOSE_GRACE_MS = 10_000;

export function createBatchWorker(parts: BatchWorkerParts): { store: BatchStore; runner: BatchRunner } {
  const store = new BatchStore(parts.db, new SealedText(parts.dataKey));
  // The audit names only payers of the directory, never text a caller made up.
  const knownPayer = (id: unknown) => (typeof id === 'string' && parts.deps.network.payer(id) ? id : null);
  const runner = new BatchRunner({
    deps: parts.deps,
    queue: store,
    env: parts.deps.network.mode,
    concurrency: parts.config.concurrency,
    perPayer: parts.config.perPayer,
    leaseMs: parts.config.leaseMs,
    pollMs: parts.config.pollMs,
    retentionMs: parts.config.retentionDays * DAY_MS,
    graceMs: CLOSE_GRACE_MS,
    ...(parts.onRowDone ? { onRowDone: (row) => parts.onRowDone!(row.batch_id) } : {}),
    log: {
      error: (obj, msg) => parts.log()?.error(obj, msg),
      warn: (obj, msg) => parts.log()?.warn(obj, msg),
    },
    // Each row is a check like any other: one audit record, written in the transaction of its result.
    auditOf: (row, outcome, latencyMs) => ({
      at: isoNow(parts.deps.clock),
      endpoint: row.endpoint,
      payer_id: outcome.payerId ?? knownPayer(row.request.payer_id),
      status: outcome.result.status,
      error_code: outcome.result.error_code,
      latency_ms: Math.round(latencyMs),
      member_hash: parts.hashMember(identityOf(row.request)),
    }),
  });
  return { store, runner };
}
