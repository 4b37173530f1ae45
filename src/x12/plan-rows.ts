/**
 * The plan-level status EB rows (EB01 1-8, EB03 30 or empty) the plan's status and its 2110C dates
 * come from (docs/estimates.md section 1.1, the plan-level status row), chosen by their content and
 * the date of service, never by their order in the 271.
 */
import type { Encounter } from '../domain/encounter.ts';
import { windowHolds } from './benefits/filters.ts';
import { statusOf, type Benefit } from './eb-benefit.ts';

const isPlanStatus = (b: Benefit) => b.status && b.planWide;

/** A status row naming one network (EB12 Y or N) speaks for that network's benefits, not for the plan as a whole. */
const oneNetwork = (b: Benefit) => b.net === 'Y' || b.net === 'N';

/**
 * The plan-level status EB (EB01 1-8, EB03 30 or empty) the plan's status comes from: a row for the
 * whole plan before one naming a network (EB12 Y or N), then, in content order, the first whose own
 * dates hold the date of service, else the first. Eligibility spans sent as several plan-level rows with
 * their own DTP 307/356/357 so give the one in force on the visit.
 */
export function planStatusRow(rows: readonly Benefit[], encounter: Encounter | null): Benefit | undefined {
  let best: Benefit | undefined;
  let bestRank = Infinity;
  for (const b of rows) {
    if (!isPlanStatus(b)) continue;
    const rank = (oneNetwork(b) ? 2 : 0) + (encounter === null || windowHolds(b, encounter.date_of_service) ? 0 : 1);
    if (rank < bestRank) {
      best = b;
      bestRank = rank;
    }
  }
  return best;
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
