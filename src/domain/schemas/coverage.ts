/**
 * The parts of the normalized coverage model (domain/coverage.ts) that responses show as they are:
 * written once here as TypeBox schemas, so the response schemas (responses.ts), the OpenAPI
 * document and the TypeScript types (Static) all keep the same fields and the same enums.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Literals } from './literals.ts';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const text = Nullable(Type.String());

export const INSURANCE_TYPES = ['commercial', 'medicare', 'medicare_advantage', 'medicaid', 'managed_medicaid', 'qmb', 'marketplace'] as const;
export const InsuranceType = Literals(INSURANCE_TYPES);
export type InsuranceType = Static<typeof InsuranceType>;

export const PLAN_TYPES = ['HMO', 'PPO', 'EPO', 'POS', 'HDHP', 'INDEMNITY'] as const;
/** null: the payer names no plan type. */
export const PlanType = Nullable(Literals(PLAN_TYPES));
export type PlanType = Static<typeof PlanType>;

/** EB01 of the plan-level benefit: 1 active, 5 active pending investigation, 6 inactive. */
export const COVERAGE_STATUSES = ['active', 'active_pending_investigation', 'inactive'] as const;
export const CoverageStatus = Literals(COVERAGE_STATUSES);
export type CoverageStatus = Static<typeof CoverageStatus>;

export const MENTAL_HEALTH_COVERAGES = ['active', 'inactive', 'carved_out', 'unknown'] as const;
export const MentalHealthCoverage = Literals(MENTAL_HEALTH_COVERAGES);
export type MentalHealthCoverage = Static<typeof MentalHealthCoverage>;

export const RELATIONSHIPS = ['self', 'spouse', 'child', 'other'] as const;
export const Relationship = Literals(RELATIONSHIPS);
export type Relationship = Static<typeof Relationship>;

export const GENDERS = ['M', 'F', 'U'] as const;
export const Gender = Literals(GENDERS);
export type Gender = Static<typeof Gender>;

export const Address = Type.Object({
  street_line_1: Type.String(),
  street_line_2: text,
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
});
export type Address = Static<typeof Address>;

/** A member or subscriber as the payer knows them (the responses' demographics). */
export const Person = Type.Object({
  first_name: text,
  last_name: text,
  member_id: text,
  gender: Nullable(Gender),
  dob: Nullable(Type.String({ format: 'date' })),
  /** null when the payer sent no address (the "missing address" scenario). */
  address: Nullable(Address),
});
export type Person = Static<typeof Person>;

/** A third-party administrator or utilization manager the payer names. */
export const OtherEntity = Type.Object({ name: Type.String(), payer_id: text, phone: text });
export type OtherEntity = Static<typeof OtherEntity>;

export const Pcp = Type.Object({
  first_name: text,
  last_name: text,
  npi: text,
  /** The practice or group the PCP belongs to, when the payer names one. */
  organization_name: text,
});
export type Pcp = Static<typeof Pcp>;

export const AdditionalPolicy = Type.Object({
  payer_name: Type.String(),
  payer_id: text,
  policy_number: text,
  insurance_type: Nullable(InsuranceType),
  /** Which payer pays first, when the 271 says (2120 NM1*PRP / SEP / TTP). */
  coordination: Nullable(Literals(['primary', 'secondary', 'tertiary'] as const)),
});
export type AdditionalPolicy = Static<typeof AdditionalPolicy>;
