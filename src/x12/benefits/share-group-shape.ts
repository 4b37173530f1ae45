/** What a cost-share group holds (share-group.ts builds it; share-visits.ts and share-group-trace.ts read it). */
import type { CostShareFallback, Selectable } from './rows.ts';

/** One cost-share group: the EBs of the most specific rank that reports a cost share for the place. */
export interface ShareGroup {
  tier: number;
  /** The group's rank (shareRank): a row with unknown values competes for its figures when its own rank could be this or better. */
  rank: number;
  copayment: number | null;
  coinsurance: number | null;
  notCovered: boolean;
  /** EB11 of the group: Y true, N false, neither null. */
  priorAuth: boolean | null;
  /** REF*G1 of the group's rows (prior authorization number), when they state one and agree. */
  authNumber: string | null;
  hint: boolean | null;
  /** The EBs the values came from (for the explanation). */
  sources: { copay: Selectable | null; coinsurance: Selectable | null; notCovered: Selectable | null; hint: Selectable | null; explicit: boolean };
  /** Rows of the winning rank whose copays or coinsurances disagree, or a copay and a coinsurance each stated for some visits only. */
  conflicts: Selectable[];
  /** The conflict is a copay and a coinsurance for different visits of the year (byVisitCount), not different amounts. */
  byVisits: boolean;
  /** The MSG says the member pays the greater or the lesser of the copay and the coinsurance, never both (cost-share-phrases.json). */
  combine: 'greater' | 'lesser' | null;
  /** The conflict is a copay and a coinsurance related in words no rule reads ("$30 OR 20 %"). */
  byWords: boolean;
  /** The words also leave open whether the OOP max caps the session (share-qualifiers.json `alsoUnknown`). */
  oopUnknown?: boolean;
  /** The order of the 98 and 30 fallbacks this group was chosen by (the payer directory's, else 98 first). */
  fallback: CostShareFallback;
  /** The cost share came from the primary care or specialist office visit the row's MSG names ("SAME AS PRIMARY CARE"). */
  sameAs: 'primary_care' | 'specialist' | null;
  /** The MSG says the copay (or the coinsurance) applies instead of the other (cost-share-phrases.json copay_only, coinsurance_only). */
  insteadOf?: 'copay' | 'coinsurance';
  /** The most the member pays of the coinsurance for one visit (an MSG caps it: share-qualifiers.json), in cents. */
  coinsuranceCap?: number;
  /** What the rows' MSGs say of the copay or coinsurance for this visit (share-qualifiers.json), for the explanation. */
  qualified: string[];
  /** Words of the competing rows' MSG that no rule reads and no informational class holds (share-messages.json): the share is unknown. */
  unread?: string[];
  /** Set when forVisit chose one of them for the visit's number in the year. */
  visitSplit?: { visit: number; split: number; row: Selectable };
}
