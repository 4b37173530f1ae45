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
import type { NetworkBenefits } from '../domain/coverage.ts';
import { AccumulatorReader, VisitReader } from './benefits/accumulators.ts';
import { unknownScope } from './benefits/closed-world.ts';
import { DollarLimits } from './benefits/dollar-limits.ts';
import {
  costApplies,
  isNotCoveredInfo,
  isShareInfo,
  pricesOffice,
  rowRank,
  statusApplies,
  type CostShareFallback,
  type Net,
  type PlaceFit,
  type Selectable,
} from './benefits/rows.ts';
import { shareGroup } from './benefits/share-group.ts';
import { traceGroup } from './benefits/share-group-trace.ts';
import { forVisit } from './benefits/share-visits.ts';
import { hintOf } from './benefits/share-rows.ts';
import { UNKNOWN_LEVELS, sharesCompeteAt, traceUnknowns, unknownsOf } from './unknown-competitors.ts';
import { traced, type TraceEntry } from './benefits/trace.ts';
import { STRONG_BH_TIER } from './codes.ts';
import { codeEntry } from './code-tables/index.ts';
import { benefitRole } from './code-tables/attributes.ts';
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

const NO_ROWS: readonly Selectable[] = [];

/** EB01 H (Unlimited): the code table says the row states no limit (eb01.json `limit`). */
const statesUnlimited = (b: Selectable) => codeEntry('eb01', b.info)?.limit === 'unlimited';

/**
 * What an unlimited benefit (EB01 H) says of the visit limits stated at `visitRank` (docs/estimates.md 1.1, "Visit
 * limits"): more specific than all of them, the service has no limit; of the same rank, they contradict each other;
 * less specific (or none), nothing.
 */
function unlimitedOver(unlimited: Selectable | null, visitRank: number): 'unlimited' | 'contradicts' | null {
  if (unlimited === null) return null;
  const rank = rowRank(unlimited);
  if (rank < visitRank) return 'unlimited';
  return rank === visitRank ? 'contradicts' : null;
}

/** The procedure part of a rowRank: 0 the encounter's procedure (EB13), 1 a range holding it, 2 none. */
const procedurePart = (rank: number) => (rank < 500 ? 0 : rank < 1000 ? 1 : 2);

/** What pricing a network reads of the plan and the encounter beside its rows. */
export interface PlanFacts {
  hdhp: boolean;
  /** The places a row must fit to price the session. */
  fits: (p: PlaceFit) => boolean;
  fallback?: CostShareFallback;
  /** The visit's place of service and procedure, for words qualifying a share by either. */
  place?: string | null;
  procedure?: string | null;
  /** How long the session's procedure lasts, for a limit in a unit of time (procedure-minutes.json). */
  minutes?: number | null;
  /** The rows whose MSG age conditions the patient's age meets (row-lists.ts `admitted`): those words are decided. */
  ageAdmitted?: ReadonlySet<Selectable>;
}

