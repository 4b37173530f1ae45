/**
 * Which 2110C/2110D benefits price a behavioral-health session (docs/estimates.md section 1.1).
 *
 * - The rows that apply to the encounter (benefits/filters.ts) are ranked by specificity
 *   (benefits/rows.ts rowRank): EB13 procedure, then the service type tier (MH, then
 *   CF/A4/A6/A8/AI, then 98, then 30 or empty), then for a cost share a named place of service, then
 *   a named network. Rows of the deciding rank that disagree are a conflict: unknown, never the first.
 * - A cost share is one group (benefits/share-group.ts): copay, coinsurance, "not covered" and what
 *   the payer says about the deductible come from one rank; a missing half is never filled in from a
 *   less specific benefit (005010X279A1 section 1.4.7: the most specific benefit governs).
 * - Accumulators (benefits/accumulators.ts): a level's total and remaining from one row family.
 * - The deductible applies to a copay only when the payer says so: an MSG in the group (else the MSGs
 *   of the network's rows at the group's service type or a more specific one, when they agree), a deductible reported at the copay's own service type or a more
 *   specific one, or an HSA-qualified high-deductible plan. A coinsurance is taken to apply after a
 *   reported deductible unless an MSG waives it.
 * - EB11 Y / N on the group: prior authorization required / not required.
 */
import type { CostShare, NetworkBenefits } from '../domain/coverage.ts';
import { AccumulatorReader, VisitReader } from './benefits/accumulators.ts';
import { DollarLimits } from './benefits/dollar-limits.ts';
import {
  costApplies,
  isNotCoveredInfo,
  isShareInfo,
  pricesTelehealth,
  pricesOffice,
  statusApplies,
  type CostShareFallback,
  type Net,
  type PlaceFit,
  type Selectable,
} from './benefits/rows.ts';
import { forVisit, shareGroup, traceGroup } from './benefits/share-group.ts';
import { traced, type TraceEntry } from './benefits/trace.ts';
import { STRONG_BH_TIER } from './codes.ts';
import { el } from './tokenizer.ts';

export { hasServiceLimit } from './benefits/accumulators.ts';
export {
  costApplies,
  isFamilyLevel,
  placeFit,
  pricesOffice,
  pricesTelehealth,
  readAmount,
  readShare,
  statusApplies,
  type Net,
  type PlaceFit,
  type Selectable,
} from './benefits/rows.ts';
export { shareGroup, type ShareGroup } from './benefits/share-group.ts';
export { traced, type TraceEntry } from './benefits/trace.ts';

/**
 * What the network's MSGs say about the deductible, when the group's own rows say nothing: only the
 * rows of the group's service type or a more specific one speak for it (a waiver written on the office
 * visit, 98, says nothing of a mental-health coinsurance), and only when they all agree (never the
 * first of several). `from` is the earliest such row, for the explanation.
 */
function networkHint(hinted: readonly Selectable[] | null, tier: number): { hint: boolean | null; from: Selectable | null } {
  let hint: boolean | null = null;
  let from: Selectable | null = null;
  if (hinted === null) return { hint, from };
  for (const b of hinted) {
    if (b.tier > tier) continue;
    if (hint === null) {
      hint = b.deductibleHint;
      from = b;
    } else if (hint !== b.deductibleHint) return { hint: null, from: null };
    else if (from && b.loop.seg.index < from.loop.seg.index) from = b;
  }
  return { hint, from };
}

