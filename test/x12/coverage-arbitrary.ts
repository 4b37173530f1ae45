/**
 * fast-check arbitraries for Coverage and Inquiry values the X12 encoding can express
 * (src/x12/build-271.ts lists what it cannot): upper-case text without delimiters or hint words,
 * and the few cross-field rules the normalizer derives (e.g. a carve-out always names its
 * administrator, a commercial plan flagged HDHP without another plan type is plan_type HDHP).
 */
import { isAnniversaryEnd } from '../../src/x12/plan-dates.ts';
import fc from 'fast-check';
import type {
  Accumulator,
  AdditionalPolicy,
  Address,
  Coverage,
  CostShare,
  IsoDate,
  NetworkBenefits,
  NextPlanYear,
  OtherEntity,
  Pcp,
  Person,
} from '../../src/domain/coverage.ts';
import type { Inquiry, InquiryPerson } from '../../src/domain/inquiry.ts';

const WORDS = [
  'ACME',
  'RIVER',
  'NORTH',
  'STAR',
  'HEALTH',
  'CARE',
  'PLAN',
  'GOLD',
  'SILVER',
  'SELECT',
  'CHOICE',
  'COMMUNITY',
  'VALLEY',
  'PREMIER',
  'FAMILY',
  'SUMMIT',
  'UNITED',
  'LIBERTY',
  'HARBOR',
  'EVERGREEN',
  'MINDFUL',
  'BEHAVIORAL',
  'NETWORK',
  'CLINIC',
  'GROUP',
  'SERVICES',
  '123',
  'A1',
  "O'NEIL",
  'SMITH-JONES',
  'ST.',
  'PERIOD;',
  '(HOME)',
  '#12',
  'N/A',
  'GRACE',
  'PEND',
];

/** Plain-prototype records, so deepStrictEqual compares them with what the normalizer builds. */
const rec = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> => fc.record(model, { noNullPrototype: true });

export const word = fc.constantFrom(...WORDS);
export const text = (maxWords: number) => fc.array(word, { minLength: 1, maxLength: maxWords }).map((ws) => ws.join(' '));
export const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 3 });
export const id = fc.stringMatching(/^[A-Z0-9][A-Z0-9-]{1,14}$/);
export const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
export const cents = fc.oneof(fc.integer({ min: 0, max: 2_000_000 }), fc.constantFrom(0, 1, 99, 100, 1050, 2500));
export const percent = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(12.5, 33.33, 7.25));

const DAY = 86_400_000;
const EPOCH_1990 = Date.UTC(1990, 0, 1);
export const isoFromDays = (days: number): IsoDate => new Date(EPOCH_1990 + days * DAY).toISOString().slice(0, 10);
const daysOf = (iso: IsoDate) => Math.round((Date.parse(`${iso}T00:00:00Z`) - EPOCH_1990) / DAY);
export const date = fc.integer({ min: 0, max: 45 * 365 }).map(isoFromDays);

export const address: fc.Arbitrary<Address> = rec({
  street_line_1: text(4),
  street_line_2: nullable(text(2)),
  city: text(2),
  state: fc.constantFrom('MO', 'CA', 'NY', 'TX', 'WA'),
  zip: fc.oneof(digits(5), digits(9)),
});

export const person: fc.Arbitrary<Person> = rec({
  first_name: nullable(word),
  last_name: nullable(word),
  member_id: nullable(id),
  gender: fc.constantFrom('M' as const, 'F' as const, 'U' as const, null),
  dob: nullable(date),
  address: nullable(address),
});

const accumulator: fc.Arbitrary<Accumulator> = rec({ total: nullable(cents), remaining: nullable(cents) });
const accumulators = rec({ individual: accumulator, family: accumulator });

export const networkBenefits: fc.Arbitrary<NetworkBenefits> = rec({
  copayment: nullable(cents),
  coinsurance: nullable(percent),
  deductible_applies: fc.boolean(),
  deductible: nullable(accumulators),
  oop_max: nullable(accumulators),
  visit_limit: nullable(
    rec({ total: nullable(fc.integer({ min: 1, max: 60 })), remaining: nullable(fc.integer({ min: 0, max: 60 })) }).filter(
      (v) => v.total !== null || v.remaining !== null,
    ),
  ),
});

