/** The sandbox payer network: fictional payers, one Medicaid program per state and territory. */
import { US_STATE_CODES } from '../domain/us-states.ts';
import type { SandboxPayer } from './catalog-types.ts';

/** Payer id a blank payer_id is sent to in the sandbox: any payer's member answers (spec 10.1). */
export const ANY_PAYER_ID = 'SANDBOX';

export const COMMERCIAL_PAYERS: SandboxPayer[] = [
  { payer_id: 'SBX-EVERGREEN', name: 'Evergreen Health Plan', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-HARBOR', name: 'Harbor Mutual Insurance', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-BLUE', name: 'Blue Prairie Health (BlueCard host)', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-EXCHANGE', name: 'Liberty Marketplace Health Co-op', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-MEDICARE', name: 'Medicare (Sandbox MAC)', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-SILVER', name: 'Silverline Medicare Advantage', supports_search: true, medicaid_state: null },
  { payer_id: 'SBX-MINDFUL', name: 'Mindful Behavioral Health Administrators', supports_search: false, medicaid_state: null },
  { payer_id: 'SBX-COMMUNITY', name: 'Community Care Managed Medicaid', supports_search: true, medicaid_state: null },
];

export const MEDICAID_PAYERS: SandboxPayer[] = US_STATE_CODES.map((state) => ({
  payer_id: `SBX-MCD-${state}`,
  name: `${state} Medicaid (sandbox)`,
  supports_search: false,
  medicaid_state: state,
}));

export const SANDBOX_PAYERS: SandboxPayer[] = [...COMMERCIAL_PAYERS, ...MEDICAID_PAYERS];

/** Carve-out administrators and the plan they answer with for the members handed to them. */
export const ADMINISTRATOR_PLANS: Record<string, string> = {
  'SBX-MINDFUL': 'administrator_behavioral',
};

/** The payer that answers generated member IDs (spec 10.4) when the request names no payer. */
export const DEFAULT_SUFFIX_PAYER: Record<string, string> = {
  OMCR: 'SBX-MEDICARE',
  MA: 'SBX-SILVER',
  OMCD: 'SBX-MCD-NY',
  MM: 'SBX-COMMUNITY',
  // The carve-out plan is Harbor's: its plan name names Harbor.
  CA: 'SBX-HARBOR',
};
export const DEFAULT_PAYER_ID = 'SBX-EVERGREEN';
