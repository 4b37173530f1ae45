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
  shareRankOf,
  type CostShareFallback,
  type Net,
  type PlaceFit,
  type Selectable,
  costApplies,
} from './rows.ts';
import { el } from '../tokenizer.ts';
import { authorizationOf, benefitRef, benefitRole, networkOf } from '../code-tables/attributes.ts';
import { codeEntry } from '../code-tables/index.ts';
import { TIER_NAME, traced, type TraceEntry } from './trace.ts';
import { namesOfficeKind, saysVisitRange, shareRelations, visitSplitOf, type ShareRelation } from './phrases.ts';
import { undecidedWords } from './share-messages.ts';
import { ageCondition } from './age-condition.ts';
import { qualifyShare } from './share-qualifiers.ts';

/** EB01 A or B (eb01.json `role` coinsurance, copayment): a cost share. */
function isCostShare(b: Selectable): boolean {
  const role = benefitRole(b.info);
  return role === 'copayment' || role === 'coinsurance';
}
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

const rangesVisits = (b: Selectable) => b.loop.msg.some((m) => saysVisitRange(el(m, 1)));

/**
 * A copay and a coinsurance of one group, either stated for some visits of the year only ("COPAY APPLIES
 * TO FIRST 5 VISITS", "COINSURANCE BEGINNING WITH 6TH VISIT"): alternatives by visit count, not one cost
 * share on top of the other, and which visit this is the 271 does not say (docs/estimates.md 1.1).
 */
function byVisitCount(copay: Selectable | null, coinsurance: Selectable | null): boolean {
  return copay !== null && coinsurance !== null && (rangesVisits(copay) || rangesVisits(coinsurance));
}

/** The fallback order of a psychotherapy session's cost share, in words (docs/estimates.md 1.1, "Fallback order"). */
const FALLBACK_ORDER: Readonly<Record<CostShareFallback, string>> = {
  '98-then-30': 'MH, then CF/A4/A6/A8/AI, then the office visit 98, then the plan 30',
  '30-then-98': "MH, then CF/A4/A6/A8/AI, then the plan 30, then the office visit 98 (the payer directory's order)",
};

const NONE: readonly ShareRelation[] = [];

/** What a row's MSGs say of its cost share (phrases.ts shareRelations); most rows carry none. */
function relationsOf(b: Selectable): readonly ShareRelation[] {
  if (b.loop.msg.length === 0) return NONE;
  const out: ShareRelation[] = [];
  for (const m of b.loop.msg) for (const r of shareRelations(el(m, 1))) if (!out.includes(r)) out.push(r);
  return out;
}

/**
 * An EB01 D (benefit description, eb01.json `role` description) whose MSG says its service's cost share is the
 * primary care or the specialist office visit's ("PAID AT THE PRIMARY CARE COPAY"): a row of the cost-share group
 * at its rank stating that share (docs/estimates.md 1.1, "Cost shares related in words").
 */
function describesSameAs(b: Selectable): boolean {
  if (benefitRole(b.info) !== 'description' || b.tier < 0) return false;
  const r = relationsOf(b);
  return r.includes('same_as_primary_care') || r.includes('same_as_specialist');
}

/** A row for a facility's charges only never prices a professional session (cost-share-phrases.json facility_only). */
const facilityOnly = (b: Selectable) => {
  const r = relationsOf(b);
  return r.includes('facility_only') && !r.includes('professional_only');
};

/**
 * The office visit a row of the group says its cost share is the same as ("SAME AS PRIMARY CARE"): the copay
 * and the coinsurance the office visit (98) or plan (30) rows of the network state for it (their MSG names it),
 * when they agree; null values when none or several.
 */
function officeShare(
  list: readonly Selectable[],
  kind: 'primary_care' | 'specialist',
  n: Net,
  fits: (p: PlaceFit) => boolean,
): { copay: { value: number | null; from: Selectable | null }; coins: { value: number | null; from: Selectable | null } } {
  const rows = list.filter(
    (b) => isCostShare(b) && b.tier >= 2 && costApplies(b, n) && fits(b.place) && b.loop.msg.some((m) => namesOfficeKind(el(m, 1), kind)),
  );
  const none: Selectable[] = [];
  return { copay: agreed(rows, 'copayment', readAmount, none), coins: agreed(rows, 'coinsurance', readShareQuiet, none) };
}

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

/**
 * The one value the rows of EB01 `role` (eb01.json: copayment B, coinsurance A) state, from the earliest row stating it; or null with those
 * rows in conflict when they state more than one.
 */
function agreed(
  rows: readonly Selectable[],
  role: 'copayment' | 'coinsurance',
  read: (b: Selectable) => number | null,
  conflicts: Selectable[],
): { value: number | null; from: Selectable | null } {
  // Each row's value is read once (an element slice and a decimal parse), again only for rows in conflict.
  let v: number | null = null;
  let from: Selectable | null = null;
  let same = true;
  for (const b of rows) {
    if (benefitRole(b.info) !== role) continue;
    const value = read(b);
    if (value === null) continue;
    if (from === null) {
      v = value;
      from = b;
    } else {
      if (value !== v) same = false;
      if (b.loop.seg.index < from.loop.seg.index) from = b;
    }
  }
  if (same) return { value: v, from };
  for (const b of rows) if (benefitRole(b.info) === role && read(b) !== null) conflicts.push(b);
  return { value: null, from: null };
}

const everyRow = () => true;

/**
 * The deductible hint of the rows `counts` keeps: what all of them that say one agree on, from the
 * earliest saying it; null when none says one or they disagree.
 */
