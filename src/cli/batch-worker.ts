/** The batch runner of this instance, wired to the store, the operations and the audit trail. */
import type { FastifyBaseLogger } from 'fastify';
import { identityOf } from '../http/audit-hook.ts';
import { BatchRunner } from '../operations/batch-runner.ts';
import type { OperationDeps } from '../operations/index.ts';
import type { AuditWriter } from '../store/audit.ts';
import { BatchStore } from '../store/batches.ts';
import type { Db } from '../store/db.ts';
import type { MemberHasher } from '../store/member-hash.ts';
import type { BatchConfig } from './config.ts';

export interface BatchWorkerParts {
  config: BatchConfig;
  db: Db;
  deps: OperationDeps;
  audit: AuditWriter;
  hashMember: MemberHasher;
  /** The app's logger, once there is one. */
  log: () => FastifyBaseLogger | undefined;
}

const DAY_MS = 86_400_000;
/** On shutdown, rows in progress get this long to finish before they are put back for the next start. */
const CLOSE_GRACE_MS = 10_000;

export function createBatchWorker(parts: BatchWorkerParts): { store: BatchStore; runner: BatchRunner } {
  const store = new BatchStore(parts.db);
  const runner = new BatchRunner({
    deps: parts.deps,
    queue: store,
    concurrency: parts.config.concurrency,
    perPayer: parts.config.perPayer,
    leaseMs: parts.config.leaseMs,
    pollMs: parts.config.pollMs,
    retentionMs: parts.config.retentionDays * DAY_MS,
    graceMs: CLOSE_GRACE_MS,
    log: {
      error: (obj, msg) => parts.log()?.error(obj, msg),
      warn: (obj, msg) => parts.log()?.warn(obj, msg),
    },
    // Each row is a check like any other: one audit record, written when its result is.
    onRowDone: (row, outcome, latencyMs) =>
      parts.audit.record({
        request_id: `${row.batch_id}.${row.row_no}`,
        at: new Date().toISOString(),
        key_id: row.key_id,
        endpoint: row.endpoint,
        payer_id: outcome.payerId ?? (typeof row.request.payer_id === 'string' && row.request.payer_id !== '' ? row.request.payer_id : null),
        status: outcome.result.status,
        error_code: outcome.result.error_code,
        latency_ms: Math.round(latencyMs),
        member_hash: parts.hashMember(identityOf(row.request)),
      }),
  });
  return { store, runner };
}
