/**
 * The normalized coverage model: what a 271 says about one member's plan, independent of X12.
 * The sandbox catalog describes plans in this shape, the 271 builder writes it, the normalizer
 * reads it back, and the estimate engine computes obligations from it.
 * Money is integer cents; coinsurance is percent points (20 = 20 %); dates are YYYY-MM-DD.
 * The parts responses show as they are (people, entities, policies, enums) are TypeBox schemas in
 * schemas/coverage.ts; their types are re-exported here.
 */
import type {
  AdditionalPolicy,
  CoverageStatus,
  InsuranceType,
  MentalHealthCoverage,
  OtherEntity,
  Pcp,
  Person,
  PlanType,
  Relationship,
} from './schemas/coverage.ts';

export type { AdditionalPolicy, CoverageStatus, InsuranceType, MentalHealthCoverage, OtherEntity, Pcp, Person, PlanType, Relationship };
export type { Address, Gender } from './schemas/coverage.ts';

export type Cents = number;
export type IsoDate = string;

/** A total and what is left of it this plan year; null means the payer did not say. */
export interface Accumulator {
  total: Cents | null;
  remaining: Cents | null;
}

export interface NetworkBenefits {
  /** Per-visit copay for a behavioral-health office visit; null when unknown. */
  copayment: Cents | null;
  /** Percent points the member pays after any deductible; null when unknown. */
  coinsurance: number | null;
  /** True when the deductible must be met before the cost share applies; false when waived or absent. */
  deductible_applies: boolean;
  /** null: the plan reports no deductible for this benefit. Accumulators with nulls: amounts unknown. */
  deductible: { individual: Accumulator; family: Accumulator } | null;
  /** null: the plan has no out-of-pocket maximum. Accumulators with nulls: amounts unknown. */
  oop_max: { individual: Accumulator; family: Accumulator } | null;
  /**
   * Visit limit for the plan year (EB*F ... VS), null when none is reported; always a count of visits. A limit
   * in another unit a session uses (hours, days: docs/estimates.md 1.1 "Visit limits") gives remaining 0 when
   * none of it is left, and never its own figures.
   */
  visit_limit: { total: number | null; remaining: number | null } | null;
  /** The payer reports the service not covered (EB01 I for it): the member pays the whole session. Absent: covered or unknown. */
  not_covered?: true;
  /** Why the session is not covered when a gate closed it (Medicare Part B, behavioral health inactive, spend-down); absent: EB01 I. */
  not_covered_reason?: string;
  /** The payer's MSG says the member pays the greater or the lesser of the copay and the coinsurance, never both (docs/estimates.md 1.1). */
  combine?: 'greater' | 'lesser';
  /** The most the member pays of the coinsurance for one session, in cents (an MSG caps it: docs/estimates.md 1.1); absent: no cap. */
  coinsurance_cap?: Cents;
  /**
   * A dollar maximum on what the payer pays (EB01 F with an amount, no unit: docs/estimates.md 1.1 "Limits and caps"):
   * the most it pays for this session, 0 when used up, null when unknown; absent when no dollar limit is stated.
   */
  payer_cap?: Cents | null;
  /** No status row (EB01 1-8) speaks for this network while one speaks for the other: covered or not is unknown (docs/estimates.md 1.1). */
  status_unknown?: true;
  /** EB11 of the benefit that prices the session: Y true, N false; absent when the payer does not say. */
  prior_authorization_required?: boolean;
  /** 2110C REF*G1 (prior authorization number) on the benefit that prices the session, when every such row agrees. */
  prior_authorization_number?: string;
}

export interface CostShare {
  copayment: Cents | null;
  coinsurance: number | null;
  /** Greater or lesser of the two, never both (NetworkBenefits.combine); absent: the copay, then the coinsurance on the rest. */
  combine?: 'greater' | 'lesser';
  /** The most the member pays of the coinsurance for one session (NetworkBenefits.coinsurance_cap); absent: no cap. */
  coinsurance_cap?: Cents;
}

/** What the next plan year brings, when the payer already reports it (EB with a future DTP*348). */
export interface NextPlanYear {
  begin_date: IsoDate;
  member_id: string | null;
  in_network: {
    copayment: Cents | null;
    coinsurance: number | null;
    deductible: Cents | null;
    oop_max: Cents | null;
  } | null;
}

export interface Coverage {
  payer_id: string;
  payer_name: string;
  plan_name: string | null;
  plan_type: PlanType;
  insurance_type: InsuranceType;
  group_name: string | null;
  group_id: string | null;
  plan_begin_date: IsoDate | null;
  plan_end_date: IsoDate | null;
  eligibility_end_date: IsoDate | null;
  coverage_status: CoverageStatus;
  mental_health_coverage: MentalHealthCoverage;
  in_network: NetworkBenefits | null;
  out_of_network: NetworkBenefits | null;
  /** Telehealth cost share, only when it differs from in-person. */
  telehealth: { in_network: CostShare | null; out_of_network: CostShare | null } | null;
  pcp: Pcp | null;
  third_party_payer: OtherEntity | null;
  utilization_manager: OtherEntity | null;
  additional_policies: AdditionalPolicy[];
  is_marketplace: boolean;
  is_bluecard: boolean;
  is_hdhp: boolean;
  member: Person;
  subscriber: Person;
  relationship_to_subscriber: Relationship;
  /** The payer changed identifying data we sent (271 INS*Y*18*001*25). */
  payer_corrected_demographics: boolean;
  next_plan_year: NextPlanYear | null;
  /**
   * Set only when the date of service falls in the next plan year, whose benefits then fill
   * in_network, out_of_network and telehealth (docs/estimates.md section 1.1): this plan year's
   * in-network benefits, which the reset rules compare with the next year's (section 11).
   */
  this_plan_year_in_network?: NetworkBenefits | null;
  /** Free-text MSG segments, kept for the operator and for hints. */
  messages: string[];
  /** No EB04 anywhere and no program named in plan or payer text: commercial by default, so the payer directory may still know better. */
  program_unstated?: true;
  /** A QMB member of a Medicare Advantage plan (insurance_type stays medicare_advantage); other QMB members are insurance_type qmb. */
  qmb?: true;
}
