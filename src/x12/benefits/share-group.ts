/**
 * The cost-share group that prices the session (docs/estimates.md section 1.1): copay, coinsurance,
 * "not covered" and what the payer says about the deductible come from the rows of one rank, the
 * most specific that states a cost share (EB01 A, B, or I or E: not covered) for the network and place. Rank: a row
 * restricted to the encounter's procedure, then the service type tier, then a row naming the place
 * of service, then a row naming its network. Two rows of that rank stating different copays (or
 * coinsurances) contradict each other: the figure is unknown (206) and both are conflicts, whatever
 * their order. The group's other figure is then unknown too: which row it goes with cannot be told
 * (a lone coinsurance beside a $30 and a $40 copay prices neither of them).
 */
import {
  isNotCoveredInfo,
  isShareInfo,
  readAmount,
  readShare,
  readShareQuiet,
  rowRank,
  placeRank,
  namesNetwork,
  statedNetwork,
  shareRankOf,
  type CostShareFallback,
  type Net,
  type PlaceFit,
  type Selectable,
  costApplies,
} from './rows.ts';
import { el } from '../tokenizer.ts';
import { authorizationOf, benefitRef, benefitRole } from '../code-tables/attributes.ts';
import { codeEntry } from '../code-tables/index.ts';
import type { ShareRelation } from './phrases.ts';
import { undecidedWords } from './share-messages.ts';
import { ageCondition } from './age-condition.ts';
import { qualifyShare } from './share-qualifiers.ts';
import { agreed, hintOf, isCostShare } from './share-rows.ts';
import { describesSameAs, facilityOnly, officeShare, relationsOf } from './share-words.ts';
import { byVisitCount, splitOf } from './share-visits.ts';

import type { ShareGroup } from './share-group-shape.ts';

export type { ShareGroup };

/**
 * A row's rank in the group; `planFirst` (a payer's `30-then-98` fallback) puts the plan's 30 before the office
 * visit's 98. Within a service type tier a row naming the treating provider in its 2120C ranks before one naming
 * none (shareRankOf: docs/estimates.md 1.1, "Rows for a named provider").
 */
function shareRank(b: Selectable, planFirst = false): number {
  const swap = planFirst ? (b.tier === 3 ? -10 : b.tier === 2 ? 10 : 0) : 0;
  const net = namesNetwork(b) ? 0 : 1;
  return shareRankOf(rowRank(b) - net + swap, net, placeRank(b), b.provider?.fit === 'ours');
}

/** What choosing a group reads beside its rows. */
export interface GroupFacts {
  /** The places a row must fit to price the session. */
  fits: (p: PlaceFit) => boolean;
  /** The order of the 98 and 30 fallbacks (absent: 98 first). */
  fallback?: CostShareFallback;
  /** The visit's place of service, for words qualifying a share by place (absent: none). */
  place?: string | null;
  /** The visit's procedure (CPT/HCPCS), for words qualifying a share by procedure (absent: none). */
  procedure?: string | null;
  /**
   * The patient's own class's rows whose every MSG age condition the patient's age on the date of service
   * meets (persons.ts replacedByOwnClass): those words are decided. Absent: none.
   */
  ageAdmitted?: ReadonlySet<Selectable>;
}

/**
 * The group that prices a session at `facts.fits` places for network n, or null when no EB A/B/I applies.
 */
