/** One EB row as the selection rules read it (docs/estimates.md section 1.1), and the small readers they share. */
import { benefitRole, isTelehealthPlace, namesAnyTelehealth, namesPlaceOfService, networkOf } from '../code-tables/attributes.ts';
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { dollarsToCents, shareToPercent } from '../values.ts';

export { isFamilyLevel } from '../code-tables/attributes.ts';

/** EB01 I (non-covered) or E (exclusions): the row says the service it names is not covered (docs/estimates.md 1.1, "Not covered is an answer"). */
export const isNotCoveredInfo = (info: string) => benefitRole(info) === 'not_covered';
/** EB01 A, B, I or E (eb01.json `role` coinsurance, copayment, not covered): the benefits that say what the member pays for the service. */
export function isShareInfo(info: string): boolean {
  const role = benefitRole(info);
  return role === 'coinsurance' || role === 'copayment' || role === 'not_covered';
}

export type Net = 'in' | 'out';

/** One value of a row no rule reads (closed-world.ts): the element (EB13-01), the value as sent, and why it is unknown. */
export interface UnknownValue {
  element: string;
  value: string;
  why: string;
  /** The element decides where the row applies (code-tables/elements.json `scope`). */
  scope: 'service' | 'procedure' | 'place' | 'network' | null;
}
/** The order of the office visit (98) and plan (30) cost shares when no behavioral-health one is stated (docs/estimates.md 1.1, "Fallback order"). */
export type CostShareFallback = '98-then-30' | '30-then-98';

/** Where a row applies (placeFit): 'office' is the visit's own in-person place, 11 unless the encounter names another. */
export type PlaceFit = 'any' | 'office' | 'telehealth' | 'both' | 'elsewhere';

/** What selection reads of one EB (normalize-271.ts's Benefit has these fields and more). */
export interface Selectable {
  loop: BenefitLoop;
  info: string;
  level: string;
  /** Specificity: 0 MH, 1 CF/A4/A6/A7/A8/AI (A7 only ever for an inpatient encounter), 2 98, 3 30 or empty; -1 not behavioral health. */
  tier: number;
  period: string;
  net: string;
  place: PlaceFit;
  /** The row's III*ZZ names the visit's own place of service (10 for a visit at 10, not only its sibling 02): absent, false. */
  exactPlace?: boolean;
  status: boolean;
  /** A cost share or accumulator: EB01 A, B, C, G, or F with a unit of service (visits, hours, days, ...: benefits/accumulators.ts hasServiceLimit). */
  cost: boolean;
  deductibleHint: boolean | null;
  /** EB13-2: the procedure the row is restricted to (it applies to the encounter only when it names its procedure). */
  procedure: string | null;
  /** EB13-8: the end of a range of procedures starting at `procedure` (absent or null: the code alone). */
  procedureEnd?: string | null;
  /** EB03 codes as sent (repetitions split); for the explanation's words. */
  serviceTypes?: readonly string[];
  /** Values no rule reads (closed-world.ts); absent or empty: none. */
  unknown?: readonly UnknownValue[];
  /** A figure row whose 2120C names a provider: whether it is the treating provider (providers.ts); absent or null: none named. */
  provider?: { fit: 'ours' | 'other' | 'unknown' } | null;
}

/**
 * The place a benefit applies to, from its 2115C III*ZZ codes, for a visit in person at `inPerson`
 * (11 office unless the encounter names another place: 53 community mental health center, 12 home,
 * ...): 'office' names that place, 'telehealth' 02 or 10 (for a telehealth visit at `visitPlace`: that
 * place, or 02, which named all telehealth before 2022), 'both' the two, 'elsewhere' only other places (it never prices the visit), 'any' no place (it applies wherever the service is given).
 */
export function placeFit(loop: BenefitLoop, inPerson = '11', visitPlace = inPerson): PlaceFit {
  if (loop.iii.length === 0) return 'any';
  // A telehealth visit is priced by a row naming its own telehealth place, or one whose code named all telehealth
  // before 2022 (02 for a visit at 10); a row naming only 10 (the home) names another place than 02 (CMS 2022).
  const teleVisit = isTelehealthPlace(visitPlace);
  let office = false;
  let tele = false;
  let zz = false;
  for (const iii of loop.iii) {
    if (!namesPlaceOfService(el(iii, 1))) continue;
    zz = true;
    const code = el(iii, 2);
    if (code === inPerson) office = true;
    else if (isTelehealthPlace(code) && (!teleVisit || code === visitPlace || namesAnyTelehealth(code))) tele = true;
  }
  if (!zz) return 'any';
  if (office && tele) return 'both';
  return office ? 'office' : tele ? 'telehealth' : 'elsewhere';
}