/** The behavioral-health benefits of network n, or null when the 271 says nothing about it. */
export function networkBenefits(
  bh: readonly Selectable[],
  n: Net,
  warnings: string[],
  trace?: TraceEntry[],
  plan: { hdhp: boolean; fits: (p: PlaceFit) => boolean; fallback?: CostShareFallback } = { hdhp: false, fits: pricesOffice },
): NetworkBenefits | null {
  let deductible: AccumulatorReader | null = null;
  let oop: AccumulatorReader | null = null;
  let visits: VisitReader | null = null;
  let dollars: DollarLimits | null = null;
  // The network's rows whose MSG says something about the deductible (few: most rows carry no MSG).
  let hinted: Selectable[] | null = null;
  let known = false;
  // EB01 V (cannot process) on a behavioral-health type: the payer does not state that service's cost share.
  let cannotTier = Infinity;
  for (const b of bh) {
    if (b.info === 'V' && b.tier >= 0 && b.tier <= STRONG_BH_TIER && costApplies(b, n) && b.tier < cannotTier) cannotTier = b.tier;
    if (!costApplies(b, n)) continue;
    if ((b.status || b.cost) && b.deductibleHint !== null) (hinted ??= []).push(b);
    if (isNotCoveredInfo(b.info)) known = true;
    if (!b.cost) {
      if (b.status && statusApplies(b, n)) known = true;
      // EB01 F with an amount and no unit of service: a dollar maximum on what the payer pays (benefits/dollar-limits.ts).
      else if (b.info === 'F') (dollars ??= new DollarLimits()).offer(b);
      continue;
    }
    known = true;
    if (b.info === 'C') (deductible ??= new AccumulatorReader()).offer(b);
    else if (b.info === 'G') (oop ??= new AccumulatorReader()).offer(b);
    else if (b.info === 'F') (visits ??= new VisitReader()).offer(b);
  }
  if (!known) return null;
  const visitCount = visits?.reported ? visits.result() : null;
  // A copay and a coinsurance by visit count: the visit limit's used count says which visit of the year this is.
  const used = visitCount && visitCount.total !== null && visitCount.remaining !== null ? visitCount.total - visitCount.remaining : null;
  // Below a V, a less specific cost share (the plan's 30, the office 98) never prices the service it cannot answer for.
  const priced = cannotTier === Infinity ? bh : bh.filter((b) => !(isShareInfo(b.info) && b.tier > cannotTier));
  const shared = shareGroup(priced, n, plan.fits, warnings, plan.fallback);
  const group = shared && used !== null && used >= 0 ? forVisit(shared, used + 1, warnings) : shared;
  const { hint: anyHint, from: anyHintFrom } = networkHint(hinted, group?.tier ?? Infinity);
  const hint = group?.hint ?? anyHint;
  // A coinsurance waits for a reported deductible; one of 0 beside a copay puts nothing on top of it, so the copay's rule decides.
  const shareWaits = group !== null && ((group.coinsurance !== null && !(group.coinsurance === 0 && group.copayment !== null)) || group.notCovered);
  let applies: boolean;
  if (hint !== null) applies = hint;
  // An HSA-qualified high-deductible plan pays nothing but preventive care before the deductible (26 U.S.C. 223(c)(2)).
  else if (plan.hdhp && deductible !== null) applies = true;
  // No cost share for the network: nothing says whether the deductible holds one (which could be a copay
  // it does not hold), so the session is not taken to wait for it.
  else if (!group) applies = false;
  else if (shareWaits) applies = deductible !== null;
  // A copay waits for the deductible only when the deductible is reported for its own service type (or a more specific one).
  else applies = deductible !== null && deductible.tier <= group.tier;
  const out: NetworkBenefits = {
    copayment: group?.copayment ?? null,
    coinsurance: group?.coinsurance ?? null,
    deductible_applies: applies,
    deductible: deductible?.result() ?? null,
    oop_max: oop?.result() ?? null,
    visit_limit: visitCount,
  };
  const cap = dollars?.cap();
  if (cap !== undefined) out.payer_cap = cap;
  if (group?.combine && out.copayment !== null && out.coinsurance !== null) out.combine = group.combine;
  if (group?.notCovered) out.not_covered = true;
  if (group && group.priorAuth !== null) out.prior_authorization_required = group.priorAuth;
  if (group?.authNumber) out.prior_authorization_number = group.authNumber;
  if (trace) {
    if (group) traceGroup(group, n, '', trace);
    else trace.push(traced('cost share', n, null, 'no EB A, B or I for the mental-health service types, 98 or 30: unknown'));
    const from = group && group.hint !== null ? group.sources.hint : anyHintFrom;
    const why =
      hint !== null
        ? `the payer's MSG says so: "${from?.loop.msg.map((m) => el(m, 1)).find((t) => t !== '') ?? ''}"`
        : plan.hdhp && deductible !== null
          ? 'a high-deductible health plan (HSA-qualified): no cost share before the deductible (26 U.S.C. 223(c)(2))'
          : !group
            ? 'no cost share (EB01 A, B or I) is reported: nothing says whether the deductible holds it'
            : shareWaits
              ? deductible !== null
                ? 'a coinsurance applies after the reported deductible'
                : 'no deductible reported'
              : deductible !== null && deductible.tier <= group.tier
                ? "a deductible is reported for the copay's own service type"
                : 'a copay does not wait for a deductible reported only for a less specific service type';
    const entry = traced(`deductible applies: ${applies ? 'yes' : 'no'}`, n, hint !== null ? from : null, why);
    // A copay's deductible read from structure, or from an MSG written beside another benefit, is a reading, not the payer's word
    // (a coinsurance after a reported deductible is the TR3's ordinary meaning, not ambiguous).
    if (
      group &&
      group.copayment !== null &&
      group.copayment > 0 &&
      group.coinsurance === null &&
      !group.notCovered &&
      deductible !== null &&
      group.hint === null
    ) {
      entry.alternative = applies
        ? 'the payer does not say in this benefit whether the copay waits for the deductible; read the other way, the copay is charged from the first session'
        : 'the payer does not say in this benefit whether the copay waits for the deductible; read the other way, the member pays the session toward the deductible first';
    }
    trace.push(entry);
    deductible?.trace('deductible', n, trace);
    oop?.trace('OOP max', n, trace);
    visits?.trace(n, trace);
    dollars?.trace(n, trace);
  }
  return out;
}

/** The telehealth cost share of network n, kept only when it differs from the in-person one. */
export function telehealthShare(
  list: readonly Selectable[],
  n: Net,
  inPerson: NetworkBenefits | null,
  warnings: string[],
  trace?: TraceEntry[],
): CostShare | null {
  const group = shareGroup(list, n, pricesTelehealth, warnings);
  if (!group || group.notCovered) return null;
  const { copayment, coinsurance } = group;
  if (copayment === null && coinsurance === null) return null;
  if (copayment === (inPerson?.copayment ?? null) && coinsurance === (inPerson?.coinsurance ?? null)) return null;
  if (trace) traceGroup(group, n, 'telehealth ', trace);
  return { copayment, coinsurance };
}
