/** What a monitor keeps of its last check, shared by the check (operations/monitoring/) and the store. */
import type { OtherEntity } from '../schemas/coverage.ts';
import type { CoverageChange } from './coverage-diff.ts';

/** A check that found changes, kept in the monitor's timeline (the last TIMELINE_LENGTH). */
export interface TimelineEntry {
  at: string;
  changes: CoverageChange[];
}

export const TIMELINE_LENGTH = 20;

export interface LastCheck {
  at: string;
  status: number;
  error_code: string | null;
  plan_status: string | null;
  member_obligation: number | null;
  /** The carve-out administrator whose answer gave member_obligation (the estimate's priced_by); absent in checks stored before it. */
  priced_by?: OtherEntity | null;
  changes: CoverageChange[];
  /** The checks that found changes, oldest first, this one included when it did; absent in checks stored before timelines. */
  timeline?: TimelineEntry[];
}
