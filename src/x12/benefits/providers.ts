/**
 * Rows for a named provider (docs/estimates.md 1.1, "Rows for a named provider"): a 2110C row stating a
 * figure whose 2120C loop names a provider (NM101 of nm101-2120.json `provider`: 1P provider, P3 primary
 * care provider, 73 other physician, FA facility, 13 contracted service provider, I3 IPA) states that
 * figure for that provider. TR3 005010X279A1 2120C: the entity "associated with the benefit" of its 2110C.
 * By NPI (NM108 XX, nm108-2120.json `identifies` npi) against the treating provider's: the row applies
 * when one provider it names is ours, belongs to another provider when every one it names has another
 * NPI, and cannot be told otherwise (no NPI, or no treating NPI known).
 */
import { identifiedBy, isProviderEntity } from '../code-tables/attributes.ts';
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';

/** What a row's named providers say of the treating provider: theirs (`ours`), another's, or not told. */
export interface ProviderFit {
  fit: 'ours' | 'other' | 'unknown';
  /** The NPIs the row names, and the treating provider's (for the explanation). */
  npis: readonly string[];
  treating: string | null;
}

/** The provider a row's 2120C loops tie it to, against `treatingNpi`; null when they name no provider. */
export function providerFit(loop: BenefitLoop, treatingNpi: string | null): ProviderFit | null {
  if (loop.related.length === 0) return null;
  let named = false;
  let ours = false;
  let untold = false;
  const npis: string[] = [];
  for (const r of loop.related) {
    if (!isProviderEntity(el(r.nm1, 1))) continue;
    named = true;
    const npi = identifiedBy(el(r.nm1, 8)) === 'npi' ? el(r.nm1, 9).trim() : '';
    if (npi === '') {
      untold = true;
      continue;
    }
    npis.push(npi);
    if (treatingNpi === null) untold = true;
    else if (npi === treatingNpi) ours = true;
  }
  if (!named) return null;
  return { fit: ours ? 'ours' : untold ? 'unknown' : 'other', npis, treating: treatingNpi };
}

/** Why a row tied to other providers does not price the encounter (rowExcludedBy), in words. */
export function otherProviderWords(p: ProviderFit): string {
  return `its 2120C names the provider${p.npis.length > 1 ? 's' : ''} it is for (NPI ${p.npis.join(', ')}), not the treating provider (NPI ${p.treating ?? 'unknown'})`;
}