export function shareGroup(list: readonly Selectable[], n: Net, warnings: string[], facts: GroupFacts): ShareGroup | null {
  const { fits, fallback = '98-then-30', place = null, procedure = null, ageAdmitted } = facts;
  const planFirst = fallback === '30-then-98';
  // One pass: the rows of the best rank so far, started over when a row of a better rank comes.
  let best = Infinity;
  let members: Selectable[] | null = null;
  // EB01 A or B rows among them, and the earliest EB01 I or E.
  let shares = false;
  // An EB01 D of the rank relating its share to an office visit's (describesSameAs).
  let described = false;
  let notCoveredFrom: Selectable | null = null;
  for (const b of list) {
    if (!(isShareInfo(b.info) || describesSameAs(b)) || !costApplies(b, n) || !fits(b.place) || facilityOnly(b)) continue;
    const rank = shareRank(b, planFirst);
    if (rank > best) continue;
    if (rank < best) {
      best = rank;
      members = [];
      shares = false;
      described = false;
      notCoveredFrom = null;
    }
    members!.push(b);
    if (!isShareInfo(b.info)) described = true;
    else if (!isNotCoveredInfo(b.info)) shares = true;
    else if (!notCoveredFrom || b.loop.seg.index < notCoveredFrom.loop.seg.index) notCoveredFrom = b;
  }
  if (members === null) return null;
  const tier = members[0]!.tier;
  const explicit = members[0]!.place !== 'any';
  const conflicts: Selectable[] = [];
  let copay = agreed(members, 'copayment', readAmount, conflicts);
  let coins = agreed(members, 'coinsurance', readShareQuiet, conflicts);
  // Two copays (or two coinsurances) of the rank that disagree, each stated for some visits of the year only, alone in
  // the group: alternatives by visit count too ("NO CHARGE FOR THE FIRST 3 VISITS" / "COPAY BEGINNING WITH THE 4TH VISIT").
  const pairByVisits =
    conflicts.length === 2 &&
    benefitRole(conflicts[0]!.info) === benefitRole(conflicts[1]!.info) &&
    (benefitRole(conflicts[0]!.info) === 'copayment' ? coins.from === null : copay.from === null) &&
    splitOf(conflicts[0]!) !== null &&
    splitOf(conflicts[1]!) !== null;
  const byVisits = pairByVisits || (conflicts.length === 0 && byVisitCount(copay.from, coins.from));
  if (byVisits && !pairByVisits) conflicts.push(copay.from!, coins.from!);
  // What the rows' MSGs say of the cost share (docs/estimates.md 1.1, "Cost shares related in words").
  let byWords = false;
  const said = new Set<ShareRelation>();
  for (const b of members) if (isCostShare(b) || !isShareInfo(b.info)) for (const r of relationsOf(b)) said.add(r);
  let sameAs: 'primary_care' | 'specialist' | null = null;
  const oneOffice = said.has('same_as_primary_care') !== said.has('same_as_specialist');
  if (copay.from === null && coins.from === null && conflicts.length === 0 && oneOffice) {
    sameAs = said.has('same_as_primary_care') ? 'primary_care' : 'specialist';
    ({ copay, coins } = officeShare(list, sameAs, n, fits));
  } else if (described && (copay.from !== null || coins.from !== null)) {
    // A description saying the share is an office visit's beside a row of the rank stating one: unless they agree, neither is taken.
    const office = oneOffice ? officeShare(list, said.has('same_as_primary_care') ? 'primary_care' : 'specialist', n, fits) : null;
    if (office === null || office.copay.value !== copay.value || office.coins.value !== coins.value) {
      for (const b of members) if (!isShareInfo(b.info)) conflicts.push(b);
      for (const b of [copay.from, coins.from]) if (b !== null) conflicts.push(b);
      byWords = true;
    }
  }
  // "COPAY APPLIES INSTEAD OF COINSURANCE": the one named alone, when the group states it (cost-share-phrases.json copay_only).
  let insteadOf: 'copay' | 'coinsurance' | null = null;
  if (conflicts.length === 0 && (said.has('copay_only') || said.has('coinsurance_only'))) {
    const copayOnly = said.has('copay_only');
    if (copayOnly !== said.has('coinsurance_only') && (copayOnly ? copay.from : coins.from) !== null) {
      insteadOf = copayOnly ? 'copay' : 'coinsurance';
      if (copayOnly) coins = { value: null, from: null };
      else copay = { value: null, from: null };
    } else {
      byWords = true;
      for (const b of [copay.from, coins.from]) if (b !== null) conflicts.push(b);
    }
  }
  // Words relating the copay and a coinsurance when the group states only one of them: the other is unstated, the share unknown.
  const relating = said.has('greater') || said.has('lesser') || said.has('sum');
  if (conflicts.length === 0 && relating && (copay.from === null) !== (coins.from === null)) {
    byWords = true;
    conflicts.push((copay.from ?? coins.from)!);
  }
  let combine: 'greater' | 'lesser' | null = null;
  if (conflicts.length === 0 && copay.from !== null && coins.from !== null) {
    const greater = said.has('greater');
    const lesser = said.has('lesser');
    if (greater !== lesser) combine = greater ? 'greater' : 'lesser';
    else if (greater || said.has('relates')) byWords = true;
    if (byWords) conflicts.push(copay.from, coins.from);
  }
  // What the rows' MSGs say of their own copay or coinsurance for this visit (docs/estimates.md 1.1, "Cost shares qualified in words").
  let coinsuranceCap: number | undefined;
  let qualified: string[] = [];
  let oopUnknown = false;
  if (conflicts.length === 0 && (copay.from !== null || coins.from !== null)) {
    const texts: string[] = [];
    for (const b of members) if (isCostShare(b)) for (const m of b.loop.msg) texts.push(el(m, 1));
    const q = texts.length > 0 ? qualifyShare(texts, place, copay.value, coins.value, procedure) : null;
    if (q?.unknown) {
      byWords = true;
      if (q.oopUnknown) oopUnknown = true;
      for (const b of [copay.from, coins.from]) if (b !== null) conflicts.push(b);
    } else if (q) {
      copay = { ...copay, value: q.copay };
      coins = { ...coins, value: q.coinsurance };
      coinsuranceCap = q.coinsuranceCap;
      qualified = q.words;
    }
  }
  // The closed world for MSG on the competing rows (share-messages.json): words no rule reads leave the share unknown.
  let unread: string[] = [];
  if (conflicts.length === 0 && (copay.from !== null || coins.from !== null)) {
    // The figures the competing rows state: words naming another share's figure contradict them.
    const own = { amounts: [] as number[], percents: [] as number[] };
    for (const b of members) {
      if (!isCostShare(b)) continue;
      const cents = readAmount(b);
      const percent = readShareQuiet(b);
      if (cents !== null) own.amounts.push(cents / 100);
      if (percent !== null) own.percents.push(percent);
    }
    for (const b of members) {
      if (!isCostShare(b) || b.loop.msg.length === 0) continue;
      const named = b.loop.related.some((r) => codeEntry('nm101-2120', el(r.nm1, 1))?.provider === true);
      for (const m of b.loop.msg) {
        // An age condition the patient's age was checked against (persons.ts) is decided words.
        if (ageAdmitted?.has(b) === true && ageCondition(el(m, 1)) !== null) continue;
        unread.push(...undecidedWords(el(m, 1), { providerNamed: named, network: statedNetwork(b.net) }, own));
      }
    }
  }
  if (unread.length > 0) {
    byWords = true;
    for (const b of [copay.from, coins.from]) if (b !== null) conflicts.push(b);
  } else unread = [];
  if (conflicts.length > 0) {
    copay.value = null;
    copay.from = null;
    coins = { value: null, from: null };
  }
  // The EB08 warning (a whole percent read as one) once, for the row that prices.
  if (coins.from) readShare(coins.from, warnings);
  // An EB*I or EB*E beside a cost share of the same rank speaks for some other part of the service.
  const notCovered = !shares && notCoveredFrom !== null;
  let priorAuth: boolean | null = null;
  for (const b of members) {
    const eb11 = authorizationOf(b.loop.seg.element(11));
    if (eb11 === 'required') priorAuth = true;
    else if (eb11 === 'not_required') priorAuth ??= false;
  }
  let authNumbers: Set<string> | null = null;
  for (const b of members)
    for (const ref of b.loop.ref)
      if (benefitRef(el(ref, 1)) === 'prior_authorization' && el(ref, 2) !== '') (authNumbers ??= new Set<string>()).add(el(ref, 2));
  // The priced rows' own MSG first, else what the status and cost rows of the tier agree on.
  const own = hintOf(members);
  const { hint, from } = own.hint !== null ? own : hintOf(list, (b) => b.tier === tier && costApplies(b, n) && (b.status || b.cost));
  return {
    tier,
    rank: best,
    copayment: copay.value,
    coinsurance: coins.value,
    notCovered,
    priorAuth,
    authNumber: authNumbers?.size === 1 ? [...authNumbers][0]! : null,
    hint,
    sources: { copay: copay.from, coinsurance: coins.from, notCovered: notCoveredFrom, hint: from, explicit },
    conflicts,
    byVisits,
    combine,
    byWords,
    sameAs,
    fallback,
    qualified,
    ...(unread.length > 0 ? { unread } : {}),
    ...(coinsuranceCap !== undefined ? { coinsuranceCap } : {}),
    ...(insteadOf !== null ? { insteadOf } : {}),
    ...(oopUnknown ? { oopUnknown } : {}),
  };
}
