/** Plan templates of the sandbox catalog. Members name one and override what differs. */
import type { NetworkBenefits } from '../domain/coverage.ts';
import type { CatalogPlan } from './catalog-types.ts';

const acc = (total: number | null, remaining: number | null) => ({ total, remaining });

const copayInNetwork: NetworkBenefits = {
  copayment: 3000,
  coinsurance: null,
  deductible_applies: false,
  deductible: { individual: acc(150000, 80000), family: acc(300000, 210000) },
  oop_max: { individual: acc(600000, 455000), family: acc(1200000, 990000) },
  visit_limit: null,
};

const coinsuranceOutOfNetwork: NetworkBenefits = {
  copayment: null,
  coinsurance: 40,
  deductible_applies: true,
  deductible: { individual: acc(300000, 300000), family: acc(600000, 600000) },
  oop_max: { individual: acc(1200000, 1200000), family: acc(2400000, 2400000) },
  visit_limit: null,
};

const base: CatalogPlan = {
  plan_name: 'Evergreen Choice PPO',
  plan_type: 'PPO',
  insurance_type: 'commercial',
  group_name: 'ACME WIDGETS INC',
  group_id: 'GRP100234',
  plan_begin_date: '@year_start',
  plan_end_date: '@year_end',
  eligibility_end_date: null,
  coverage_status: 'active',
  mental_health_coverage: 'active',
  in_network: copayInNetwork,
  out_of_network: coinsuranceOutOfNetwork,
  telehealth: null,
  pcp: null,
  third_party_payer: null,
  utilization_manager: null,
  additional_policies: [],
  is_marketplace: false,
  is_bluecard: false,
  is_hdhp: false,
  payer_corrected_demographics: false,
  next_plan_year: null,
  messages: [],
};

const inNetwork = (b: Partial<NetworkBenefits>): NetworkBenefits => ({ ...copayInNetwork, ...b });

const fullyCovered: NetworkBenefits = {
  copayment: 0,
  coinsurance: null,
  deductible_applies: false,
  deductible: null,
  oop_max: null,
  visit_limit: null,
};

/** Evergreen Value PPO: 20 % coinsurance after a $2,000 / $4,000 deductible, $5,000 / $10,000 OOP max; remainings vary. */
const valuePpo = (deductibleLeft: [number, number], oopLeft: [number, number]): CatalogPlan => ({
  ...base,
  plan_name: 'Evergreen Value PPO',
  in_network: inNetwork({
    copayment: null,
    coinsurance: 20,
    deductible_applies: true,
    deductible: { individual: acc(200000, deductibleLeft[0]), family: acc(400000, deductibleLeft[1]) },
    oop_max: { individual: acc(500000, oopLeft[0]), family: acc(1000000, oopLeft[1]) },
  }),
});

