/**
 * Which 2110C benefits price a behavioral-health session (docs/estimates.md section 1).
 *
 * - A cost share is one benefit: copay, coinsurance and what the payer says about the deductible
 *   come from one group, the most specific service type that reports a cost share (EB01 A, B or I):
 *   MH, then CF/A4/A6/A7/A8/AI, then 98 (professional office visit), then 30 (plan level). A missing
 *   half is never filled in from a less specific benefit (005010X279A1 section 1.4.7: the most
 *   specific benefit governs).
 * - Place of service (2115C III*ZZ): 11 office prices an in-person session, 02/10 a telehealth one;
 *   an EB naming both is one price for both; any other place (21 inpatient, 23 ER, ...) never prices
 *   an office session. Without III the benefit applies wherever the service is given.
 * - EB01 I for the group: not covered, the member pays the whole session.
 * - The deductible applies to a copay only when the payer says so: an MSG in the group (else any MSG
 *   of the network), or a deductible reported at the copay's own service type or a more specific one.
 *   A coinsurance is taken to apply after a reported deductible unless an MSG waives it.
 * - EB11 Y / N on the group: prior authorization required / not required.
 */
import type { Accumulator, CostShare, NetworkBenefits } from '../domain/coverage.ts';
import { periodKind } from './codes.ts';
import type { BenefitLoop } from './loops.ts';
import { el } from './tokenizer.ts';
import { dollarsToCents, readNumber, shareToPercent } from './values.ts';

export type Net = 'in' | 'out';

/** Where a benefit applies, from its III*ZZ place-of-service codes. */
export type PlaceFit = 'any' | 'office' | 'telehealth' | 'both' | 'elsewhere';

/** What selection reads of one EB (normalize-271.ts's Benefit has these fields and more). */
export interface Selectable {
  loop: BenefitLoop;
  info: string;
  level: string;
  /** Specificity: 0 MH, 1 CF/A4/A6/A7/A8/AI, 2 98, 3 30 or empty; -1 not behavioral health. */
  tier: number;
  period: string;
  net: string;
  place: PlaceFit;
  status: boolean;
  /** A cost share or accumulator: EB01 A, B, C, G, or F with visits. */
  cost: boolean;
  deductibleHint: boolean | null;
}

