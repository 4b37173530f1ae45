/**
 * The benefits room's one entry point: x12/ reads the 271 into a table of benefit rows (eb-benefit.ts
 * `Benefit`, in content order), and the room prices the encounter from them (docs/estimates.md
 * section 1.1): it sorts the rows into the lists the readers need, reads the gates, and gives each
 * network's figures. The reader outside the room (normalize-271.ts) imports it through this file only.
 */
import type { CostShare, NetworkBenefits } from '../../domain/coverage.ts';
import type { Encounter } from '../../domain/encounter.ts';
import type { Benefit } from '../eb-benefit.ts';
import { priceRows, type PricingFacts } from './pricing.ts';
import { nextYearRows, type PricingRows } from './pricing-rows.ts';
import type { PlaceFit } from './rows.ts';
import type { TraceEntry } from './trace.ts';

export { ageOn } from './age-condition.ts';
export { byContent } from './content-order.ts';
export { unknownMemberDates } from './closed-world.ts';
export { endStatedBy, saysCue } from './phrases.ts';
export { rowExcludedBy } from './pricing-rows.ts';
export { sortRows, type RowLists } from './row-lists.ts';
export { traceRows } from './tracing.ts';
export type { PricingFacts } from './pricing.ts';
export type { CostShareFallback, PlaceFit } from './rows.ts';
export type { TraceEntry } from './trace.ts';

/** What the room answers for the encounter: each network's figures, telehealth's, and what the explanation names. */
export interface EncounterPrice {
  in_network: NetworkBenefits | null;
  out_of_network: NetworkBenefits | null;
  teleIn: CostShare | null;
  teleOut: CostShare | null;
  partAFiltered: readonly Benefit[];
  /** The next plan year's rows price the encounter (its date of service is in that year). */
  nextYear: boolean;
  /** This year's in-network benefits when the next year's priced: the reset rules compare them. */
  thisYearInNetwork?: NetworkBenefits | null;
}

/**
 * Prices the encounter: this plan year's rows, or, for a date of service after this plan year's end
 * and in the next plan year the payer reports, that year's rows (docs/estimates.md section 1.1, "The
 * plan year of the date of service"); rows of the next year the encounter excludes go to `skipped`.
 */
export function priceEncounter(
  year: { thisYear: PricingRows; next: readonly Benefit[]; planEnd: string | null; nextBegin: string | null },
  encounter: Encounter | null,
  facts: PricingFacts,
  pricesHere: (p: PlaceFit) => boolean,
  out: { skipped: { b: Benefit; why: string }[]; warnings: string[]; trace: TraceEntry[] | undefined },
): EncounterPrice {
  const { thisYear, next, planEnd, nextBegin } = year;
  const inNextYear =
    encounter !== null && planEnd !== null && nextBegin !== null && encounter.date_of_service > planEnd && nextBegin <= encounter.date_of_service;
  const nextYear = inNextYear ? nextYearRows(next, encounter, out.skipped, pricesHere) : null;
  const priced = priceRows(nextYear ?? thisYear, facts, out.warnings, out.trace);
  if (!nextYear) return { ...priced, nextYear: false };
  // This year's in-network benefits, for the reset rules' comparison only: read quietly (they price nothing).
  return { ...priced, nextYear: true, thisYearInNetwork: priceRows(thisYear, { ...facts, ownService: null }, [], undefined).in_network };
}
