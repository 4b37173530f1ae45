/** Which payer an operation addresses: the request's payer_id, the network's any-payer, or a state's Medicaid program. */
import { ServiceError } from '../domain/errors.ts';
import type { PayerInfo, PayerNetwork } from '../payers/network.ts';

export function resolvePayer(network: PayerNetwork, payerId: string | undefined): string {
  const id = payerId?.trim() ?? '';
  if (id === '') {
    if (network.anyPayerId) return network.anyPayerId;
    throw new ServiceError('INVALID_REQUEST', 'payer_id is required', { errors: [{ field: 'payer_id', message: 'must name a payer' }] });
  }
  // Any alias or connection payer ID names the directory's payer.
  const canonical = network.canonicalId?.(id) ?? id;
  const info = network.payer(canonical);
  if (!info) throw new ServiceError('PAYER_NOT_SUPPORTED', `Payer ${id} is not supported`);
  // The catalog says this payer takes no eligibility inquiries: no call is made.
  if (info.eligibility === 'not_supported') throw new ServiceError('PAYER_NOT_SUPPORTED', `Payer ${canonical} does not support eligibility inquiries`);
  return canonical;
}

export function requireSearch(network: PayerNetwork, payerId: string): void {
  const info = network.payer(payerId);
  if (info && !info.supports_search) {
    throw new ServiceError('PAYER_NOT_SUPPORTED', `Payer ${payerId} does not answer searches without a member ID`);
  }
}

export function medicaidProgram(network: PayerNetwork, state: string): PayerInfo {
  const program = network.payers().find((p) => p.medicaid_state === state);
  if (!program) throw new ServiceError('PAYER_NOT_SUPPORTED', `No Medicaid program is connected for ${state}`);
  return program;
}
