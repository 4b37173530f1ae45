/** What the monitor routes need (routes/monitors.ts, routes/monitor-bulk.ts). */
import type { OperationDeps } from '../../operations/context.ts';
import type { MonitorCheckOutcome } from '../../operations/monitoring/monitor-check.ts';
import type { MonitorStore, StoredMonitor } from '../../store/monitors.ts';

export interface MonitorRouteOptions {
  store: MonitorStore;
  deps: OperationDeps;
  now: () => Date;
  /** Monitors one owner may have. */
  maxPerOwner: number;
  /** Told about each check made now (its audit record). */
  onChecked?: (monitor: StoredMonitor, outcome: MonitorCheckOutcome) => void;
  /** Tells this instance's runner and delivery worker that there is work. */
  wakeDeliveries: () => void;
}

export const DATA_KEY_NEEDED =
  'Monitors keep the last coverage answer of each patient, which is member data: a production server creates them only with COVERAGE_DATA_KEY set (64 hexadecimal characters, `openssl rand -hex 32`). Ask the operator to set it';
