/** One 2110C EB read once into what the selection rules ask of it, and the small readers they share. */
import type { CoverageStatus, IsoDate } from '../domain/coverage.ts';
import { hasServiceLimit, placeFit, type PlaceFit } from './benefit-selection.ts';
import { bhTier, tierOf } from './codes.ts';
import { benefitDtp, benefitRole, isPlanLevelType, statusCoverage } from './code-tables/attributes.ts';
import type { BenefitRole } from './code-tables/index.ts';
import type { Delimiters } from './delimiters.ts';
import { readHints } from './hints.ts';
import { type BenefitLoop } from './loops.ts';
import { benefitWindow, type RowScope } from './benefits/filters.ts';
import { unknownValues, type UnknownValue } from './benefits/closed-world.ts';
import { isShareInfo, namesPlace, statedNetwork } from './benefits/rows.ts';
import { providerFit, type ProviderFit } from './benefits/providers.ts';
import { components, el, repetitions } from './tokenizer.ts';
import { readDtpDate } from './values.ts';

/** A row is its own RowScope (service types, procedure, window, period): what excludedBy reads. */
export interface Benefit extends RowScope {
  loop: BenefitLoop;
  info: string;
  level: string;
  /** EB03 is empty or holds 30: the EB speaks for the whole plan. */
  planWide: boolean;
  tier: number;
  period: string;
  /** EB04, the insurance type code ('' when absent). */
  insurance: string;
  net: string;
  /** Where the benefit applies (2115C III*ZZ). */
  place: PlaceFit;
  /** The row's III*ZZ names the encounter's own place of service (benefits/rows.ts placeRank). */
  exactPlace: boolean;
  /** Telehealth only (III*ZZ 02/10 without 11). */
  telehealth: boolean;
  /** DTP*348 benefit begin, when sent. */
  begin: IsoDate | null;
  /** EB01 1-8: an eligibility status. */
  status: boolean;
  /** A cost share or accumulator: EB01 A, B, C, G, or F with a unit of service (visits, hours, days, ...). */
  cost: boolean;
  /** Non-empty MSG texts of the loop. */
  messages: string[];
  /** What its MSGs say about the deductible (the first that says anything). */
  deductibleHint: boolean | null;
  marketplace: boolean;
  bluecard: boolean;
  hdhp: boolean;
  /** EB13-2: the procedure the row is restricted to, when it is. */
  procedure: string | null;
  /** Values no rule reads (benefits/closed-world.ts): the row cannot price; a figure it competes for is unknown. */
  unknown: readonly UnknownValue[];
  /** A row stating a figure whose 2120C names a provider: whether it is the treating provider (benefits/providers.ts); null: none named. */
  provider: ProviderFit | null;
}

export const NO_MESSAGES: string[] = [];
const NO_MODIFIERS: readonly string[] = [];

export const orNull = (s: string) => (s === '' ? null : s);
/** EB01 A, B, C, G (eb01.json `role`): a cost share or an accumulator. */
export function isCostInfo(info: string): boolean {
  const role = benefitRole(info);
  return role === 'coinsurance' || role === 'copayment' || role === 'deductible' || role === 'out_of_pocket';
}
export const isStatus = (b: Benefit) => b.status;
export const isCost = (b: Benefit) => b.cost;
export { isNotCoveredInfo, isShareInfo, readShareQuiet } from './benefits/rows.ts';

/** Whether `s` holds the character `c` (EB03 is a code or two: a loop beats a call to includes). */
function holds(s: string, c: number): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === c) return true;
  return false;
}

/**
 * One EB row; `inPerson` is the place of service a visit in person is priced at (placeFit), `visitPlace`
 * the encounter's own place (a telehealth visit's 02 or 10), which a row naming it exactly ranks first for;
 * `treatingNpi` the provider of the encounter, whom a row naming a provider in its 2120C is held to.
 */