const costShare: fc.Arbitrary<CostShare> = rec({ copayment: nullable(cents), coinsurance: nullable(percent) }).filter(
  (c) => c.copayment !== null || c.coinsurance !== null,
);

export const otherEntity: fc.Arbitrary<OtherEntity> = rec({ name: text(3), payer_id: nullable(id), phone: nullable(digits(10)) });

export const pcp: fc.Arbitrary<Pcp> = rec({
  first_name: nullable(word),
  last_name: nullable(word),
  npi: nullable(digits(10)),
  organization_name: nullable(text(3)),
});

export const additionalPolicy: fc.Arbitrary<AdditionalPolicy> = rec({
  payer_name: text(3),
  payer_id: nullable(id),
  policy_number: nullable(id),
  insurance_type: fc.constantFrom(null, 'commercial' as const, 'medicare' as const, 'medicare_advantage' as const, 'medicaid' as const, 'qmb' as const),
  coordination: fc.constantFrom(null, 'primary' as const, 'secondary' as const, 'tertiary' as const),
});

const nextPlanYear = rec({
  days_after: fc.integer({ min: 1, max: 400 }),
  member_id: nullable(id),
  in_network: nullable(rec({ copayment: nullable(cents), coinsurance: nullable(percent), deductible: nullable(cents), oop_max: nullable(cents) })),
});

const raw = rec({
  payer_id: id,
  payer_name: text(4),
  plan_name: nullable(text(4)),
  plan_type: fc.constantFrom('HMO' as const, 'PPO' as const, 'EPO' as const, 'POS' as const, 'HDHP' as const, 'INDEMNITY' as const, null),
  insurance_type: fc.constantFrom(
    'commercial' as const,
    'medicare' as const,
    'medicare_advantage' as const,
    'medicaid' as const,
    'managed_medicaid' as const,
    'qmb' as const,
    'marketplace' as const,
  ),
  group_name: nullable(text(3)),
  group_id: nullable(id),
  plan_begin_date: nullable(date),
  plan_end_date: nullable(date),
  eligibility_end_date: nullable(date),
  coverage_status: fc.constantFrom('active' as const, 'active_pending_investigation' as const, 'inactive' as const),
  mental_health_coverage: fc.constantFrom('active' as const, 'inactive' as const, 'carved_out' as const, 'unknown' as const),
  in_network: nullable(networkBenefits),
  out_of_network: nullable(networkBenefits),
  telehealth_in: nullable(costShare),
  telehealth_out: nullable(costShare),
  pcp: nullable(pcp),
  third_party_payer: nullable(otherEntity),
  utilization_manager: nullable(otherEntity),
  additional_policies: fc.array(additionalPolicy, { maxLength: 2 }),
  is_marketplace: fc.boolean(),
  is_bluecard: fc.boolean(),
  is_hdhp: fc.boolean(),
  member: person,
  subscriber: person,
  relationship_to_subscriber: fc.constantFrom('self' as const, 'spouse' as const, 'child' as const, 'other' as const),
  payer_corrected_demographics: fc.boolean(),
  next_plan_year: nullable(nextPlanYear),
  messages: fc.array(text(6), { maxLength: 3 }),
});

type Raw = typeof raw extends fc.Arbitrary<infer T> ? T : never;

function differs(cs: CostShare | null, inPerson: NetworkBenefits | null): CostShare | null {
  if (!cs) return null;
  const same = cs.copayment === (inPerson?.copayment ?? null) && cs.coinsurance === (inPerson?.coinsurance ?? null);
  return same ? null : cs;
}

