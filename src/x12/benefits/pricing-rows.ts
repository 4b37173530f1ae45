/**
 * The lists a network's benefits are priced from (benefits/pricing.ts), for this plan year's rows or,
 * for a date of service in the next plan year, for that year's (docs/estimates.md section 1.3).
 */
import type { Encounter } from '../../domain/encounter.ts';
import { namesNatureOfInjury } from '../code-tables/attributes.ts';
import { isShareInfo, type Benefit } from '../eb-benefit.ts';
import { unknownScope } from './closed-world.ts';
import { excludedBy } from './filters.ts';
import { otherProviderWords } from './providers.ts';
import { otherModality } from './therapy-modality.ts';
import { pricesTelehealth, type PlaceFit } from './rows.ts';
import { el } from '../tokenizer.ts';

/**
 * The rows a network's benefits are read from: all that apply, those for behavioral health at the visit's
 * place, and telehealth's; and the rows with values no rule reads (closed-world.ts), which price nothing
 * but make a figure they compete for unknown.
 */
export interface PricingRows {
  current: Benefit[];
  bh: Benefit[];
  teleList: Benefit[];
  unknown: Benefit[];
}

export function addPricingRow(b: Benefit, rows: PricingRows, pricesHere: (p: PlaceFit) => boolean): void {
  rows.current.push(b);
  if (b.unknown.length > 0) {
    // An unknown service type may be a behavioral-health one.
    if (b.tier >= 0 || unknownScope(b, 'service')) rows.unknown.push(b);
    return;
  }
  if (b.tier < 0) return;
  // An EB listed for the office and telehealth alike prices both; inpatient or ER EBs price neither.
  if (pricesTelehealth(b.place)) rows.teleList.push(b);
  if (pricesHere(b.place) || !isShareInfo(b.info)) rows.bh.push(b);
}

/**
 * Why a row does not apply to the encounter (filters.ts excludedBy), or null; a plan-level status row
 * states the plan's own dates (plan-dates-in-2110c), which the plan gate reads: it is never filtered.
 */
export function rowExcludedBy(b: Benefit, encounter: Encounter): string | null {
  if (b.status && b.planWide) return null;
  // A figure for another provider (its 2120C names them by NPI, none ours) is theirs (providers.ts).
  if (b.provider?.fit === 'other') return otherProviderWords(b.provider);
  // A row for other places only (inpatient 21, ER 23, ...): its copay, accumulator, limit or status is theirs, never the visit's.
  if (b.place === 'elsewhere' && !unknownScope(b, 'place')) return "its places of service (2115C III*ZZ) are neither the visit's nor telehealth";
  // A row for care of one nature of injury (2115C III*NI/GR) is not a session the request names no injury for.
  const injury = b.loop.iii.find((iii) => namesNatureOfInjury(el(iii, 1)));
  if (injury) return `its nature of injury (2115C III*${el(injury, 1)}*${el(injury, 2)}) limits it to care for that injury; the visit names none`;
  // A copay or coinsurance described as another kind of psychotherapy (EB05 or an MSG: "GROUP THERAPY") than the visit's procedure.
  if (isShareInfo(b.info)) {
    const procedure = encounter.procedure_code ?? null;
    for (const text of [el(b.loop.seg, 5), ...b.messages]) {
      const modality = otherModality(text, procedure);
      if (modality) return modality;
    }
  }
  // An EB13 procedure in a code list no rule reads may be the encounter's: only the row's other restrictions exclude it.
  if (unknownScope(b, 'procedure')) return excludedBy({ ...b, procedure: null, procedureEnd: null, modifiers: [] }, encounter);
  return excludedBy(b, encounter);
}

/** The next plan year's rows that apply to the encounter (the filters this year's rows pass); the rest are skipped. */
export function nextYearRows(
  next: readonly Benefit[],
  encounter: Encounter,
  skipped: { b: Benefit; why: string }[],
  pricesHere: (p: PlaceFit) => boolean,
): PricingRows {
  const rows: PricingRows = { current: [], bh: [], teleList: [], unknown: [] };
  for (const b of next) {
    const why = rowExcludedBy(b, encounter);
    if (why !== null) skipped.push({ b, why });
    else addPricingRow(b, rows, pricesHere);
  }
  return rows;
}
