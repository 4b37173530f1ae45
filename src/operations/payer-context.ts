/**
 * What the payer directory knows about the payer that answered: a payer it marks as a state's
 * Medicaid program answers for Medicaid even when its 271 leaves EB04 empty (docs/estimates.md section 1.2).
 */
import type { Coverage } from '../domain/coverage.ts';
import type { OperationDeps } from './context.ts';

export function withPayerContext(deps: OperationDeps, askedPayerId: string, coverage: Coverage): Coverage {
  if (!coverage.program_unstated) return coverage;
  const directory = deps.network.payer(askedPayerId) ?? deps.network.payer(coverage.payer_id);
  if (!directory?.medicaid_state) return coverage;
  return { ...coverage, insurance_type: coverage.plan_type === 'HMO' ? 'managed_medicaid' : 'medicaid' };
}
