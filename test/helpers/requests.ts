/** Request bodies for a sandbox member row on each endpoint. */
import type { OperationName } from '../../src/domain/schemas/requests.ts';
import type { SandboxMemberRow } from '../../src/sandbox/member-table.ts';

export const VALID_NPI = '1234567893';

export function requestFor(endpoint: OperationName, m: SandboxMemberRow): Record<string, unknown> {
  const names = { member_first_name: m.first_name ?? '', member_last_name: m.last_name ?? '', member_dob: m.dob ?? '1980-01-01' };
  switch (endpoint) {
    case 'estimate':
      return { member_id: m.member_id, ...names, payer_id: m.payer_id, provider_npi: VALID_NPI, provider_session_cost: '15000', in_network: true };
    case 'discover':
      return { ...names, zip: '', payer_id: m.payer_id };
    case 'scan':
      return { ...names, zip: '10001' };
    case 'medicaid':
      return { member_id: m.member_id, ...names, patient_state: m.patient_state ?? 'NY' };
  }
}
