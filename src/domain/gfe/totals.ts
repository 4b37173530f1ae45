/**
 * A Good Faith Estimate's money, in integer cents: each service's charge per unit (from the request,
 * else the key's fee schedule), its total (quantity × charge), each provider's total and the estimate's.
 */
import type { Static } from 'typebox';
import type { GfeProviderInput } from '../schemas/good-faith-estimates.ts';

/** The fee schedule's charge (cents) for a code and modifier (null: none), or null when it has none. */
export type FeeLookup = (code: string, modifier: string | null) => number | null;

export interface PricedService {
  code: string;
  modifier: string | null;
  description: string | null;
  quantity: number;
  charge_cents: number;
  charge_source: 'request' | 'fee_schedule';
  total_cents: number;
  diagnosis_codes: string[];
}

export interface PricedProvider {
  role: 'convening' | 'co_provider';
  name: string;
  npi: string;
  tin: string;
  locations: { office: string | null; address: string | null; state: string }[];
  services: PricedService[];
  total_cents: number;
}

/** The provider priced, or null with the indexes of services no charge was found for. */
export function priceProvider(
  p: Static<typeof GfeProviderInput>,
  role: PricedProvider['role'],
  fees: FeeLookup,
): { provider: PricedProvider | null; unpriced: number[] } {
  const unpriced: number[] = [];
  const services: PricedService[] = [];
  p.services.forEach((s, i) => {
    const modifier = s.modifier ?? null;
    // A modifier's own fee first, then the code's.
    const scheduled = s.charge_cents === undefined ? (fees(s.code, modifier) ?? (modifier ? fees(s.code, null) : null)) : null;
    const charge = s.charge_cents ?? scheduled;
    if (charge === null || charge === undefined) return void unpriced.push(i);
    services.push({
      code: s.code,
      modifier,
      description: s.description ?? null,
      quantity: s.quantity,
      charge_cents: charge,
      charge_source: s.charge_cents === undefined ? 'fee_schedule' : 'request',
      total_cents: charge * s.quantity,
      diagnosis_codes: s.diagnosis_codes ?? [],
    });
  });
  if (unpriced.length > 0 || !p.name || !p.npi || !p.tin) return { provider: null, unpriced };
  return {
    provider: {
      role,
      name: p.name,
      npi: p.npi,
      tin: p.tin,
      locations: (p.locations ?? []).map((l) => ({ office: l.office ?? null, address: l.address ?? null, state: l.state })),
      services,
      total_cents: providerTotal(services),
    },
    unpriced,
  };
}

export const providerTotal = (services: readonly Pick<PricedService, 'total_cents'>[]): number => services.reduce((s, x) => s + x.total_cents, 0);
