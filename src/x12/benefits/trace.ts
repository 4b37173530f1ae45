/** Where each figure came from (docs/estimates.md section 1.6): one entry per EB row used, skipped or in conflict. */
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { ebWords } from '../code-tables/index.ts';
import { namesPlaceOfService, placeWords, TIER_NAMES } from '../code-tables/attributes.ts';
import type { Net, Selectable } from './rows.ts';

function rowWords(b: Selectable): string {
  const seg = b.loop.seg;
  const types = b.serviceTypes ?? (el(seg, 3) === '' ? [] : [el(seg, 3)]);
  let words = ebWords(seg, types);
  const places = placesOf(b.loop);
  if (places)
    words += `; place of service ${places
      .split(', ')
      .map((p) => `${p} ${placeWords(p) ?? '(see the CMS list)'}`)
      .join(', ')}`;
  if (b.procedure) words += `; EB13 procedure ${b.procedure}`;
  return words;
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
  /** Every code of the row in words beside the code. */
  words?: string;
  /** Set on a row that does not price the answer: skipped (with the reason in `rule`) or contradicting it. */
  status?: 'skipped' | 'conflict';
}

/** The specificity tiers in words (eb03.json `tierNames`). */
export const TIER_NAME = TIER_NAMES;

function placesOf(loop: BenefitLoop): string | null {
  const codes = loop.iii.filter((iii) => namesPlaceOfService(el(iii, 1))).map((iii) => el(iii, 2));
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
    words: rowWords(b),
  };
}
