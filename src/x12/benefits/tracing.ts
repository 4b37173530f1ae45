/**
 * Every EB row of the 271 named in the explanation (docs/estimates.md section 1.6): a row no figure
 * was read from gets one `skipped` entry saying why, so a figure never looks backed by more of the
 * answer than it is.
 */
import { el } from '../tokenizer.ts';
import type { Selectable } from './rows.ts';
import { traced, type TraceEntry } from './trace.ts';

export interface RowFacts extends Selectable {
  planWide: boolean;
}

/** Why a row that priced nothing was not used, from what it is. */
function reasonOf(b: RowFacts): string {
  const info = b.info;
  if (b.status) return `an eligibility status row (EB01 ${info}) for service type ${el(b.loop.seg, 3) || '(plan level)'}: it states coverage, not a price`;
  if (b.tier < 0) return `service type EB03 ${el(b.loop.seg, 3)} is not a behavioral-health type (MH, CF, A4, A6, A8, AI, 98 or 30)`;
  if (b.place === 'elsewhere') return 'its place of service (2115C III*ZZ) is not an office or telehealth visit';
  if (info === 'A' || info === 'B' || info === 'I' || info === 'C' || info === 'G' || info === 'F')
    return 'a more specific row (procedure, service type, place of service, network) states this figure';
  if (info === 'L' || info === 'N' || info === 'R' || info === 'U' || info === 'P' || info === 'X')
    return `EB01 ${info} names an entity or another payer (read for the PCP, other payers or a carve-out), not a price`;
  return `EB01 ${info} says nothing about the price of this session`;
}

/**
 * Adds a `skipped` entry for each row no entry names yet: `why` holds the reasons already known
 * (excluded by the encounter, next plan year, Medicare Part A).
 */
export function traceUnusedRows(rows: readonly RowFacts[], why: ReadonlyMap<RowFacts, string>, trace: TraceEntry[]): void {
  const named = new Set<number>();
  for (const e of trace) if (e.segment !== null) named.add(e.segment);
  for (const b of rows) {
    if (named.has(b.loop.seg.index)) continue;
    named.add(b.loop.seg.index);
    trace.push({ ...traced('not used', null, b, why.get(b) ?? reasonOf(b)), status: 'skipped' });
  }
}
