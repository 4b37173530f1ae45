/**
 * What rows carrying values no rule reads compete for (docs/estimates.md 1.1, "Closed world"; benefits/closed-world.ts):
 * the figures of a network they may state at their rank, which are then unknown, never another row's.
 */
import { competingRank, competingShareRank, unknownScope, unknownWords } from './benefits/closed-world.ts';
import { costApplies, isShareInfo, type Net, type PlaceFit, type Selectable } from './benefits/rows.ts';
import type { ShareGroup } from './benefits/share-group-shape.ts';
import { traced, type TraceEntry } from './benefits/trace.ts';
import { STRONG_BH_TIER } from './codes.ts';
import { benefitRole } from './code-tables/attributes.ts';

/**
 * The least specific rank at which a cost-share row with unknown values competes for the group's figures: the
 * group's own rank, or any rank when the group takes its share from the office visit its MSG names ("SAME AS
 * PRIMARY CARE": those office rows are less specific than the group, and an unknown one may be among them).
 */
export const sharesCompeteAt = (g: ShareGroup | null): number => (g === null || g.sameAs !== null ? Infinity : g.rank);

/** The figures rows with values no rule reads compete for (closed-world.ts), each with those rows. */
export interface Unknowns {
  share: Selectable[];
  deductible: Selectable[];
  oop: Selectable[];
  visits: Selectable[];
}

/**
 * Which figures of network n the rows with unknown values compete for: a figure their EB01 states, for
 * the network and place, when the rank deciding it is not more specific than the one the row could
 * have (competingRank). The cost share is unknown with any of them: an accumulator of unknown amount
 * may be none (0) or not, which decides the structure; a visit limit whether the session is covered at
 * all; so does a mental-health status row with unknown values.
 */
export function unknownsOf(
  unknown: readonly Selectable[],
  n: Net,
  fits: (p: PlaceFit) => boolean,
  ranks: { share: number; deductible: number; oop: number; visits: number },
): Unknowns | null {
  let out: Unknowns | null = null;
  for (const r of unknown) {
    if (!costApplies(r, n)) continue;
    const o = (out ??= { share: [], deductible: [], oop: [], visits: [] });
    const role = benefitRole(r.info);
    if (isShareInfo(r.info)) {
      if ((fits(r.place) || unknownScope(r, 'place')) && competingShareRank(r) <= ranks.share) o.share.push(r);
    } else if (role === 'deductible' || role === 'out_of_pocket') {
      // An accumulator of unknown amount may be 0 (none) or not: whether the session waits for it, or is capped, and so the structure, is unknown.
      if (competingRank(r) <= (role === 'deductible' ? ranks.deductible : ranks.oop)) {
        (role === 'deductible' ? o.deductible : o.oop).push(r);
        o.share.push(r);
      }
    } else if (role === 'limitation') {
      if (competingRank(r) <= ranks.visits) {
        o.visits.push(r);
        o.share.push(r);
      }
    } else if (r.status && (r.tier <= STRONG_BH_TIER || unknownScope(r, 'service'))) o.share.push(r);
    else if (r.unknown?.some((u) => u.element === 'EB01')) {
      // An EB01 no table reads may be any benefit: a cost share, an accumulator or a limit at the row's rank.
      if ((fits(r.place) || unknownScope(r, 'place')) && competingShareRank(r) <= ranks.share) o.share.push(r);
      else if (competingRank(r) <= Math.max(ranks.deductible, ranks.oop, ranks.visits)) o.share.push(r);
    }
  }
  return out !== null && (out.share.length > 0 || out.deductible.length > 0 || out.oop.length > 0 || out.visits.length > 0) ? out : null;
}

export const UNKNOWN_LEVELS = () => ({ individual: { total: null, remaining: null }, family: { total: null, remaining: null } });

export function traceUnknowns(rows: readonly Selectable[], figure: string, n: Net, trace: TraceEntry[]): void {
  for (const r of rows)
    trace.push({
      ...traced(
        figure,
        n,
        r,
        `unknown: this row competes for the ${figure} and carries values no rule reads ` +
          `(${unknownWords(r.unknown ?? [])}); the figure is unknown, never another row's`,
      ),
      status: 'conflict',
    });
}
