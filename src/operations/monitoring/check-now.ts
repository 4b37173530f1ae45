/**
 * A monitor's check, made and recorded: the scheduled one (monitor-runner.ts) under its claim, and
 * "Check now" (POST /v1/monitors/:id/check), which someone asked for to see the payer's answer now:
 * it goes to the payer whatever the coverage cache holds, and its answer refreshes the cache.
 */
import type { CoverageSnapshot } from '../../domain/monitoring/coverage-diff.ts';
import type { CoverageCache, OperationDeps } from '../context.ts';
import { checkMonitor, type MonitorCheckOutcome, type MonitorToCheck } from './monitor-check.ts';

export interface CheckWrite {
  last: MonitorCheckOutcome['last'];
  snapshot: CoverageSnapshot | null;
  events: MonitorCheckOutcome['events'];
}

/** Where a check is recorded (store/monitors.ts): false when the monitor is gone, or the claim was lost. */
export interface CheckRecorder {
  recordCheck(monitor: { id: string; owner_id: string }, record: CheckWrite, scheduled: { claim: string; nextCheckAt: Date | null } | null): Promise<boolean>;
}

/** The check, recorded; null when the record was refused (nothing of it was written). */
export async function recordedCheck(
  deps: OperationDeps,
  recorder: CheckRecorder,
  monitor: MonitorToCheck & { owner_id: string },
  at: Date,
  scheduled: { claim: string; nextCheckAt: Date | null } | null,
): Promise<MonitorCheckOutcome | null> {
  const outcome = await checkMonitor(deps, monitor, at);
  const written = await recorder.recordCheck(monitor, { last: outcome.last, snapshot: outcome.snapshot, events: outcome.events }, scheduled);
  return written ? outcome : null;
}

/** A cache that never answers but keeps what it is given: the payer is asked, and the next check reads its answer. */
function refreshOnly(cache: CoverageCache): CoverageCache {
  return { get: () => Promise.resolve(null), set: (key, value) => cache.set(key, value), close: () => Promise.resolve() };
}

/** "Check now": the payer's answer of this moment, recorded outside the schedule (the next due time stays). */
export function checkMonitorNow(deps: OperationDeps, recorder: CheckRecorder, monitor: MonitorToCheck & { owner_id: string }, at: Date) {
  const fresh = deps.cache ? { ...deps, cache: refreshOnly(deps.cache) } : deps;
  return recordedCheck(fresh, recorder, monitor, at, null);
}