/** The behavioral-health benefits of network n, or null when the 271 says nothing about it. */
export function networkBenefits(
  bh: readonly Selectable[],
  n: Net,
  warnings: string[],
  trace?: TraceEntry[],
  plan: PlanFacts = { hdhp: false, fits: pricesOffice },
  unknown: readonly Selectable[] = NO_ROWS,
  otherPlace: readonly Selectable[] = NO_ROWS,
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
  // The most specific rank each accumulator is stated at, which a row with unknown values may compete with.
  let deductibleRank = Infinity;
  let oopRank = Infinity;
  let visitRank = Infinity;
  // EB01 H (Unlimited, eb01.json `limit`): the most specific rank stating no limit, and its row.
  let unlimited: Selectable | null = null;
  // A V with values no rule reads still says the payer does not state the service here.
  for (const b of unknown)
    if (benefitRole(b.info) === 'cannot_process' && b.tier >= 0 && b.tier <= STRONG_BH_TIER && costApplies(b, n) && b.tier < cannotTier) cannotTier = b.tier;
  for (const b of bh) {
    const role = benefitRole(b.info);
    if (role === 'cannot_process' && b.tier >= 0 && b.tier <= STRONG_BH_TIER && costApplies(b, n) && b.tier < cannotTier) cannotTier = b.tier;
    if (!costApplies(b, n)) continue;
    if ((b.status || b.cost) && b.deductibleHint !== null) (hinted ??= []).push(b);
    if (isNotCoveredInfo(b.info)) known = true;
    if (!b.cost) {
      if (statesUnlimited(b) && (unlimited === null || rowRank(b) < rowRank(unlimited))) unlimited = b;
      if (b.status && statusApplies(b, n)) known = true;
      // EB01 F with an amount and no unit of service: a dollar maximum on what the payer pays (benefits/dollar-limits.ts).
      else if (role === 'limitation') (dollars ??= new DollarLimits()).offer(b);
      continue;
    }
    known = true;
    if (role === 'deductible') {
      (deductible ??= new AccumulatorReader()).offer(b);
      deductibleRank = Math.min(deductibleRank, rowRank(b));
    } else if (role === 'out_of_pocket') {
      (oop ??= new AccumulatorReader()).offer(b);
      oopRank = Math.min(oopRank, rowRank(b));
    } else if (role === 'limitation') {
      (visits ??= new VisitReader()).offer(b);
      visitRank = Math.min(visitRank, rowRank(b));
    }
  }
  // Rows with values no rule reads (closed-world.ts) price nothing; a figure they compete for is unknown.
  const pre = unknown.length > 0 ? shareGroup(bh, n, [], { fits: plan.fits, ageAdmitted: plan.ageAdmitted }) : null;
  const unknowns =
    unknown.length > 0 ? unknownsOf(unknown, n, plan.fits, { share: sharesCompeteAt(pre), deductible: deductibleRank, oop: oopRank, visits: visitRank }) : null;
  if (!known && unknowns === null) return null;
  // An unlimited benefit more specific than every visit limit: none limits the service; at the same rank they contradict each other.
  const limitless = unlimitedOver(unlimited, visits?.reported ? visitRank : Infinity);
  const visitCount =
    (unknowns !== null && unknowns.visits.length > 0) || limitless === 'contradicts'
      ? { total: null, remaining: null }
      : limitless === 'unlimited'
        ? null
        : visits?.reported
          ? visits.result()
          : null;
  // A copay and a coinsurance by visit count: the visit limit's used count says which visit of the year this is.
  const used = visitCount && visitCount.total !== null && visitCount.remaining !== null ? visitCount.total - visitCount.remaining : null;
  // Below a V, a less specific cost share (the plan's 30, the office 98) never prices the service it cannot answer for.
  const priced = cannotTier === Infinity ? bh : bh.filter((b) => !(isShareInfo(b.info) && b.tier > cannotTier));
  // A visit limit whose use is stated for another span than its total (docs/estimates.md 1.1, "Limits and caps"): it may be
  // used up, so whether the cost share or the whole session is owed is unknown.
  const unknownUse = visitCount !== null && limitless !== 'unlimited' ? (visits?.unknownUse() ?? NO_ROWS) : NO_ROWS;
  // A limit row's quantity no rule places (a used count beside no limit, a quantity approved, ...): the limit may be used up.
  const undecidedUse = visitCount !== null && limitless !== 'unlimited' ? (visits?.undecided() ?? NO_ROWS) : NO_ROWS;
  // A limit in hours with less left than the session may last: it cannot be said to cover the session (docs/estimates.md 1.1).
  const shortUse = visitCount !== null && limitless !== 'unlimited' ? (visits?.shortOf(plan.minutes ?? null) ?? NO_ROWS) : NO_ROWS;
  const shared =
    (unknowns !== null && unknowns.share.length > 0) || limitless === 'contradicts' || unknownUse.length > 0 || undecidedUse.length > 0 || shortUse.length > 0
      ? null
      : shareGroup(priced, n, warnings, plan);
  // A behavioral-health cost share stated only for another place than the visit's: the payer prices the service by place
  // and says nothing of this one, so the office visit (98) or plan (30) fallback never stands in for it (docs/estimates.md 1.1).
  const unstatedHere = shared !== null && shared.tier > STRONG_BH_TIER ? otherPlace.filter((r) => costApplies(r, n)) : NO_ROWS;
  const group = unstatedHere.length > 0 ? null : shared && used !== null && used >= 0 ? forVisit(shared, used + 1, warnings) : shared;
  // A deductible with unknown values competing is reported, its amounts unknown, at the most specific tier it could have.
  const deductibleUnknown = unknowns !== null && unknowns.deductible.length > 0;
  const reportedDeductible = deductible !== null || deductibleUnknown;
  let deductibleTier = deductible?.tier ?? 4;
  if (deductibleUnknown) for (const r of unknowns.deductible) deductibleTier = Math.min(deductibleTier, unknownScope(r, 'service') ? 0 : r.tier);
  // A row less specific than an EB*V on a behavioral-health type speaks for nothing of the session, its deductible words neither.
  // What the network's MSGs say of the deductible when the group's rows say nothing: only rows of the group's service type
  // or a more specific one speak for it (a waiver on the office visit 98 says nothing of an MH coinsurance), when they agree.
  const hintTier = Math.min(group?.tier ?? Infinity, cannotTier);
  const { hint: anyHint, from: anyHintFrom } = hintOf(hinted ?? NO_ROWS, (b) => b.tier <= hintTier);
  const hint = group?.hint ?? anyHint;
  // A coinsurance waits for a reported deductible; one of 0 beside a copay puts nothing on top of it, so the copay's rule decides.
  const shareWaits = group !== null && ((group.coinsurance !== null && !(group.coinsurance === 0 && group.copayment !== null)) || group.notCovered);
  // A copay row restricted by EB13 to the procedure (or a range holding it) beside a deductible reported for no procedure so
  // specific: the deductible is reported for a less specific benefit than the copay (TR3 2110C EB13; 1.4.7), and does not hold it.
  const copayFrom = group?.sources.copay ?? null;
  const copayNarrower = copayFrom !== null && !deductibleUnknown && deductible !== null && procedurePart(rowRank(copayFrom)) < procedurePart(deductibleRank);
  const appliesFor = (reported: boolean, tier: number): boolean => {
    if (hint !== null) return hint;
    // An HSA-qualified high-deductible plan pays nothing but preventive care before the deductible (26 U.S.C. 223(c)(2)).
    if (plan.hdhp && reported) return true;
    // No cost share for the network: nothing says whether the deductible holds one (which could be a copay
    // it does not hold), so the session is not taken to wait for it.
    if (!group) return false;
    if (shareWaits) return reported;
    // A copay waits for the deductible only when the deductible is reported for its own service type (or a more specific one),
    // and, for a copay restricted to the encounter's procedure (EB13), for that procedure too (rowRank's procedure part).
    return reported && tier <= group.tier && !copayNarrower;
  };
  const applies = appliesFor(reportedDeductible, deductibleTier);
  const out: NetworkBenefits = {
    copayment: group?.copayment ?? null,
    coinsurance: group?.coinsurance ?? null,
    deductible_applies: applies,
    deductible: deductibleUnknown ? UNKNOWN_LEVELS() : (deductible?.result() ?? null),
    oop_max: (unknowns !== null && unknowns.oop.length > 0) || shared?.oopUnknown ? UNKNOWN_LEVELS() : (oop?.result() ?? null),
    visit_limit: visitCount,
  };
  const cap = dollars?.cap();
  if (cap !== undefined) out.payer_cap = cap;
  if (group?.combine && out.copayment !== null && out.coinsurance !== null) out.combine = group.combine;
  if (group?.coinsuranceCap !== undefined && out.coinsurance !== null) out.coinsurance_cap = group.coinsuranceCap;
  if (group?.notCovered) out.not_covered = true;
  if (group && group.priorAuth !== null) out.prior_authorization_required = group.priorAuth;
  if (group?.authNumber) out.prior_authorization_number = group.authNumber;
  if (trace) {
    if (unknowns !== null) {
      traceUnknowns(unknowns.share, 'cost share', n, trace);
      traceUnknowns(unknowns.deductible, 'deductible', n, trace);
      traceUnknowns(unknowns.oop, 'OOP max', n, trace);
      traceUnknowns(unknowns.visits, 'visit limit', n, trace);
    }
    for (const b of unstatedHere)
      trace.push({
        ...traced(
          'cost share',
          n,
          b,
          "a behavioral-health cost share stated only for another place of service than the visit's (2115C " +
            'III*ZZ): nothing states one here, and the office visit or plan fallback never stands in for it: unknown',
        ),
        status: 'conflict',
      });
    for (const b of shortUse)
      trace.push({
        ...traced(
          'visit limit',
          n,
          b,
          `a limit in a unit of time with fewer minutes left than the session's procedure may last (${plan.minutes ?? '?'} ` +
            'minutes by the CPT time rule, procedure-minutes.json): it cannot be said to cover the session, and the 271 does not ' +
            'say how the rest is priced: the cost share is unknown',
        ),
        status: 'conflict',
      });
    for (const b of unknownUse)
      trace.push({
        ...traced(
          'visit limit',
          n,
          b,
          "a visit limit's total and its used count (EB06 24, year to date) measure different spans (lifetime or " +
            'episode against the plan year) and no remaining is stated: what is left, and so the cost share, is unknown',
        ),
        status: 'conflict',
      });
    if (group) traceGroup(group, n, '', trace);
    else if (unknowns === null || unknowns.share.length === 0)
      trace.push(traced('cost share', n, null, 'no EB A, B or I for the mental-health service types, 98 or 30: unknown'));
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
              : copayNarrower
                ? 'a copay restricted to the procedure (EB13) does not wait for a deductible reported for no procedure so specific'
                : deductible !== null && deductible.tier <= group.tier
                  ? "a deductible is reported for the copay's own service type"
                  : 'a copay does not wait for a deductible reported only for a less specific service type';
    const entry = traced(`deductible applies: ${applies ? 'yes' : 'no'}`, n, hint !== null ? from : null, why);
    if (deductibleUnknown) entry.rule += '; the deductible is reported by a row with values no rule reads: its amounts are unknown';
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
        : 'the payer does not say in this benefit whether the copay waits for the deductible; ' +
          'read the other way, the member pays the session toward the deductible first';
    }
    trace.push(entry);
    deductible?.trace('deductible', n, trace);
    oop?.trace('OOP max', n, trace);
    if (limitless === 'unlimited' && unlimited)
      trace.push(
        traced(
          'visit limit: none',
          n,
          unlimited,
          'EB01 H (unlimited) is more specific than every visit limit: a less specific limit does not limit this service',
        ),
      );
    else if (limitless === 'contradicts' && unlimited)
      trace.push({
        ...traced('visit limit', n, unlimited, 'EB01 H (unlimited) and a visit limit of the same rank contradict each other: unknown'),
        status: 'conflict',
      });
    if (limitless !== 'unlimited') visits?.trace(n, trace);
    dollars?.trace(n, trace);
  }
  return out;
}
