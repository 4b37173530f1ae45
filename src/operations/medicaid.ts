/** Medicaid: route to the state's program (or the given payer) by member ID; Medicaid-level details. */
import { isQmb } from '../domain/estimate/index.ts';
import type { MedicaidRequest } from '../domain/schemas/requests.ts';
import type { MedicaidResponse } from '../domain/schemas/responses.ts';
import { askPayer } from './ask-payer.ts';
import type { CallContext, OperationDeps } from './context.ts';
import type { OperationResult } from './estimate.ts';
import { buildInquiry } from './inquiry.ts';
import { withPayerContext } from './payer-context.ts';
import { planFields } from './present.ts';
import { medicaidProgram, resolvePayer } from './resolve-payer.ts';
import { OperationErrors } from './errors.ts';

const MEDICAID_TYPES = new Set(['medicaid', 'managed_medicaid', 'qmb']);

export async function runMedicaid(deps: OperationDeps, req: MedicaidRequest, ctx: CallContext): Promise<OperationResult<MedicaidResponse>> {
  const hasPayer = (req.payer_id ?? '').trim() !== '';
  if (!hasPayer && !req.patient_state) {
    throw OperationErrors.payerOrStateMissing().with({
      errors: [
        { field: 'payer_id', message: 'required when patient_state is absent' },
        { field: 'patient_state', message: 'required when payer_id is absent' },
      ],
    });
  }
  const payerId = hasPayer ? resolvePayer(deps.network, req.payer_id) : medicaidProgram(deps.network, req.patient_state!).payer_id;
  const today = deps.clock.today();
  const inquiry = buildInquiry(
    { payer_id: payerId, member_id: req.member_id, first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob },
    today,
  );
  const coverage = withPayerContext(deps, payerId, (await askPayer(deps, inquiry, ctx)).coverage);
  if (!MEDICAID_TYPES.has(coverage.insurance_type)) {
    throw OperationErrors.noMedicaidCoverage();
  }
  const fields = planFields(coverage, { first_name: req.member_first_name, last_name: req.member_last_name, dob: req.member_dob }, today);
  return {
    status: 200,
    body: {
      ...fields,
      patient_state: req.patient_state ?? deps.network.payer(payerId)?.medicaid_state ?? coverage.member.address?.state ?? null,
      qmb_status: isQmb(coverage),
      managed_care: coverage.insurance_type === 'managed_medicaid',
      pcp: coverage.pcp,
    },
    payer_id: coverage.payer_id,
  };
}
