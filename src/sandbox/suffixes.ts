/** Spec 10.4: any member ID `<digits>MH<suffix>` selects its scenario, whatever the digits and names. */
import type { SuffixScenario } from './catalog-types.ts';

export const SUFFIX_SCENARIOS: SuffixScenario[] = [
  {
    suffix: 'NA',
    scenario: 'active_commercial',
    description: 'Active commercial plan, no alerts',
    plan: 'commercial_copay',
    expect: { status: 200, error_code: null },
  },
  {
    suffix: 'UC',
    scenario: 'unknown_costshare',
    description: 'Cost share unknown',
    plan: 'unknown_costshare',
    expect: { status: 206, error_code: 'UNKNOWN_COSTSHARE' },
  },
  {
    suffix: 'UA',
    scenario: 'unknown_remainings',
    description: 'Remaining deductible and OOP unknown',
    plan: 'unknown_remainings',
    expect: { status: 206, error_code: 'UNKNOWN_REMAININGS' },
  },
  { suffix: 'OMCR', scenario: 'original_medicare', description: 'Original Medicare (Part B)', plan: 'medicare', expect: { status: 200, error_code: null } },
  {
    suffix: 'MA',
    scenario: 'medicare_advantage',
    description: 'Medicare Advantage HMO',
    plan: 'medicare_advantage',
    expect: { status: 200, error_code: null },
  },
  { suffix: 'OMCD', scenario: 'original_medicaid', description: 'State Medicaid fee-for-service', plan: 'medicaid', expect: { status: 200, error_code: null } },
  { suffix: 'MM', scenario: 'managed_medicaid', description: 'Managed Medicaid plan', plan: 'managed_medicaid', expect: { status: 200, error_code: null } },
  {
    suffix: 'CA',
    scenario: 'carve_out',
    description: 'Behavioral health carved out to a third-party administrator',
    plan: 'carve_out',
    expect: { status: 200, error_code: null },
  },
  {
    suffix: 'SP',
    scenario: 'additional_policy',
    description: 'Another policy to coordinate benefits with',
    plan: 'commercial_copay',
    overrides: {
      additional_policies: [
        { payer_name: 'Harbor Mutual Insurance', payer_id: 'SBX-HARBOR', policy_number: 'HM55012877', insurance_type: 'commercial', coordination: 'secondary' },
      ],
    },
    expect: { status: 200, error_code: null },
  },
  {
    suffix: 'MNF',
    scenario: 'member_not_found',
    description: 'The payer has no such member',
    plan: 'commercial_copay',
    answer: { kind: 'reject', level: 'subscriber', reason_code: '75', followup: 'C' },
    expect: { status: 404, error_code: 'MEMBER_NOT_FOUND' },
  },
  {
    suffix: 'RR',
    scenario: 'payer_rejection',
    description: 'Prefix starting with 1: the payer fails; with 2: the payer is not supported',
    plan: 'commercial_copay',
    answer: {
      byPrefix: {
        '1': { kind: 'reject', level: 'payer', reason_code: '42', followup: 'R' },
        '2': { kind: 'reject', level: 'payer', reason_code: '79', followup: 'N' },
      },
    },
    expect: {
      byPrefix: {
        '1': { status: 502, error_code: 'PAYER_FAILURE' },
        '2': { status: 400, error_code: 'PAYER_NOT_SUPPORTED' },
      },
    },
  },
  { suffix: 'EXP', scenario: 'inactive', description: 'Plan ended 40 days ago', plan: 'inactive', expect: { status: 200, error_code: null } },
  {
    suffix: 'EXS',
    scenario: 'active_at_risk',
    description: 'Eligibility ends in 12 days (premium grace period)',
    plan: 'at_risk',
    expect: { status: 200, error_code: null },
  },
  {
    suffix: 'DM',
    scenario: 'active_commercial_variant',
    description: 'Active commercial, coinsurance after deductible',
    plan: 'coinsurance_after_deductible',
    expect: { status: 200, error_code: null },
  },
];