export const PLANS: Record<string, CatalogPlan> = {
  commercial_copay: base,
  commercial_hmo: {
    ...base,
    plan_name: 'Harbor Select HMO',
    plan_type: 'HMO',
    group_name: 'RIVERSIDE SCHOOLS',
    group_id: 'GRP558120',
    out_of_network: null,
  },
  /** Harbor's PPO: the same copay benefits under Harbor's own plan name. */
  harbor_ppo: { ...base, plan_name: 'Harbor Choice PPO', group_name: 'LAKESIDE HOSPITALITY GROUP', group_id: 'GRP774410' },
  coinsurance_after_deductible: valuePpo([120000, 310000], [380000, 870000]),
  /** 20 % coinsurance from the first session: the payer reports a deductible and waives it for office visits (MSG). */
  coinsurance_deductible_waived: {
    ...base,
    plan_name: 'Harbor Access PPO',
    group_name: 'NORTHGATE LOGISTICS',
    group_id: 'GRP330917',
    in_network: inNetwork({
      copayment: null,
      coinsurance: 20,
      deductible_applies: false,
      deductible: { individual: acc(150000, 150000), family: acc(300000, 300000) },
      oop_max: { individual: acc(400000, 360000), family: acc(800000, 720000) },
    }),
  },
  /** A grandfathered indemnity plan: 30 % coinsurance, no deductible, no out-of-pocket maximum. */
  coinsurance_no_oop_max: {
    ...base,
    plan_name: 'Evergreen Heritage Indemnity',
    plan_type: 'INDEMNITY',
    group_name: 'OLD MILL COOPERATIVE',
    group_id: 'GRP010077',
    in_network: { copayment: null, coinsurance: 30, deductible_applies: false, deductible: null, oop_max: null, visit_limit: null },
    out_of_network: null,
  },
  /** A short-term plan (outside the ACA out-of-pocket limit): $45 copay once a $2,500 deductible is met, no OOP max. */
  copay_after_deductible_no_oop_max: {
    ...base,
    plan_name: 'Evergreen Short-Term Select',
    group_name: null,
    group_id: null,
    in_network: {
      copayment: 4500,
      coinsurance: null,
      deductible_applies: true,
      deductible: { individual: acc(250000, 10000), family: acc(null, null) },
      oop_max: null,
      visit_limit: null,
    },
    out_of_network: null,
  },
  /** $10 copay plus 10 % coinsurance once the deductible is met. */
  copay_and_coinsurance_after_deductible: {
    ...base,
    plan_name: 'Harbor Blend Saver EPO',
    plan_type: 'EPO',
    group_name: 'RIVERSIDE SCHOOLS',
    group_id: 'GRP558121',
    out_of_network: null,
    in_network: inNetwork({
      copayment: 1000,
      coinsurance: 10,
      deductible_applies: true,
      deductible: { individual: acc(120000, 6000), family: acc(240000, 126000) },
      oop_max: { individual: acc(350000, 290000), family: acc(700000, 610000) },
    }),
  },
  /** HSA plan paying 100 % (0 % coinsurance) once the deductible, equal to the OOP max, is met. */
  fully_covered_after_deductible: {
    ...base,
    plan_name: 'Evergreen HSA Gold',
    plan_type: 'HDHP',
    is_hdhp: true,
    in_network: inNetwork({
      copayment: null,
      coinsurance: 0,
      deductible_applies: true,
      deductible: { individual: acc(165000, 25000), family: acc(330000, 190000) },
      oop_max: { individual: acc(165000, 25000), family: acc(330000, 190000) },
    }),
  },
  copay_after_deductible: {
    ...base,
    plan_name: 'Evergreen Saver PPO',
    in_network: inNetwork({
      copayment: 4000,
      deductible_applies: true,
      deductible: { individual: acc(100000, 45000), family: acc(200000, 145000) },
    }),
  },
  deductible_met: valuePpo([0, 150000], [260000, 640000]),
  deductible_oop_met: valuePpo([0, 0], [0, 310000]),
  missing_totals: {
    ...base,
    in_network: inNetwork({
      copayment: 2500,
      deductible: { individual: acc(null, 50000), family: acc(null, 120000) },
      oop_max: { individual: acc(null, 300000), family: acc(null, 650000) },
    }),
  },
  high_deductible: {
    ...base,
    plan_name: 'Evergreen HSA Bronze',
    plan_type: 'HDHP',
    is_hdhp: true,
    in_network: inNetwork({
      copayment: null,
      coinsurance: 10,
      deductible_applies: true,
      deductible: { individual: acc(330000, 330000), family: acc(660000, 660000) },
      oop_max: { individual: acc(700000, 700000), family: acc(1400000, 1400000) },
    }),
  },
  copay_and_coinsurance: {
    ...base,
    plan_name: 'Harbor Blend EPO',
    plan_type: 'EPO',
    out_of_network: null,
    in_network: inNetwork({ copayment: 1500, coinsurance: 10 }),
  },
  telehealth: {
    ...base,
    plan_name: 'Evergreen Virtual First PPO',
    telehealth: { in_network: { copayment: 1000, coinsurance: null }, out_of_network: null },
  },
  marketplace: {
    ...base,
    plan_name: 'Liberty Silver 94 CSR',
    plan_type: 'EPO',
    insurance_type: 'marketplace',
    is_marketplace: true,
    group_name: null,
    group_id: null,
    out_of_network: null,
    in_network: inNetwork({
      copayment: 2000,
      deductible: { individual: acc(80000, 80000), family: acc(160000, 160000) },
      oop_max: { individual: acc(340000, 340000), family: acc(680000, 680000) },
    }),
  },
  bluecard: {
    ...base,
    plan_name: 'Blue Advantage PPO',
    messages: ['BLUECARD HOME PLAN BLUE CROSS OF TENNESSEE'],
    is_bluecard: true,
    in_network: inNetwork({ copayment: 3500 }),
  },
  medicare: {
    ...base,
    plan_name: 'Medicare Part B',
    plan_type: null,
    insurance_type: 'medicare',
    group_name: null,
    group_id: null,
    plan_begin_date: '2019-03-01',
    plan_end_date: null,
    in_network: {
      copayment: null,
      coinsurance: 20,
      deductible_applies: true,
      deductible: { individual: acc(28300, 0), family: acc(null, null) },
      oop_max: null,
      visit_limit: null,
    },
    out_of_network: null,
  },
  medicare_advantage: {
    ...base,
    plan_name: 'Silverline Complete HMO',
    plan_type: 'HMO',
    insurance_type: 'medicare_advantage',
    group_name: null,
    group_id: null,
    out_of_network: null,
    in_network: {
      copayment: 2000,
      coinsurance: null,
      deductible_applies: false,
      deductible: null,
      oop_max: { individual: acc(550000, 512000), family: acc(null, null) },
      visit_limit: null,
    },
  },
  medicaid: {
    ...base,
    plan_name: 'Medicaid Fee-for-Service',
    plan_type: null,
    insurance_type: 'medicaid',
    group_name: null,
    group_id: null,
    in_network: fullyCovered,
    out_of_network: null,
  },
  managed_medicaid: {
    ...base,
    plan_name: 'Community Care Medicaid Managed Care',
    plan_type: 'HMO',
    insurance_type: 'managed_medicaid',
    group_name: null,
    group_id: null,
    in_network: { ...fullyCovered, copayment: 300 },
    out_of_network: null,
    pcp: { first_name: 'ELENA', last_name: 'MARQUEZ', npi: '1548273941', organization_name: 'EASTSIDE FAMILY HEALTH CENTER' },
  },
  qmb: {
    ...base,
    plan_name: 'Qualified Medicare Beneficiary',
    plan_type: null,
    insurance_type: 'qmb',
    group_name: null,
    group_id: null,
    in_network: fullyCovered,
    out_of_network: null,
  },
  unknown_costshare: {
    ...base,
    in_network: inNetwork({ copayment: null, coinsurance: null }),
    out_of_network: { ...coinsuranceOutOfNetwork, copayment: null, coinsurance: null },
  },
  unknown_remainings: {
    ...base,
    in_network: inNetwork({
      copayment: null,
      coinsurance: 20,
      deductible_applies: true,
      deductible: { individual: acc(150000, null), family: acc(300000, null) },
      oop_max: { individual: acc(600000, null), family: acc(1200000, null) },
    }),
  },
  carve_out: {
    ...base,
    plan_name: 'Harbor Select HMO',
    plan_type: 'HMO',
    mental_health_coverage: 'carved_out',
    in_network: null,
    out_of_network: null,
    third_party_payer: { name: 'Mindful Behavioral Health Administrators', payer_id: 'SBX-MINDFUL', phone: '8005550142' },
  },
  /** What the carve-out administrator answers for the same member. */
  administrator_behavioral: {
    ...base,
    plan_name: 'Mindful Behavioral Health Network',
    plan_type: null,
    group_name: null,
    group_id: null,
    in_network: inNetwork({ copayment: 2500 }),
    out_of_network: null,
  },
  inactive: {
    ...base,
    coverage_status: 'inactive',
    mental_health_coverage: 'inactive',
    plan_begin_date: '@last_year_start',
    plan_end_date: '@today-40',
  },
  at_risk: {
    ...base,
    eligibility_end_date: '@today+12',
    messages: ['PREMIUM GRACE PERIOD; CLAIMS MAY PEND'],
  },
};