export function readBenefit(loop: BenefitLoop, d: Delimiters, inPerson = '11', visitPlace = inPerson, treatingNpi: string | null = null): Benefit {
  const s = loop.seg;
  const eb03 = el(s, 3);
  const services = d.repetition !== null && holds(eb03, d.repetition.charCodeAt(0)) ? repetitions(eb03, d) : null;
  let begin: IsoDate | null = null;
  // Most EBs have none of these; the length checks skip setting up the loops.
  if (loop.dtp.length > 0) {
    for (const dtp of loop.dtp) {
      const q = el(dtp, 1);
      if (benefitDtp.of(q) === 'benefit' && benefitDtp.date(q) === 'begin') {
        begin = readDtpDate(el(dtp, 2), el(dtp, 3))?.start ?? null;
        if (begin) break;
      }
    }
  }
  const place = placeFit(loop, inPerson, visitPlace);
  const info = el(s, 1);
  const period = el(s, 6);
  const eb13 = el(s, 13);
  const composite = eb13 === '' ? null : components(eb13, d);
  const procedure = composite === null ? null : (composite[1] ?? '') || null;
  const modifiers = composite === null || composite.length <= 2 ? NO_MODIFIERS : composite.slice(2, 6).filter((m) => m !== '');
  const procedureEnd = procedure === null ? null : (composite![7] ?? '') || null;
  const serviceTypes = services ?? (eb03 === '' ? [] : [eb03]);
  const role = benefitRole(info);
  const cost = isCostInfo(info) || (role === 'limitation' && hasServiceLimit(loop));
  const figureRow = cost || role === 'limitation' || isShareInfo(info);
  // A figure tied to the treating provider by NPI is read; one for another provider is skipped (rowExcludedBy), one not told stays unknown.
  const provider = figureRow ? providerFit(loop, treatingNpi) : null;
  let messages = NO_MESSAGES;
  let deductibleHint: boolean | null = null;
  let marketplace = false;
  let bluecard = false;
  let hdhp = false;
  if (loop.msg.length > 0) {
    const network = statedNetwork(el(s, 12));
    for (const m of loop.msg) {
      const text = el(m, 1);
      if (text === '') continue;
      if (messages === NO_MESSAGES) messages = [];
      messages.push(text);
      const h = readHints(text, network);
      deductibleHint ??= h.deductible;
      marketplace ||= h.marketplace;
      bluecard ||= h.bluecard;
      hdhp ||= h.hdhp;
    }
  }
  return {
    loop,
    info,
    level: el(s, 2),
    planWide: services ? services.some(isPlanLevelType) : eb03 === '' || isPlanLevelType(eb03),
    tier: services ? bhTier(services) : eb03 === '' ? 3 : tierOf(eb03),
    period,
    insurance: el(s, 4),
    net: el(s, 12),
    place,
    exactPlace: place !== 'any' && namesPlace(loop, visitPlace),
    telehealth: place === 'telehealth',
    begin,
    status: role === 'status',
    cost,
    messages,
    deductibleHint,
    marketplace,
    bluecard,
    hdhp,
    procedure,
    procedureEnd,
    modifiers,
    serviceTypes,
    window: loop.dtp.length > 0 ? benefitWindow(loop) : OPEN,
    unknown: unknownValues(loop, d, figureRow, provider?.fit === 'ours'),
    provider,
  };
}

const OPEN = { begin: null, end: null };

/** Picks the EB of EB01 `role` (eb01.json) of the best behavioral-health tier that carries the value; document order breaks ties. */
export function pick<T>(list: Benefit[], role: BenefitRole, read: (b: Benefit) => T | null): T | null {
  let best: T | null = null;
  let bestTier = Infinity;
  for (const b of list) {
    if (benefitRole(b.info) !== role || b.tier >= bestTier) continue;
    const v = read(b);
    if (v !== null) {
      best = v;
      bestTier = b.tier;
    }
  }
  return best;
}

/** EB05, EB07 and EB08 are read when needed: most EBs are never asked for them. */
export const insuranceCode = (b: Benefit) => b.insurance;
export const planDescription = (b: Benefit) => el(b.loop.seg, 5);
/** What a status code (EB01 1-8) says of coverage (eb01.json `coverage`); a code that is no status reads as active, as it always did. */
export function statusOf(code: string): CoverageStatus {
  return statusCoverage(code) ?? 'active';
}
