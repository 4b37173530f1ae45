/**
 * Mental health's status by network (docs/estimates.md 1.1): inactive for both closes the session; inactive for
 * one network only closes that network's (its benefits are not covered), active for either is active.
 */
import type { MentalHealthCoverage } from '../domain/coverage.ts';
import type { MhStatus } from './benefits/row-lists.ts';

export interface MentalHealthRows {
  /** A carve-out administrator or another source states behavioral health. */
  carvedOut: boolean;
  /** The status the mental-health status rows give each network. */
  mh: { in: MhStatus; out: MhStatus };
  /** Another behavioral-health type is active. */
  otherActive: boolean;
  /** A cost share for mental health is stated. */
  strongCostShare: boolean;
}

export function mentalHealthStatus(r: MentalHealthRows): { mental: MentalHealthCoverage; mhInactiveIn: boolean; mhInactiveOut: boolean } {
  let mental: MentalHealthCoverage = 'unknown';
  if (r.carvedOut) mental = 'carved_out';
  else if (r.mh.in === 'active' || r.mh.out === 'active') mental = 'active';
  else if (r.mh.in === 'inactive' && r.mh.out === 'inactive') mental = 'inactive';
  else if (r.otherActive || r.strongCostShare) mental = 'active';
  const open = mental !== 'inactive' && mental !== 'carved_out';
  return { mental, mhInactiveIn: open && r.mh.in === 'inactive', mhInactiveOut: open && r.mh.out === 'inactive' };
}