/** Applies the cross-field rules so the value is one the normalizer can produce. */
function expressible(r: Raw): Coverage {
  const { telehealth_in, telehealth_out, next_plan_year, ...rest } = r;
  const c: Coverage = { ...rest, telehealth: null, next_plan_year: null };
  const commercial = c.insurance_type === 'commercial' || c.insurance_type === 'marketplace';
  if (commercial) {
    if (c.plan_type === 'HDHP') c.is_hdhp = true;
    else if (c.plan_type === null && c.is_hdhp) c.plan_type = 'HDHP';
    c.is_marketplace = c.insurance_type === 'marketplace';
  } else if (c.insurance_type === 'medicare_advantage') {
    if (c.plan_type === null || c.plan_type === 'HDHP') c.plan_type = 'HMO';
  } else if (c.plan_type === 'HDHP') {
    c.plan_type = null;
  }
  // Medicaid through an HMO is managed Medicaid (docs/estimates.md 1.2).
  if (c.insurance_type === 'medicaid' && c.plan_type === 'HMO') c.insurance_type = 'managed_medicaid';
  // The plan inactive beside mental health active reads as a behavioral-health-only program, active (docs/estimates.md 1.1).
  if (c.coverage_status === 'inactive') {
    c.third_party_payer = null;
    if (c.mental_health_coverage !== 'unknown') c.mental_health_coverage = 'inactive';
  }
  if (c.third_party_payer) c.mental_health_coverage = 'carved_out';
  else if (c.mental_health_coverage === 'carved_out') c.mental_health_coverage = 'active';
  const tIn = differs(telehealth_in, c.in_network);
  const tOut = differs(telehealth_out, c.out_of_network);
  c.telehealth = tIn || tOut ? { in_network: tIn, out_of_network: tOut } : null;
  if (c.plan_begin_date && c.plan_end_date && c.coverage_status !== 'inactive' && !isAnniversaryEnd(c.plan_begin_date, c.plan_end_date)) {
    // A plan end that is no anniversary of the begin reads as a termination (eligibility end), so written plan ends are anniversaries.
    const end = new Date(`${c.plan_begin_date}T00:00:00Z`);
    end.setUTCFullYear(end.getUTCFullYear() + 1);
    end.setUTCDate(end.getUTCDate() - 1);
    c.plan_end_date = end.toISOString().slice(0, 10);
  }
  // Without a plan end a later begin in force on the date of service is a change within the year (docs/estimates.md): a next year is written beside a plan end.
  if (next_plan_year && c.plan_begin_date && c.plan_end_date) {
    const after = Math.max(daysOf(c.plan_begin_date), daysOf(c.plan_end_date));
    const next: NextPlanYear = {
      begin_date: isoFromDays(after + next_plan_year.days_after),
      member_id: next_plan_year.member_id,
      in_network: next_plan_year.in_network,
    };
    c.next_plan_year = next;
  }
  if (c.relationship_to_subscriber === 'self') c.subscriber = c.member;
  return c;
}

export const coverageArbitrary: fc.Arbitrary<Coverage> = raw.map(expressible);

const inquiryPerson = (withId: boolean): fc.Arbitrary<InquiryPerson> =>
  rec({
    member_id: withId ? nullable(id) : fc.constant(null),
    first_name: nullable(word),
    last_name: nullable(word),
    dob: nullable(date),
    zip: nullable(digits(5)),
  });

const SERVICE_TYPES = ['MH', 'CF', 'A4', 'A6', 'A7', 'A8', 'AI', '30', '98', '1', '33', 'UC'];

export const inquiryArbitrary: fc.Arbitrary<Inquiry> = rec({
  trace_number: id,
  payer: rec({ id, name: nullable(text(3)) }),
  provider: fc.oneof(
    rec({
      npi: nullable(digits(10)),
      first_name: nullable(word),
      last_name: word,
      organization_name: fc.constant(null),
    }),
    rec({ npi: nullable(digits(10)), first_name: fc.constant(null), last_name: fc.constant(null), organization_name: nullable(text(3)) }),
  ),
  subscriber: inquiryPerson(true),
  dependent: nullable(inquiryPerson(false)),
  service_types: fc.array(fc.constantFrom(...SERVICE_TYPES), { minLength: 1, maxLength: 6 }),
  date,
});
