/** What the monitor routes need (routes/monitors.ts, routes/monitor-bulk.ts). */
import type { OperationDeps } from '../../operations/context.ts';
import type { MonitorCheckOutcome } from '../../operations/monitoring/monitor-check.ts';
import type { MonitorStore, StoredMonitor } from '../../store/monitors.ts';
import type { Clock } from '../../domain/clock.ts';

export interface MonitorRouteOptions {
  store: MonitorStore;
  deps: OperationDeps;
  /** The service's clock: creation times, the list's order by next appointment, checks made now. */
  clock: Clock;
  /** Monitors one owner may have (COVERAGE_MONITOR_MAX_PER_KEY). */
  maxPerOwner: number;
  /** Bulk uploads one key may make a minute (COVERAGE_MONITOR_BULK_PER_MINUTE); default DEFAULT_MONITOR_BULK_PER_MINUTE. */
  bulkPerMinute?: number;
  /** Told about each check made now (its audit record). */
  onChecked?: (monitor: StoredMonitor, outcome: MonitorCheckOutcome) => void;
  /** Tells this instance's runner and delivery worker that there is work. */
  wakeDeliveries: () => void;
}

export const DEFAULT_MONITOR_BULK_PER_MINUTE = 10;
