/** The telehealth cost share of a network (docs/estimates.md 1.1, telehealth): a telehealth visit's group, when it differs from the visit's. */
import type { CostShare, NetworkBenefits } from '../domain/coverage.ts';
import { TELEHEALTH_PLACES_OF_SERVICE } from '../domain/encounter.ts';
import { competingShareRank, unknownScope } from './benefits/closed-world.ts';
import { costApplies, isShareInfo, pricesTelehealth, type Net, type Selectable } from './benefits/rows.ts';
import { shareGroup } from './benefits/share-group.ts';
import { traceGroup } from './benefits/share-group-trace.ts';
import type { TraceEntry } from './benefits/trace.ts';
import { sharesCompeteAt, traceUnknowns } from './unknown-competitors.ts';

const NO_ROWS: readonly Selectable[] = [];

/** The telehealth cost share of network n, kept only when it differs from the in-person one. */
export function telehealthShare(
  list: readonly Selectable[],
  n: Net,
  inPerson: NetworkBenefits | null,
  warnings: string[],
  trace?: TraceEntry[],
  unknown: readonly Selectable[] = NO_ROWS,
  ageAdmitted?: ReadonlySet<Selectable>,
  procedure: string | null = null,
): CostShare | null {
  // The telehealth cost share is a telehealth visit's: words qualifying it for one (share-qualifiers.json) read at a telehealth place.
  const group = shareGroup(list, n, warnings, { fits: pricesTelehealth, place: TELEHEALTH_PLACES_OF_SERVICE[0] ?? null, procedure, ageAdmitted });
  if (unknown.length > 0) {
    // Rows with values no rule reads (closed-world.ts): a telehealth figure they compete for is unknown, and one beside an
    // unknown in-person cost share cannot be told apart from it.
    const inPersonUnknown = inPerson === null || (inPerson.copayment === null && inPerson.coinsurance === null);
    const applying = unknown.filter((r) => costApplies(r, n));
    const competes = applying.some(
      (r) => isShareInfo(r.info) && (pricesTelehealth(r.place) || unknownScope(r, 'place')) && competingShareRank(r) <= sharesCompeteAt(group),
    );
    if (inPersonUnknown && applying.length > 0) return null;
    if (competes) {
      if (trace) traceUnknowns(applying, 'telehealth cost share', n, trace);
      return { copayment: null, coinsurance: null };
    }
  }
  if (!group || group.notCovered) return null;
  const { copayment, coinsurance, coinsuranceCap } = group;
  if (copayment === null && coinsurance === null) return null;
  if (copayment === (inPerson?.copayment ?? null) && coinsurance === (inPerson?.coinsurance ?? null) && coinsuranceCap === inPerson?.coinsurance_cap)
    return null;
  if (trace) traceGroup(group, n, 'telehealth ', trace);
  return coinsuranceCap !== undefined && coinsurance !== null ? { copayment, coinsurance, coinsurance_cap: coinsuranceCap } : { copayment, coinsurance };
}