function hintOf(rows: readonly Selectable[], counts: (b: Selectable) => boolean = everyRow): { hint: boolean | null; from: Selectable | null } {
  let hint: boolean | null = null;
  let from: Selectable | null = null;
  for (const b of rows) {
    if (b.deductibleHint === null || !counts(b)) continue;
    if (from === null) {
      hint = b.deductibleHint;
      from = b;
    } else if (b.deductibleHint !== hint) return { hint: null, from: null };
    else if (b.loop.seg.index < from.loop.seg.index) from = b;
  }
  return { hint, from };
}

/** The one network a row's EB12 names (Y in, N out), else null. */
function rowNetwork(b: Selectable): 'in' | 'out' | null {
  const n = networkOf(b.net);
  return n === 'in' || n === 'out' ? n : null;
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
        unread.push(...undecidedWords(el(m, 1), { providerNamed: named, network: rowNetwork(b) }, own));
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

export function traceGroup(group: ShareGroup, n: Net, prefix: string, out: TraceEntry[]): void {
  // No behavioral-health type states a cost share: the fallback order prices it, and the explanation says so (docs/estimates.md 1.1).
  const fallback = group.tier >= 2 ? ` (fallback: no behavioral-health cost share; order ${FALLBACK_ORDER[group.fallback]})` : '';
  const where = `most specific service type with a cost share: ${TIER_NAME[group.tier] ?? group.tier}${group.sources.explicit ? ', place of service named' : ''}${fallback}`;
  if (group.notCovered) out.push(traced(`${prefix}not covered`, n, group.sources.notCovered, `EB01 I (${where}): the member pays the whole session`));
  const split = group.visitSplit;
  const byVisit = split
    ? `; the payer's MSG splits the year's visits after visit ${split.split}, and this is visit ${split.visit} (the visit limit's used count)`
    : '';
  const words = group.combine
    ? `; the payer's MSG says whichever is ${group.combine}: the member pays the ${group.combine} of the two, never both`
    : group.sameAs
      ? `; the row's MSG says the same as the ${group.sameAs === 'primary_care' ? 'primary care' : 'specialist'} office visit, whose copay and coinsurance these are`
      : group.insteadOf
        ? `; the payer's MSG says the ${group.insteadOf} applies instead of the ${group.insteadOf === 'copay' ? 'coinsurance' : 'copay'}: that one alone`
        : '';
  const qualified = group.qualified.length > 0 ? `; the payer's MSG says for this visit: "${group.qualified.join('"; "')}"` : '';
  if (group.copayment !== null) out.push(traced(`${prefix}copayment`, n, group.sources.copay, where + byVisit + words + qualified));
  else if (group.coinsurance !== null) out.push(traced(`${prefix}copayment`, n, null, 'none in that benefit; a less specific copay is never added'));
  if (group.coinsurance !== null) out.push(traced(`${prefix}coinsurance`, n, group.sources.coinsurance, where + byVisit + words + qualified));
  else if (group.copayment !== null) out.push(traced(`${prefix}coinsurance`, n, null, 'none in that benefit; a less specific coinsurance is never added'));
  for (const b of group.conflicts) {
    out.push({
      ...traced(
        `${prefix}${benefitRole(b.info) === 'copayment' ? 'copayment' : 'coinsurance'}`,
        n,
        b,
        group.byVisits
          ? `a copay and a coinsurance (${where}) stated for different visits of the year (MSG): which this visit is, the 271 does not say: unknown, never both`
          : group.byWords
            ? `a copay or coinsurance (${where}) related or qualified in words no rule reads (MSG${group.unread ? `: ${group.unread.join(' ')}` : ''}): unknown, never charged as if the words were absent`
            : `rows of the same rank (${where}) state different amounts: unknown, never the first`,
      ),
      status: 'conflict',
    });
  }
}

/** Where a row's MSGs split the year's visits, and which part they put the row on (visitSplitOf); null: none, or several. */
function splitOf(b: Selectable): { split: number; side: 'before' | 'after' } | null {
  let found: { split: number; side: 'before' | 'after' } | null = null;
  for (const m of b.loop.msg) {
    const s = visitSplitOf(el(m, 1));
    if (s === null) continue;
    if (found !== null && (found.split !== s.split || found.side !== s.side)) return null;
    found = s;
  }
  return found;
}

/**
 * A group whose copay and coinsurance are alternatives by visit count (byVisits), priced for visit number
 * `visit` of the year when the rows' MSGs say where the visits split and on which side each is ("FIRST 10
 * VISITS" / "BEGINNING WITH THE 11TH VISIT") and they agree: the one for this visit alone. Otherwise the
 * group as it is (both unknown). docs/estimates.md 1.1, "Cost shares by visit count".
 */
export function forVisit(group: ShareGroup, visit: number, warnings: string[]): ShareGroup {
  if (!group.byVisits || group.conflicts.length !== 2) return group;
  // The two alternatives: a copay and a coinsurance, or two copays (two coinsurances) of different amounts.
  const [copay, coins] = group.conflicts as [Selectable, Selectable];
  const c = splitOf(copay);
  const a = splitOf(coins);
  if (c === null && a === null) return group;
  if (c !== null && a !== null && (c.split !== a.split || c.side === a.side)) return group;
  const split = (c ?? a)!.split;
  const copaySide = c !== null ? c.side : a!.side === 'before' ? 'after' : 'before';
  const side = visit <= split ? 'before' : 'after';
  const row = side === copaySide ? copay : coins;
  const isCopay = benefitRole(row.info) === 'copayment';
  const value = isCopay ? readAmount(row) : readShare(row, warnings);
  if (value === null) return group;
  return {
    ...group,
    copayment: isCopay ? value : null,
    coinsurance: isCopay ? null : value,
    sources: { ...group.sources, copay: isCopay ? row : null, coinsurance: isCopay ? null : row },
    conflicts: [],
    byVisits: false,
    visitSplit: { visit, split, row },
  };
}
