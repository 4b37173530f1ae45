/** Which payer an operation addresses: the request's payer_id, the network's any-payer, or a state's Medicaid program. */
import { ServiceError } from '../domain/errors.ts';
import type { PayerInfo, PayerNetwork } from '../payers/network.ts';
import { preparePayerSearch, type PayerSearch } from './payer-search.ts';
import { OperationErrors } from './errors.ts';

/**
 * The payer an ID names, matched as people type it: exactly, then in any case ("sbx-evergreen"),
 * over the IDs and aliases (docs/interface.md, "Payer IDs"). Surrounding spaces never count.
 */
export function findPayerId(network: PayerNetwork, raw: string): string | undefined {
  const id = raw.trim();
  for (const candidate of [id, id.toUpperCase()]) {
    const canonical = network.canonicalId(candidate) ?? candidate;
    if (network.payer(canonical)) return canonical;
  }
  const upper = id.toUpperCase();
  return network.payers().find((p) => [p.payer_id, ...(p.aliases ?? [])].some((x) => x.toUpperCase() === upper))?.payer_id;
}

const searches = new WeakMap<PayerNetwork, PayerSearch>();

/** An ID that names no payer: said so, with the nearest payer's ID when a search finds one. */
function noSuchPayer(network: PayerNetwork, id: string): ServiceError {
  let search = searches.get(network);
  if (!search) searches.set(network, (search = preparePayerSearch(network.payers())));
  const near = search(id, 1)[0];
  const guess = near ? `did you mean ${near.payer_id}?` : null;
  const list = `GET /v1/payers?query=${encodeURIComponent(id)} lists payers by ID or name`;
  return OperationErrors.noSuchPayer(id, guess, list).with({
    errors: [{ field: 'payer_id', message: `names no payer${guess ? `: ${guess}` : ''}` }],
  });
}

export function resolvePayer(network: PayerNetwork, payerId: string | undefined): string {
  const id = payerId?.trim() ?? '';
  if (id === '') {
    if (network.anyPayerId) return network.anyPayerId;
    throw OperationErrors.payerIdMissing().with({ errors: [{ field: 'payer_id', message: 'must name a payer' }] });
  }
  // Any alias or connection payer ID names the directory's payer, in any case.
  const canonical = findPayerId(network, id);
  const info = canonical === undefined ? undefined : network.payer(canonical);
  if (!canonical || !info) throw noSuchPayer(network, id);
  // The catalog says this payer takes no eligibility inquiries: no call is made.
  if (info.eligibility === 'not_supported') throw OperationErrors.noEligibility(canonical);
  return canonical;
}

export function requireSearch(network: PayerNetwork, payerId: string): void {
  const info = network.payer(payerId);
  if (info && !info.supports_search) {
    throw OperationErrors.noSearch(payerId);
  }
}

export function medicaidProgram(network: PayerNetwork, state: string): PayerInfo {
  const program = network.payers().find((p) => p.medicaid_state === state);
  if (!program) throw OperationErrors.noMedicaidProgram(state);
  return program;
}