/** The place a benefit applies to, from its 2115C III*ZZ codes. */
export function placeFit(loop: BenefitLoop): PlaceFit {
  if (loop.iii.length === 0) return 'any';
  let office = false;
  let tele = false;
  let zz = false;
  for (const iii of loop.iii) {
    if (el(iii, 1) !== 'ZZ') continue;
    zz = true;
    const code = el(iii, 2);
    if (code === '11') office = true;
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

/** The best (lowest) tier wins; document order breaks ties. */
export class Best {
  value: number | null = null;
  tier = 4;
  /** The EB the value came from (for the explanation). */
  from: Selectable | null = null;

  better(tier: number): boolean {
    return tier < this.tier;
  }

  offer(tier: number, value: number | null, from: Selectable | null = null): void {
    if (value !== null && tier < this.tier) {
      this.value = value;
      this.tier = tier;
      this.from = from;
    }
  }
}

/**
 * Where one figure came from: the EB (its position and text, and the elements a reader checks:
 * service type, coverage level, place of service, time period) and the rule that chose it.
 */
export interface TraceEntry {
  figure: string;
  network: Net | null;
  /** 1-based segment position in the interchange; null for a rule that reads no single EB. */
  segment: number | null;
  eb: string | null;
  /** EB03 service type code(s) as sent (repetitions keep the 271's separator). */
  service_type: string | null;
  /** EB02 coverage level (IND, FAM, ...). */
  coverage_level: string | null;
  /** 2115C III*ZZ place-of-service codes, comma-separated. */
  place_of_service: string | null;
  /** EB06 time period qualifier (23 calendar year, 29 remaining, 27 visit, ...). */
  time_period: string | null;
  rule: string;
  /** The other reading of an ambiguous answer, and what it would change. */
  alternative?: string;
  /** Set when the entry reads a carve-out administrator's 271 (its payer id), not the medical plan's. */
  administrator?: string;
}

const TIER_NAME = ['MH', 'CF/A4/A6/A7/A8/AI', '98 (professional office visit)', '30 (plan level)'];

function placesOf(loop: BenefitLoop): string | null {
  const codes = loop.iii.filter((iii) => el(iii, 1) === 'ZZ').map((iii) => el(iii, 2));
  return codes.length > 0 ? codes.join(', ') : null;
}

export function traced(figure: string, network: Net | null, b: Selectable | null, rule: string): TraceEntry {
  if (!b) return { figure, network, segment: null, eb: null, service_type: null, coverage_level: null, place_of_service: null, time_period: null, rule };
  const seg = b.loop.seg;
  return {
    figure,
    network,
    segment: seg.index,
    eb: seg.elements.join('*'),
    service_type: el(seg, 3) || null,
    coverage_level: el(seg, 2) || null,
    place_of_service: placesOf(b.loop),
    time_period: el(seg, 6) || null,
    rule,
  };
}

function remainingFromMet(total: number | null, met: number | null): number | null {
  return total !== null && met !== null ? Math.max(0, total - met) : null;
}

/** Deductible or out-of-pocket amounts by coverage level and period kind. */
class AccumulatorReader {
  readonly indTotal = new Best();
  readonly indRemaining = new Best();
  readonly indMet = new Best();
  readonly famTotal = new Best();
  readonly famRemaining = new Best();
  readonly famMet = new Best();
  /** The most specific tier any amount (or an amount-less EB) was reported at. */
  tier = 4;

  offer(b: Selectable): void {
    if (b.tier < this.tier) this.tier = b.tier;
    const kind = periodKind(b.period);
    if (kind === 'other') return;
    const family = isFamilyLevel(b.level);
    const slot =
      kind === 'total'
        ? family
          ? this.famTotal
          : this.indTotal
        : kind === 'remaining'
          ? family
            ? this.famRemaining
            : this.indRemaining
          : family
            ? this.famMet
            : this.indMet;
    if (slot.better(b.tier)) slot.offer(b.tier, readAmount(b), b);
  }

  trace(figure: string, n: Net, out: TraceEntry[]): void {
    const slots: [Best, string][] = [
      [this.indTotal, 'individual total'],
      [this.indRemaining, 'individual remaining'],
      [this.indMet, 'individual met (remaining = total - met)'],
      [this.famTotal, 'family total'],
      [this.famRemaining, 'family remaining'],
      [this.famMet, 'family met (remaining = total - met)'],
    ];
    for (const [slot, what] of slots) {
      if (slot.from) out.push(traced(`${figure} ${what}`, n, slot.from, `EB06 ${slot.from.period || '(none)'}, most specific service type that reports it`));
    }
  }

  result(): { individual: Accumulator; family: Accumulator } {
    return {
      individual: { total: this.indTotal.value, remaining: this.indRemaining.value ?? remainingFromMet(this.indTotal.value, this.indMet.value) },
      family: { total: this.famTotal.value, remaining: this.famRemaining.value ?? remainingFromMet(this.famTotal.value, this.famMet.value) },
    };
  }
}

/** EB01 A, B or I: the benefits that say what the member pays for the service. */
const isShareInfo = (info: string) => info === 'A' || info === 'B' || info === 'I';

/** One cost-share group: the EBs of the most specific tier that reports a cost share for the place. */
export interface ShareGroup {
  tier: number;
  copayment: number | null;
  coinsurance: number | null;
  notCovered: boolean;
  /** EB11 of the group: Y true, N false, neither null. */
  priorAuth: boolean | null;
  hint: boolean | null;
  /** The EBs the values came from (for the explanation). */
  sources: { copay: Selectable | null; coinsurance: Selectable | null; notCovered: Selectable | null; hint: Selectable | null; explicit: boolean };
}

/**
 * The group that prices a session at `fits` places for network n, or null when no EB A/B/I applies.
 * Within the winning tier, EBs naming the place explicitly beat EBs without III.
 */
export function shareGroup(list: readonly Selectable[], n: Net, fits: (p: PlaceFit) => boolean, warnings: string[]): ShareGroup | null {
  let tier = 4;
  let explicit = false;
  for (const b of list) {
    if (!isShareInfo(b.info) || !costApplies(b, n) || !fits(b.place)) continue;
    const e = b.place !== 'any';
    if (b.tier < tier || (b.tier === tier && e && !explicit)) {
      tier = b.tier;
      explicit = e;
    }
  }
  if (tier === 4) return null;
  let copayment: number | null = null;
  let coinsurance: number | null = null;
  let notCovered = false;
  let priorAuth: boolean | null = null;
  let hint: boolean | null = null;
  const sources: ShareGroup['sources'] = { copay: null, coinsurance: null, notCovered: null, hint: null, explicit };
  for (const b of list) {
    if (b.tier !== tier || !costApplies(b, n)) continue;
    if ((b.status || b.cost) && hint === null && b.deductibleHint !== null) {
      hint = b.deductibleHint;
      sources.hint = b;
    }
    if (!isShareInfo(b.info) || !fits(b.place) || (explicit && b.place === 'any')) continue;
    if (b.info === 'B') {
      if (copayment === null) {
        copayment = readAmount(b);
        sources.copay = b;
      }
    } else if (b.info === 'A') {
      if (coinsurance === null) {
        coinsurance = readShare(b, warnings);
        sources.coinsurance = b;
      }
    } else {
      notCovered = true;
      sources.notCovered ??= b;
    }
    const eb11 = el(b.loop.seg, 11);
    if (eb11 === 'Y') priorAuth = true;
    else if (eb11 === 'N') priorAuth ??= false;
  }
  // An EB*I beside a cost share of the same tier speaks for some other part of the service.
  if (copayment !== null || coinsurance !== null) notCovered = false;
  return { tier, copayment, coinsurance, notCovered, priorAuth, hint, sources };
}

function traceGroup(group: ShareGroup, n: Net, prefix: string, out: TraceEntry[]): void {
  const where = `most specific service type with a cost share: ${TIER_NAME[group.tier] ?? group.tier}${group.sources.explicit ? ', place of service named' : ''}`;
  if (group.notCovered) out.push(traced(`${prefix}not covered`, n, group.sources.notCovered, `EB01 I (${where}): the member pays the whole session`));
  if (group.copayment !== null) out.push(traced(`${prefix}copayment`, n, group.sources.copay, where));
  else if (group.coinsurance !== null) out.push(traced(`${prefix}copayment`, n, null, 'none in that benefit; a less specific copay is never added'));
  if (group.coinsurance !== null) out.push(traced(`${prefix}coinsurance`, n, group.sources.coinsurance, where));
  else if (group.copayment !== null) out.push(traced(`${prefix}coinsurance`, n, null, 'none in that benefit; a less specific coinsurance is never added'));
}

/** Visit counts from EB09 VS / EB10 or from 2110C HSD*VS (HSD05 the period: 29 remaining). */
function offerVisits(b: Selectable, total: Best, remaining: Best): void {
  if (el(b.loop.seg, 9) === 'VS') {
    const kind = periodKind(b.period);
    const slot = kind === 'remaining' ? remaining : kind === 'total' ? total : null;
    if (slot?.better(b.tier)) slot.offer(b.tier, readNumber(el(b.loop.seg, 10)), b);
  }
  for (const h of b.loop.hsd) {
    if (el(h, 1) !== 'VS') continue;
    const kind = periodKind(el(h, 5) || b.period);
    const slot = kind === 'remaining' ? remaining : kind === 'total' ? total : null;
    if (slot?.better(b.tier)) slot.offer(b.tier, readNumber(el(h, 2)), b);
  }
}

export const hasVisitLimit = (loop: BenefitLoop) => el(loop.seg, 9) === 'VS' || loop.hsd.some((h) => el(h, 1) === 'VS');

/** The behavioral-health benefits of network n, or null when the 271 says nothing about it. */
export function networkBenefits(bh: readonly Selectable[], n: Net, warnings: string[], trace?: TraceEntry[]): NetworkBenefits | null {
  let deductible: AccumulatorReader | null = null;
  let oop: AccumulatorReader | null = null;
  let visitTotal: Best | null = null;
  let visitRemaining: Best | null = null;
  let anyHint: boolean | null = null;
  let anyHintFrom: Selectable | null = null;
  let known = false;
  for (const b of bh) {
    if (!costApplies(b, n)) continue;
    if ((b.status || b.cost) && anyHint === null && b.deductibleHint !== null) {
      anyHint = b.deductibleHint;
      anyHintFrom = b;
    }
    if (b.info === 'I') known = true;
    if (!b.cost) {
      if (b.status && statusApplies(b, n)) known = true;
      continue;
    }
    known = true;
    if (b.info === 'C') (deductible ??= new AccumulatorReader()).offer(b);
    else if (b.info === 'G') (oop ??= new AccumulatorReader()).offer(b);
    else if (b.info === 'F') offerVisits(b, (visitTotal ??= new Best()), (visitRemaining ??= new Best()));
  }
  if (!known) return null;
  const group = shareGroup(bh, n, pricesOffice, warnings);
  const hint = group?.hint ?? anyHint;
  let applies: boolean;
  if (hint !== null) applies = hint;
  else if (!group || group.coinsurance !== null || group.notCovered) applies = deductible !== null;
  // A copay waits for the deductible only when the deductible is reported for its own service type (or a more specific one).
  else applies = deductible !== null && deductible.tier <= group.tier;
  const out: NetworkBenefits = {
    copayment: group?.copayment ?? null,
    coinsurance: group?.coinsurance ?? null,
    deductible_applies: applies,
    deductible: deductible?.result() ?? null,
    oop_max: oop?.result() ?? null,
    visit_limit: visitTotal ? { total: visitTotal.value, remaining: visitRemaining!.value } : null,
  };
  if (group?.notCovered) out.not_covered = true;
  if (group && group.priorAuth !== null) out.prior_authorization_required = group.priorAuth;
  if (trace) {
    if (group) traceGroup(group, n, '', trace);
    else trace.push(traced('cost share', n, null, 'no EB A, B or I for the mental-health service types, 98 or 30: unknown'));
    const from = group && group.hint !== null ? group.sources.hint : anyHintFrom;
    const why =
      hint !== null
        ? `the payer's MSG says so: "${from?.loop.msg.map((m) => el(m, 1)).find((t) => t !== '') ?? ''}"`
        : !group || group.coinsurance !== null || group.notCovered
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
    if (visitTotal?.from) trace.push(traced('visit limit total', n, visitTotal.from, 'EB09 VS / HSD*VS'));
    if (visitRemaining?.from) trace.push(traced('visits remaining', n, visitRemaining.from, 'EB09 VS / HSD*VS, period 29 remaining'));
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
