/**
 * One check of a monitor: the estimate, as POST /v1/estimate would answer it, compared with the
 * last snapshot. An answer with coverage (200, 206) replaces the snapshot and raises
 * coverage.changed when a watched field changed; any other answer raises coverage.check_failed and
 * keeps the snapshot. Events carry the monitor id, the check time and the changes: no names or
 * dates of birth, and a member ID only when the change is the member ID (docs/monitoring.md).
 */
import type { OtherEntity } from '../../domain/schemas/coverage.ts';
import { randomBytes } from 'node:crypto';
import { diffSnapshots, snapshotOf, type CoverageSnapshot } from '../../domain/monitoring/coverage-diff.ts';
import { TIMELINE_LENGTH, type LastCheck, type TimelineEntry } from '../../domain/monitoring/last-check.ts';
import { appointmentServiceDate, type MonitorSchedule } from '../../domain/monitoring/schedule.ts';
import { runCheck } from '../batch-check.ts';
import type { OperationDeps } from '../context.ts';

export interface MonitorToCheck {
  id: string;
  /** The key owner the monitor belongs to: its checks' estimates are kept for that owner's remittances. */
  owner_id?: string;
  what: { request: Record<string, unknown>; reference: string | null } | null;
  snapshot: CoverageSnapshot | null;
  last_check?: { timeline?: TimelineEntry[] | undefined } | null;
  /** Its appointments date the checks: each prices the next one (docs/monitoring.md). */
  schedule?: MonitorSchedule;
}

/**
 * The estimate a check sends: the monitor's request, priced on its next appointment when the
 * request names no date of service and payers answer for that date yet; else as stored (today).
 */
export function checkRequest(request: Record<string, unknown>, schedule: MonitorSchedule | undefined, today: string): Record<string, unknown> {
  if (request.date_of_service !== undefined || !schedule) return request;
  const date = appointmentServiceDate(schedule, today);
  return date === null ? request : { ...request, date_of_service: date };
}

export interface MonitorEvent {
  id: string;
  type: 'coverage.changed' | 'coverage.check_failed';
  timestamp: string;
  data: Record<string, unknown>;
}

export interface MonitorCheckOutcome {
  /** The check's request id, as its audit record names it: `{monitor id}.{epoch ms}`. */
  requestId: string;
  latencyMs: number;
  status: number;
  body: unknown;
  payerId: string | null;
  last: Required<LastCheck>;
  snapshot: CoverageSnapshot | null;
  events: MonitorEvent[];
}

const UNREADABLE = { error_code: 'INTERNAL_ERROR', message: 'This monitor was stored under another COVERAGE_DATA_KEY and cannot be read; create it again' };

export async function checkMonitor(deps: OperationDeps, monitor: MonitorToCheck, at: Date): Promise<MonitorCheckOutcome> {
  const requestId = `${monitor.id}.${at.getTime()}`;
  const started = performance.now();
  const checkedAt = at.toISOString();
  let status: number;
  let body: unknown;
  let errorCode: string | null;
  let payerId: string | null = null;
  if (monitor.what === null) {
    status = 500;
    errorCode = UNREADABLE.error_code;
    body = { ...UNREADABLE, request_id: requestId };
  } else {
    try {
      const outcome = await runCheck(deps, 'estimate', checkRequest(monitor.what.request, monitor.schedule, deps.clock.today()), {
        request_id: requestId,
        ...(monitor.owner_id ? { owner: { key_id: monitor.owner_id, surface: 'monitor' as const } } : {}),
      });
      ({ status, body, error_code: errorCode } = outcome.result);
      payerId = outcome.payerId;
    } catch {
      status = 500;
      errorCode = 'INTERNAL_ERROR';
      body = { error_code: errorCode, message: 'Internal error', request_id: requestId };
    }
  }
  const eventId = `evt_${randomBytes(12).toString('hex')}`;
  if (status === 200 || status === 206) {
    const snapshot = snapshotOf(body as Record<string, unknown>);
    const changes = monitor.snapshot ? diffSnapshots(monitor.snapshot, snapshot) : [];
    const events: MonitorEvent[] =
      changes.length > 0
        ? [
            {
              id: eventId,
              type: 'coverage.changed',
              timestamp: checkedAt,
              data: { monitor_id: monitor.id, checked_at: checkedAt, payer_id: snapshot.payer_id, changes },
            },
          ]
        : [];
    const before = monitor.last_check?.timeline ?? [];
    const last = {
      at: checkedAt,
      status,
      error_code: errorCode,
      plan_status: typeof snapshot.plan_status === 'string' ? snapshot.plan_status : null,
      member_obligation: typeof snapshot.member_obligation === 'number' ? snapshot.member_obligation : null,
      priced_by: (body as { priced_by?: OtherEntity }).priced_by ?? null,
      changes,
      timeline: changes.length > 0 ? [...before, { at: checkedAt, changes }].slice(-TIMELINE_LENGTH) : before,
    };
    return { requestId, latencyMs: performance.now() - started, status, body, payerId, last, snapshot, events };
  }
  const failed: MonitorEvent = {
    id: eventId,
    type: 'coverage.check_failed',
    timestamp: checkedAt,
    data: { monitor_id: monitor.id, checked_at: checkedAt, status, error_code: errorCode },
  };
  return {
    requestId,
    latencyMs: performance.now() - started,
    status,
    body,
    payerId,
    last: {
      at: checkedAt,
      status,
      error_code: errorCode,
      plan_status: null,
      member_obligation: null,
      priced_by: null,
      changes: [],
      timeline: monitor.last_check?.timeline ?? [],
    },
    snapshot: null,
    events: [failed],
  };
}
