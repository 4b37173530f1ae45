/**
 * Named sandbox members: one or more for every scenario category of spec 10.5, every behaviour
 * listed at the end of spec 2.2, the estimate groups of 10.3 and the discover errors of 10.6.
 * Member IDs follow the generated pattern of spec 10.4 where a suffix fits (DM = extra active
 * commercial variants); an exact ID match wins over the suffix rule.
 */
import type { Address } from '../domain/coverage.ts';
import type { CatalogMember, Expectation } from './catalog-types.ts';

const ok: Expectation = { status: 200, error_code: null };
const everywhere = { estimate: ok, discover: ok, scan: ok };

const nyc = (street: string): Address => ({ street_line_1: street, street_line_2: null, city: 'NEW YORK', state: 'NY', zip: '10001' });

export const MEMBERS: CatalogMember[] = [
  // Active commercial (10.3 "no alerts", 10.4 NA)
  {
    member_id: '10010MHNA', person: { first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('225 W 34TH ST'), scenario: 'active_commercial',
    description: 'Active PPO, $30 copay in network, no alerts', plan: 'commercial_copay', expect: everywhere,
  },
  {
    member_id: '10011MHDM', person: { first_name: 'Marcus', last_name: 'Bell', dob: '1979-11-02', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('410 8TH AVE'), scenario: 'coinsurance_after_deductible',
    description: '20 % coinsurance after a partly met deductible', plan: 'coinsurance_after_deductible', expect: everywhere,
  },
  {
    member_id: '10012MHDM', person: { first_name: 'Priya', last_name: 'Raman', dob: '1992-07-21', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('11 PENN PLZ'), scenario: 'copay_after_deductible',
    description: '$40 copay once the deductible is met', plan: 'copay_after_deductible', expect: everywhere,
  },
  {
    member_id: '10013MHDM', person: { first_name: 'Diego', last_name: 'Alvarez', dob: '1985-01-30', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('500 7TH AVE'), scenario: 'deductible_met',
    description: 'Deductible met: 20 % coinsurance applies', plan: 'deductible_met', expect: everywhere,
  },
  {
    member_id: '10014MHDM', person: { first_name: 'Hannah', last_name: 'Cho', dob: '1990-09-09', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('1 PENN PLZ'), scenario: 'deductible_and_oop_met',
    description: 'Deductible and out-of-pocket maximum met: the member pays nothing', plan: 'deductible_oop_met', expect: everywhere,
  },
  {
    member_id: '10015MHDM', person: { first_name: 'Samuel', last_name: 'Okafor', dob: '1975-05-18', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('350 5TH AVE'), scenario: 'missing_totals',
    description: 'Remaining amounts known, deductible and OOP totals unknown', plan: 'missing_totals', expect: everywhere,
  },
  {
    member_id: '10016MHDM', person: { first_name: 'Grace', last_name: 'Lindqvist', dob: '1983-12-01', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('20 W 34TH ST'), scenario: 'ppo',
    description: 'PPO with in- and out-of-network benefits', plan: 'harbor_ppo', expect: everywhere,
  },
  {
    member_id: '10017MHDM', person: { first_name: 'Theo', last_name: 'Nakamura', dob: '1996-04-25', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('130 W 30TH ST'), scenario: 'high_deductible',
    description: 'HSA-eligible high-deductible plan, deductible unmet', plan: 'high_deductible', expect: everywhere,
  },
  {
    member_id: '10018MHDM', person: { first_name: 'Lena', last_name: 'Fischer', dob: '1987-08-12', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('7 W 36TH ST'), scenario: 'telehealth',
    description: 'Telehealth copay $10, in person $30', plan: 'telehealth', expect: everywhere,
  },
  {
    member_id: '10019MHDM', person: { first_name: 'Rosa', last_name: 'Delgado', dob: '1991-02-17', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EXCHANGE', address: nyc('45 W 29TH ST'), scenario: 'marketplace',
    description: 'ACA marketplace silver plan', plan: 'marketplace', expect: everywhere,
  },
  {
    member_id: 'XOF10020MHDM', person: { first_name: 'Connor', last_name: 'Byrne', dob: '1982-06-06', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-BLUE', address: { street_line_1: '88 BROADWAY', street_line_2: null, city: 'NASHVILLE', state: 'TN', zip: '37201' }, scenario: 'bluecard',
    description: 'BlueCard member of an out-of-area Blue plan', plan: 'bluecard', expect: everywhere,
  },
  {
    member_id: '10021MHDM', person: { first_name: 'Imani', last_name: 'Brooks', dob: '1994-10-03', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('600 6TH AVE'), scenario: 'copay_and_coinsurance',
    description: '$15 copay plus 10 % coinsurance, no deductible', plan: 'copay_and_coinsurance', expect: everywhere,
  },
  {
    member_id: '10022MHDM', person: { first_name: 'Oliver', last_name: 'Grant', dob: '1980-03-03', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: null, scenario: 'missing_address',
    description: 'The payer returns no address for the member', plan: 'commercial_hmo', expect: everywhere,
  },
  {
    member_id: '10023MHDM', person: { first_name: 'Nadia', last_name: 'Petrov', dob: '1986-07-07', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('77 W 55TH ST'), scenario: 'pcp_with_organization',
    description: 'HMO with a primary care provider at a named practice', plan: 'commercial_hmo',
    overrides: { pcp: { first_name: 'ANJALI', last_name: 'SHAH', npi: '1679576722', organization_name: 'MIDTOWN PRIMARY CARE ASSOCIATES' } },
    expect: everywhere,
  },
  {
    member_id: '10024MHDM', person: { first_name: 'Felix', last_name: 'Moreau', dob: '1977-01-22', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('12 E 49TH ST'), scenario: 'pcp_without_organization',
    description: 'HMO with an individual primary care provider, no organization', plan: 'commercial_hmo',
    overrides: { pcp: { first_name: 'THOMAS', last_name: 'REID', npi: '1306844675', organization_name: null } },
    expect: everywhere,
  },
  {
    member_id: '10025MHDM', person: { first_name: 'Julia', last_name: 'Santos', dob: '1989-05-30', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('1250 BROADWAY'), scenario: 'utilization_manager',
    description: 'Behavioral health visits reviewed by a utilization management organization', plan: 'commercial_hmo',
    overrides: { utilization_manager: { name: 'CLEARPATH UTILIZATION REVIEW', payer_id: null, phone: '8005550199' } },
    expect: everywhere,
  },
  {
    member_id: '10026MHDM', person: { first_name: 'Ethan', last_name: 'Walsh', dob: '2012-09-14', gender: 'M' }, relationship: 'child',
    subscriber: { member_id: '10010MHNA', first_name: 'Avery', last_name: 'Walsh', dob: '1988-03-14', gender: 'F' },
    payer_id: 'SBX-EVERGREEN', address: nyc('225 W 34TH ST'), scenario: 'dependent',
    description: 'Dependent child on a parent\'s plan', plan: 'commercial_copay', expect: everywhere,
  },
  // The benefit structures of NOTES.md section 2 that no other member shows
  {
    member_id: '10120MHDM', person: { first_name: 'Lucia', last_name: 'Romano', dob: '1989-10-27', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('240 E 38TH ST'), scenario: 'coinsurance_no_deductible',
    description: '20 % coinsurance from the first session: the deductible is waived for office visits (MSG)', plan: 'coinsurance_deductible_waived', expect: everywhere,
  },
  {
    member_id: '10121MHDM', person: { first_name: 'Arthur', last_name: 'Pembrook', dob: '1958-04-19', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('310 E 46TH ST'), scenario: 'coinsurance_no_oop_max',
    description: 'Grandfathered indemnity plan: 30 % coinsurance, no deductible, no OOP maximum', plan: 'coinsurance_no_oop_max', expect: everywhere,
  },
  {
    member_id: '10122MHDM', person: { first_name: 'Zoe', last_name: 'Whitaker', dob: '1998-01-08', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('152 W 26TH ST'), scenario: 'copay_after_deductible_no_oop_max',
    description: 'Short-term plan: $45 copay once the deductible is met ($100 left), no OOP maximum', plan: 'copay_after_deductible_no_oop_max', expect: everywhere,
  },
  {
    member_id: '10123MHDM', person: { first_name: 'Kwame', last_name: 'Mensah', dob: '1984-06-02', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('75 9TH AVE'), scenario: 'copay_and_coinsurance_after_deductible',
    description: '$10 copay plus 10 % coinsurance once the deductible is met ($60 left)', plan: 'copay_and_coinsurance_after_deductible', expect: everywhere,
  },
  {
    member_id: '10124MHDM', person: { first_name: 'Ingrid', last_name: 'Solberg', dob: '1979-12-15', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('420 LEXINGTON AVE'), scenario: 'fully_covered_after_deductible',
    description: 'HSA plan: covered in full once the deductible ($250 left) is met', plan: 'fully_covered_after_deductible', expect: everywhere,
  },
  // Demographic mismatch (10.3): the payer's record differs from what the practice has
  {
    member_id: '10030MHDM', person: { first_name: 'Katherine', last_name: 'Miller', dob: '1984-04-04', gender: 'F' },
    payer_record: { first_name: 'Kathryn', last_name: 'Miller-Hayes' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('15 W 39TH ST'), scenario: 'demographic_mismatch',
    description: 'Matched by member ID regardless of name and DOB; the payer\'s name differs', plan: 'commercial_copay',
    expect: { estimate: ok },
  },
  {
    member_id: '10031MHDM', person: { first_name: 'Jon', last_name: 'Baker', dob: '1970-10-10', gender: 'M' },
    payer_record: { first_name: 'Jonathan', dob: '1970-10-01' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('9 E 40TH ST'), scenario: 'demographic_mismatch_payer_corrected',
    description: 'The payer corrects the name and DOB it was sent (INS*Y*18*001*25)', plan: 'commercial_copay',
    overrides: { payer_corrected_demographics: true },
    expect: { estimate: ok },
  },
  // Carve-out (10.3, 10.4 CA): the administrator answers a second inquiry
  {
    member_id: '10040MHCA', person: { first_name: 'Maya', last_name: 'Goldberg', dob: '1993-03-19', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: nyc('100 W 31ST ST'), scenario: 'carve_out',
    description: 'Behavioral health carved out to Mindful Behavioral Health Administrators', plan: 'carve_out', expect: everywhere,
  },
  // Additional policy / coordination of benefits (10.4 SP)
  {
    member_id: '10050MHSP', person: { first_name: 'Victor', last_name: 'Huang', dob: '1968-12-24', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('3 PARK AVE'), scenario: 'additional_policy',
    description: 'Primary here; a spouse\'s plan pays second', plan: 'commercial_copay',
    overrides: { additional_policies: [{ payer_name: 'Harbor Mutual Insurance', payer_id: 'SBX-HARBOR', policy_number: 'HM88120033', insurance_type: 'commercial', coordination: 'secondary' }] },
    expect: everywhere,
  },
  // Government and dual-eligible
  {
    member_id: '10060MHOMCR', person: { first_name: 'Harold', last_name: 'Jennings', dob: '1950-02-11', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-MEDICARE', address: nyc('40 E 10TH ST'), scenario: 'original_medicare',
    description: 'Original Medicare Part B, 20 % coinsurance after the Part B deductible', plan: 'medicare',
    expect: { estimate: ok, discover: ok },
  },
  {
    member_id: '10061MHOMCR', person: { first_name: 'Dorothy', last_name: 'Klein', dob: '1947-06-30', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-MEDICARE', address: nyc('88 E 11TH ST'), scenario: 'medicare_supplemental',
    description: 'Original Medicare with a Medigap supplement that pays second', plan: 'medicare',
    overrides: { additional_policies: [{ payer_name: 'Harbor Mutual Medigap Plan G', payer_id: 'SBX-HARBOR', policy_number: 'MG4410092', insurance_type: 'commercial', coordination: 'secondary' }] },
    expect: { estimate: ok, discover: ok },
  },
  {
    member_id: '10062MHMA', person: { first_name: 'Beatrice', last_name: 'Lowe', dob: '1952-08-08', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-SILVER', address: nyc('201 E 23RD ST'), scenario: 'medicare_advantage',
    description: 'Medicare Advantage HMO, $20 copay', plan: 'medicare_advantage', expect: everywhere,
  },
  {
    member_id: '10070MHOMCD', person: { first_name: 'Luis', last_name: 'Herrera', dob: '1999-11-11', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-MCD-NY', patient_state: 'NY', address: nyc('301 E 116TH ST'), scenario: 'state_medicaid_active',
    description: 'New York Medicaid, active', plan: 'medicaid', expect: { estimate: ok, medicaid: ok },
  },
  {
    member_id: '10071MHOMCD', person: { first_name: 'Tanya', last_name: 'Reyes', dob: '2001-01-05', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-MCD-CA', patient_state: 'CA', address: { street_line_1: '1200 MISSION ST', street_line_2: null, city: 'SAN FRANCISCO', state: 'CA', zip: '94103' },
    scenario: 'state_medicaid_inactive', description: 'California Medicaid, coverage ended', plan: 'medicaid',
    overrides: { coverage_status: 'inactive', mental_health_coverage: 'inactive', plan_begin_date: '@last_year_start', plan_end_date: '@today-60' },
    expect: { estimate: ok, medicaid: ok },
  },
  {
    member_id: '10072MHMM', person: { first_name: 'Keisha', last_name: 'Daniels', dob: '1997-04-14', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-COMMUNITY', patient_state: 'TX', address: { street_line_1: '400 CONGRESS AVE', street_line_2: 'APT 5', city: 'AUSTIN', state: 'TX', zip: '78701' },
    scenario: 'managed_medicaid', description: 'Texas managed Medicaid plan with a PCP at a health center', plan: 'managed_medicaid',
    expect: { estimate: ok, discover: ok, scan: ok, medicaid: ok },
  },
  {
    member_id: '10073MHOMCD', person: { first_name: 'Walter', last_name: 'Pruitt', dob: '1949-09-27', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-MCD-FL', patient_state: 'FL', address: { street_line_1: '55 NE 2ND AVE', street_line_2: null, city: 'MIAMI', state: 'FL', zip: '33132' },
    scenario: 'qmb', description: 'Qualified Medicare Beneficiary: Medicaid pays the Medicare cost share', plan: 'qmb',
    expect: { estimate: ok, medicaid: ok },
  },
  // Inactive and at risk (10.4 EXP, EXS)
  {
    member_id: '10080MHEXP', person: { first_name: 'Gavin', last_name: 'Price', dob: '1981-02-28', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('60 W 23RD ST'), scenario: 'inactive',
    description: 'Plan ended 40 days ago', plan: 'inactive', expect: everywhere,
  },
  {
    member_id: '10081MHEXS', person: { first_name: 'Sofia', last_name: 'Conti', dob: '1995-06-16', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('28 W 25TH ST'), scenario: 'active_at_risk',
    description: 'Active, but eligibility ends in 12 days (premium grace period)', plan: 'at_risk', expect: everywhere,
  },
  // Partial results (10.4 UC, UA)
  {
    member_id: '10090MHUC', person: { first_name: 'Adrian', last_name: 'Cole', dob: '1986-11-19', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('14 W 14TH ST'), scenario: 'unknown_costshare',
    description: 'The payer does not report a behavioral-health cost share', plan: 'unknown_costshare',
    expect: { estimate: { status: 206, error_code: 'UNKNOWN_COSTSHARE' }, discover: ok },
  },
  {
    member_id: '10091MHUA', person: { first_name: 'Bianca', last_name: 'Ferreira', dob: '1990-12-12', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('22 W 19TH ST'), scenario: 'unknown_remainings',
    description: 'Totals known, remaining deductible and OOP unknown', plan: 'unknown_remainings',
    expect: { estimate: { status: 206, error_code: 'UNKNOWN_REMAININGS' }, discover: ok },
  },
  // Errors (10.4 MNF, RR; 10.3 provider not recognized; 10.6 discover 400 / 404 / 429)
  {
    member_id: '10100MHMNF', person: { first_name: 'Nora', last_name: 'Quinn', dob: '1983-03-23', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: null, scenario: 'member_not_found',
    description: 'The payer has no such member', plan: 'commercial_copay', answer: { kind: 'reject', level: 'subscriber', reason_code: '75', followup: 'C' },
    expect: { estimate: { status: 404, error_code: 'MEMBER_NOT_FOUND' }, discover: { status: 404, error_code: 'MEMBER_NOT_FOUND' } },
  },
  {
    member_id: '11101MHRR', person: { first_name: 'Peter', last_name: 'Lang', dob: '1972-07-04', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: null, scenario: 'payer_failure',
    description: 'The payer cannot answer (AAA 42)', plan: 'commercial_copay', answer: { kind: 'reject', level: 'payer', reason_code: '42', followup: 'R' },
    expect: { estimate: { status: 502, error_code: 'PAYER_FAILURE' }, discover: { status: 502, error_code: 'PAYER_FAILURE' } },
  },
  {
    member_id: '21102MHRR', person: { first_name: 'Ruth', last_name: 'Abbott', dob: '1966-01-15', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: null, scenario: 'payer_not_supported',
    description: 'The payer does not accept inquiries from this service (AAA 79)', plan: 'commercial_copay', answer: { kind: 'reject', level: 'payer', reason_code: '79', followup: 'N' },
    expect: { estimate: { status: 400, error_code: 'PAYER_NOT_SUPPORTED' }, discover: { status: 400, error_code: 'PAYER_NOT_SUPPORTED' } },
  },
  {
    member_id: 'PNR40001', person: { first_name: 'Caleb', last_name: 'Foster', dob: '1988-08-18', gender: 'M' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: null, scenario: 'provider_not_recognized',
    description: 'The payer does not recognize the provider (AAA 50 at the provider level)', plan: 'commercial_hmo', answer: { kind: 'reject', level: 'provider', reason_code: '50', followup: 'N' },
    expect: { estimate: { status: 400, error_code: 'PROVIDER_NOT_RECOGNIZED' }, discover: { status: 400, error_code: 'PROVIDER_NOT_RECOGNIZED' } },
  },
  {
    member_id: 'TMR42901', person: { first_name: 'Iris', last_name: 'Novak', dob: '1979-05-05', gender: 'F' }, relationship: 'self',
    payer_id: 'SBX-HARBOR', address: null, scenario: 'payer_throttled',
    description: 'The payer throttles this practice: too many requests', plan: 'commercial_hmo', answer: { kind: 'fault', fault: 'throttled' },
    expect: { estimate: { status: 429, error_code: 'TOO_MANY_REQUESTS' }, discover: { status: 429, error_code: 'TOO_MANY_REQUESTS' } },
  },
  // Plan-year reset variants (spec 3): the plan ends in 20 days; what the next year brings
  ...(
    [
      ['10110MHDM', 'Elise', 'Hart', '1984-02-02', 'reset_no_action', 'Plan renews in 20 days with the same benefits', { copayment: 3000, coinsurance: null, deductible: 150000, oop_max: 600000 }, null],
      ['10111MHDM', 'Raj', 'Malhotra', '1978-03-03', 'reset_copay_change', 'Plan renews in 20 days; copay rises to $40', { copayment: 4000, coinsurance: null, deductible: 150000, oop_max: 600000 }, null],
      ['10112MHDM', 'Chloe', 'Dubois', '1991-04-04', 'reset_coinsurance_change', 'Plan renews in 20 days; 10 % coinsurance added', { copayment: 3000, coinsurance: 10, deductible: 150000, oop_max: 600000 }, null],
      ['10113MHDM', 'Mateo', 'Silva', '1987-05-05', 'reset_member_id_change', 'Plan renews in 20 days under a new member ID', { copayment: 3000, coinsurance: null, deductible: 150000, oop_max: 600000 }, '20113MHDM'],
      ['10114MHDM', 'Ava', 'Lindgren', '1993-06-06', 'reset_oop_max_change', 'Plan renews in 20 days; OOP maximum rises to $7,000', { copayment: 3000, coinsurance: null, deductible: 150000, oop_max: 700000 }, null],
      ['10115MHDM', 'Noah', 'Bergstrom', '1976-07-07', 'reset_copay_deductible_oop_change', 'Plan renews in 20 days; copay, deductible and OOP maximum all change', { copayment: 3500, coinsurance: null, deductible: 200000, oop_max: 650000 }, null],
    ] as const
  ).map(([member_id, first_name, last_name, dob, scenario, description, next, newId]): CatalogMember => ({
    member_id, person: { first_name, last_name, dob, gender: 'U' }, relationship: 'self',
    payer_id: 'SBX-EVERGREEN', address: nyc('250 W 57TH ST'), scenario, description, plan: 'commercial_copay',
    overrides: {
      plan_begin_date: '@today-345', plan_end_date: '@today+20',
      next_plan_year: { begin_date: '@today+21', member_id: newId, in_network: { ...next } },
    },
    expect: everywhere,
  })),
];