/** Whether the row's 2115C III*ZZ names place of service `code` itself (docs/estimates.md 1.1, "Place of service"). */
export function namesPlace(loop: BenefitLoop, code: string): boolean {
  for (const iii of loop.iii) if (namesPlaceOfService(el(iii, 1)) && el(iii, 2) === code) return true;
  return false;
}

/**
 * The place part of a cost share's rank, smaller is more specific: a row naming the visit's own place
 * (0), one naming a place that prices the visit without being it (2: the other telehealth place, 02 for a
 * visit at 10), one naming no place (4). Below the network bit of rowRank's 1, above nothing else.
 */
export const placeRank = (b: Pick<Selectable, 'place' | 'exactPlace'>) => (b.place === 'any' ? 4 : b.exactPlace === true ? 0 : 2);

export const pricesOffice = (p: PlaceFit) => p === 'any' || p === 'office' || p === 'both';
export const pricesTelehealth = (p: PlaceFit) => p === 'telehealth' || p === 'both';

/** Cost EBs without EB12 (or with W) apply to both networks (eb12.json `network`); one with U carries an unknown value (closed-world.ts) and prices neither. */
export function costApplies(b: Pick<Selectable, 'net'>, n: Net): boolean {
  const network = networkOf(b.net);
  return network === 'in' || network === 'out' ? network === n : true;
}

/** Status EBs only speak for a network they name, or both when EB12 says so (W). */
export function statusApplies(b: Pick<Selectable, 'net'>, n: Net): boolean {
  const network = networkOf(b.net);
  return network === 'in' || network === 'out' ? network === n : network === 'both';
}

export function readAmount(b: Pick<Selectable, 'loop'>): number | null {
  const v = el(b.loop.seg, 7);
  return v === '' ? null : dollarsToCents(v);
}

/**
 * EB08 is a decimal share (0.2 = 20 %). A value above 1 cannot be a share: payers that send the
 * whole percent (`20`) mean 20 %, read so with a warning (never 2000 %).
 */
export function readShare(b: Pick<Selectable, 'loop'>, warnings?: string[]): number | null {
  const v = el(b.loop.seg, 8);
  if (v === '') return null;
  const p = shareToPercent(v);
  if (p === null || p <= 100) return p;
  warnings?.push(`EB08 ${v} at segment ${b.loop.seg.index} is above 1; read as ${p / 100} %`);
  return p / 100;
}

/** readShare without its warnings, for a reader handed only the row (pick, agreed). */
export const readShareQuiet = (b: Pick<Selectable, 'loop'>) => readShare(b);

/** EB12 Y or N: the row names its network (beats a row for both networks). */
export function namesNetwork(b: Pick<Selectable, 'net'>): boolean {
  return statedNetwork(b.net) !== null;
}

/** The one network an EB12 names (Y in, N out), else null (both, unstated, or no TR3 code). */
export function statedNetwork(eb12: string): 'in' | 'out' | null {
  const network = networkOf(eb12);
  return network === 'in' || network === 'out' ? network : null;
}

/**
 * The specificity order (docs/estimates.md section 1.1), smaller is more specific: a row restricted
 * to the encounter's procedure (EB13), then one restricted to a range of procedures holding it, then
 * the service type tier, then a row naming its network. Place of service is ranked by the cost-share
 * group itself (benefits/share-group.ts).
 */
export function rowRank(b: Pick<Selectable, 'procedure' | 'procedureEnd' | 'tier' | 'net'>): number {
  const procedure = b.procedure === null ? 1000 : b.procedureEnd != null ? 500 : 0;
  return procedure + b.tier * 10 + (namesNetwork(b) ? 0 : 1);
}

/**
 * A cost share's rank from its parts (share-group.ts shareRank, closed-world.ts competingShareRank), smaller is
 * more specific: `scope` the procedure and service type part of rowRank (0, 10, 20, ... within a procedure
 * level), then a row naming the treating provider in its 2120C (`ours`: docs/estimates.md 1.1, "Rows for a named
 * provider"), then the place (placeRank 0, 2, 4), then the network bit (`net` 0 or 1). The scope is doubled so
 * that the provider, place and network parts (0 to 11) stay within one service type tier.
 */
export function shareRankOf(scope: number, net: number, place: number, ours: boolean): number {
  return scope * 2 + (ours ? 0 : 6) + place + net;
}
