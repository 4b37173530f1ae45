/**
 * The plan-level status EB rows (EB01 1-8, EB03 30 or empty) the plan's status and its 2110C dates
 * come from (docs/estimates.md section 1.1, the plan-level status row), chosen by their content and
 * the date of service, never by their order in the 271.
 */
import type { CoverageStatus } from '../domain/coverage.ts';
import type { Encounter } from '../domain/encounter.ts';
import { windowHolds } from './benefits/filters.ts';
import { namesNetwork } from './benefits/rows.ts';
import { limitedProgramOf, networkOf } from './code-tables/attributes.ts';
import { statusOf, type Benefit } from './eb-benefit.ts';

const isPlanStatus = (b: Benefit) => b.status && b.planWide;

/** A status row naming one network (EB12 Y or N) speaks for that network's benefits, not for the plan as a whole. */
const oneNetwork = (b: Benefit) => namesNetwork(b);

/**
 * The plan-level status EB (EB01 1-8, EB03 30 or empty) the plan's status comes from: a row for the
 * whole plan before one naming a network (EB12 Y or N), then, in content order, the first whose own
 * dates hold the date of service, else the first. Eligibility spans sent as several plan-level rows with
 * their own DTP 307/356/357 so give the one in force on the visit.
 */
export function planStatusRow(rows: readonly Benefit[], encounter: Encounter | null): Benefit | undefined {
  return bestStatusRows(rows, encounter)[0];
}

const statusRank = (b: Benefit, encounter: Encounter | null) =>
  (oneNetwork(b) ? 2 : 0) + (encounter === null || windowHolds(b, encounter.date_of_service) ? 0 : 1);

/** The plan-level status rows of the best rank (planStatusRow), in content order. */
function bestStatusRows(rows: readonly Benefit[], encounter: Encounter | null): Benefit[] {
  let best: Benefit[] = [];
  let bestRank = Infinity;
  for (const b of rows) {
    if (!isPlanStatus(b)) continue;
    const rank = statusRank(b, encounter);
    if (rank < bestRank) {
      best = [b];
      bestRank = rank;
    } else if (rank === bestRank) best.push(b);
  }
  return best;
}

/**
 * Two plan-level status rows equally in force on the date of service (the same rank of planStatusRow: both for the
 * whole plan or both for one network, both with their own dates holding the date of service, DTP 307/356/357/348/349;
 * an undated row, or one with the plan's 346/347 only, is not one) that say active
 * (EB01 1-5) and inactive (6-8): the payer states both for the same day, so the status is unknown (docs/estimates.md 1.1,
 * "Contradicting status rows"), whatever their order. Null when they agree.
 */
export function statusConflict(rows: readonly Benefit[], encounter: Encounter | null): Benefit[] | null {
  if (encounter === null) return null;
  const dated = (b: Benefit) => b.window.begin !== null || b.window.end !== null;
  const best = bestStatusRows(rows, encounter).filter((b) => dated(b) && windowHolds(b, encounter.date_of_service));
  const active = best.find((b) => statusOf(b.info) !== 'inactive');
  const inactive = best.find((b) => statusOf(b.info) === 'inactive');
  return active && inactive ? [active, inactive] : null;
}

/**
 * The plan-level status EB (no DTP 348) whose 2110C dates are the plan's: a row for the whole plan before
 * one naming a network, an active one before an inactive one (an inactive row's dates are a span without
 * coverage, not the plan's), then one whose dates hold the date of service; content order breaks ties.
 */
export function planDatesRow(ordered: readonly Benefit[], encounter: Encounter | null): Benefit | undefined {
  let best: Benefit | undefined;
  let bestRank = Infinity;
  for (const b of ordered) {
    if (!isPlanStatus(b) || b.begin !== null) continue;
    const rank =
      (oneNetwork(b) ? 4 : 0) + (statusOf(b.info) === 'inactive' ? 2 : 0) + (encounter === null || windowHolds(b, encounter.date_of_service) ? 0 : 1);
    if (rank < bestRank) {
      best = b;
      bestRank = rank;
    }
  }
  return best;
}

type Net = 'in' | 'out';
const NETS: readonly Net[] = ['in', 'out'];

/** What the status rows say of a psychotherapy session for each network (docs/estimates.md 1.1, "Status rows cover their own service types"). */
export interface SessionStatus {
  /** The coverage status: the whole plan's row, else the networks' statuses combined; `unknown` when none speaks. */
  status: CoverageStatus;
  /** The row it comes from, for the explanation (none when unknown). */
  row: Benefit | undefined;
  /** The row is the plan's (EB03 30 or none), not mental health's standing for it. */
  planWide: boolean;
  /** A network inactive while the coverage is not: its session is not covered. */
  closed: Record<Net, boolean>;
  /** A network no status row speaks for while another's does: covered or not is unknown there. */
  unstated: Record<Net, boolean>;
  /** The plan is active only for a limited program's services (limitedProgram): the session is not covered. Absent: not so. */
  limited?: readonly Benefit[];
  /** Status rows equally in force on the date of service that say active and inactive (statusConflict): the status is unknown. */
  conflict?: readonly Benefit[];
}

