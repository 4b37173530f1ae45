/** One EB row as the selection rules read it (docs/estimates.md section 1.1), and the small readers they share. */
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { dollarsToCents, shareToPercent } from '../values.ts';

/** EB01 I (non-covered) or E (exclusions): the row says the service it names is not covered (docs/estimates.md 1.1, "Not covered is an answer"). */
export const isNotCoveredInfo = (info: string) => info === 'I' || info === 'E';
/** EB01 A, B, I or E: the benefits that say what the member pays for the service. */
export const isShareInfo = (info: string) => info === 'A' || info === 'B' || isNotCoveredInfo(info);

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

/** Where a benefit applies, from its III*ZZ place-of-service codes. */
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
}

/**
 * The place a benefit applies to, from its 2115C III*ZZ codes, for a visit in person at `inPerson`
 * (11 office unless the encounter names another place: 53 community mental health center, 12 home,
 * ...): 'office' names that place, 'telehealth' 02 or 10, 'both' the two, 'elsewhere' only other
 * places (it never prices the visit), 'any' no place (it applies wherever the service is given).
 */
export function placeFit(loop: BenefitLoop, inPerson = '11'): PlaceFit {
  if (loop.iii.length === 0) return 'any';
  let office = false;
  let tele = false;
  let zz = false;
  for (const iii of loop.iii) {
    if (el(iii, 1) !== 'ZZ') continue;
    zz = true;
    const code = el(iii, 2);
    if (code === inPerson) office = true;
    else if (code === '02' || code === '10') tele = true;
  }
  if (!zz) return 'any';
  if (office && tele) return 'both';
  return office ? 'office' : tele ? 'telehealth' : 'elsewhere';
}

export const pricesOffice = (p: PlaceFit) => p === 'any' || p === 'office' || p === 'both';
export const pricesTelehealth = (p: PlaceFit) => p === 'telehealth' || p === 'both';

/** Cost EBs without EB12 (or with W/U) apply to both networks. */
export function costApplies(b: Pick<Selectable, 'net'>, n: Net): boolean {
  if (b.net === 'Y') return n === 'in';
  if (b.net === 'N') return n === 'out';
  return true;
}

/** Status EBs only speak for a network they name. */
export function statusApplies(b: Pick<Selectable, 'net'>, n: Net): boolean {
  if (b.net === 'Y') return n === 'in';
  if (b.net === 'N') return n === 'out';
  return b.net === 'W';
}

/** EB02 coverage levels covering more than one person; IND, EMP and an absent EB02 are individual. */
export function isFamilyLevel(level: string): boolean {
  switch (level) {
    case 'FAM':
    case 'ESP':
    case 'ECH':
    case 'DEP':
    case 'CHD':
    case 'TWO':
    case 'SPC':
    case 'E1D':
    case 'E2D':
    case 'E3D':
    case 'E5D':
    case 'E6D':
    case 'E7D':
    case 'E8D':
    case 'E9D':
      return true;
    default:
      return false;
  }
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
export const namesNetwork = (b: Pick<Selectable, 'net'>) => b.net === 'Y' || b.net === 'N';

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