/**
 * The active status rows of a limited program, when they are all the answer says of the member's coverage: every
 * status row names only service types of a limited program (eb03.json `limitedProgram`: family planning 82, emergency
 * services 86, dental, vision, pharmacy), at least one is active, and no row that applies speaks for the session at any
 * rank (behavioral health, the office visit 98, the plan level 30 or an empty EB03) or carries a value no rule reads.
 * Null otherwise: a status row for other services alone then decides nothing (the status is unknown).
 */
export function limitedProgramRows(current: readonly Benefit[]): Benefit[] | null {
  let active: Benefit[] | null = null;
  for (const b of current) {
    if (b.tier >= 0 || b.unknown.length > 0) return null;
    if (!b.status) continue;
    if (b.serviceTypes.length === 0) return null;
    for (const t of b.serviceTypes) if (limitedProgramOf(t) === undefined) return null;
    if (statusOf(b.info) === 'active') (active ??= []).push(b);
  }
  return active;
}

/**
 * The session's status from the status rows that cover it (TR3 2110C EB03: the service types a row applies to;
 * EB12: the network): a row for the whole plan (EB03 30 or none, EB12 none or W) decides for both networks.
 * Without one, each network's is its plan-level row naming it (EB12 Y in, N out), else mental health's own
 * status for it (`mh`: MH, CF, A4, A6, A8). The whole plan inactive beside mental health's own active row: the
 * mental-health row speaks for the session (its network's; the other network closed). A status row for other services only (82 family planning, 86
 * emergency, AI substance abuse, ...) decides nothing: with none for either network the status is unknown,
 * never inactive; unless the answer is a limited program's alone (limitedProgramRows): active, the session not covered.
 */
export function sessionStatus(
  current: readonly Benefit[],
  encounter: Encounter | null,
  mh: { in: 'active' | 'inactive' | null; out: 'active' | 'inactive' | null; active: Benefit | undefined; inactive: Benefit | undefined },
): SessionStatus {
  const none = { in: false, out: false };
  const plan = planStatusRow(current, encounter);
  if (plan && !oneNetwork(plan)) {
    const conflict = statusConflict(current, encounter);
    if (conflict) return { status: 'unknown', row: undefined, planWide: true, closed: none, unstated: none, conflict };
    const status = statusOf(plan.info);
    // The plan inactive beside mental health's own active row (a behavioral-health-only program): the more specific
    // row speaks for the session (TR3 005010X279A1 1.4.7), each network by the rows that speak for it.
    if (status !== 'inactive' || (mh.in !== 'active' && mh.out !== 'active')) return { status, row: plan, planWide: true, closed: none, unstated: none };
    return {
      status: 'active',
      row: mh.active,
      planWide: false,
      closed: { in: mh.in !== 'active', out: mh.out !== 'active' },
      unstated: none,
    };
  }
  const per = { in: null as CoverageStatus | null, out: null as CoverageStatus | null };
  const rows = { in: undefined as Benefit | undefined, out: undefined as Benefit | undefined };
  const fromPlan = { in: false, out: false };
  for (const n of NETS) {
    const own = planStatusRow(
      current.filter((b) => networkOf(b.net) === n),
      encounter,
    );
    const conflict = own
      ? statusConflict(
          current.filter((b) => networkOf(b.net) === n),
          encounter,
        )
      : null;
    if (conflict) return { status: 'unknown', row: undefined, planWide: true, closed: none, unstated: none, conflict };
    if (own) {
      per[n] = statusOf(own.info);
      rows[n] = own;
      fromPlan[n] = true;
    } else if (mh[n] !== null) {
      per[n] = mh[n];
      rows[n] = mh[n] === 'active' ? mh.active : mh.inactive;
    }
  }
  // The coverage is a covering network's status when either states one (a network inactive beside it is closed).
  const covering = NETS.find((n) => per[n] !== null && per[n] !== 'inactive');
  const status: CoverageStatus = covering ? per[covering]! : per.in === 'inactive' && per.out === 'inactive' ? 'inactive' : 'unknown';
  // Active for a limited program's services alone (emergency or family-planning Medicaid, a dental plan): the
  // member is covered, for those services only; the session is not among them (benefits/gates.ts).
  const limited = status === 'unknown' ? limitedProgramRows(current) : null;
  if (limited) return { status: 'active', row: limited[0], planWide: false, closed: none, unstated: none, limited };
  const n = covering ?? (per.in !== null ? 'in' : per.out !== null ? 'out' : undefined);
  return {
    status,
    row: n ? rows[n] : undefined,
    planWide: n ? fromPlan[n] : false,
    closed: { in: status !== 'inactive' && per.in === 'inactive', out: status !== 'inactive' && per.out === 'inactive' },
    unstated: { in: status !== 'unknown' && per.in === null, out: status !== 'unknown' && per.out === null },
  };
}
