/**
 * The parts of the normalized coverage model (domain/coverage.ts) that responses show as they are:
 * written once here as TypeBox schemas, so the response schemas (responses.ts), the OpenAPI
 * document and the TypeScript types (Static) all keep the same fields and the same enums.
 */
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/*
 * Response schemas say "null or X" as `type: [X's type, 'null']` and a string enum as `enum`, not as
 * anyOf: Fastify's serializer writes those with a typeof check, where an anyOf makes it run a JSON
 * Schema validator on every field of every answer (and compile it on the first one).
 */

/** One of these strings. */
export const Enum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** The schema or null. */
export function Nullable<T extends TSchema>(t: T): TUnsafe<Static<T> | null> {
  const schema = t as unknown as { type?: unknown; enum?: unknown[]; anyOf?: unknown };
  if (typeof schema.type !== 'string' || schema.anyOf !== undefined) return Type.Unsafe<Static<T> | null>(Type.Union([t, Type.Null()]));
  return Type.Unsafe<Static<T> | null>({ ...t, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) });
}
const text = Nullable(Type.String());

export const INSURANCE_TYPES = ['commercial', 'medicare', 'medicare_advantage', 'medicaid', 'managed_medicaid', 'qmb', 'marketplace'] as const;
export const InsuranceType = Enum(INSURANCE_TYPES);
export type InsuranceType = Static<typeof InsuranceType>;

export const PLAN_TYPES = ['HMO', 'PPO', 'EPO', 'POS', 'HDHP', 'INDEMNITY'] as const;
/** null: the payer names no plan type. */
export const PlanType = Nullable(Enum(PLAN_TYPES));
export type PlanType = Static<typeof PlanType>;

/**
 * EB01 of the plan-level benefit: 1 active, 5 active pending investigation, 6 inactive; `unknown`: the payer sent no
 * eligibility status (EB01 1-8) for the plan or for mental health (docs/estimates.md 1.1).
 */
export const COVERAGE_STATUSES = ['active', 'active_pending_investigation', 'inactive', 'unknown'] as const;
export const CoverageStatus = Enum(COVERAGE_STATUSES);
export type CoverageStatus = Static<typeof CoverageStatus>;

export const MENTAL_HEALTH_COVERAGES = ['active', 'inactive', 'carved_out', 'unknown'] as const;
export const MentalHealthCoverage = Enum(MENTAL_HEALTH_COVERAGES);
export type MentalHealthCoverage = Static<typeof MentalHealthCoverage>;

export const RELATIONSHIPS = ['self', 'spouse', 'child', 'other'] as const;
export const Relationship = Enum(RELATIONSHIPS);
export type Relationship = Static<typeof Relationship>;

export const GENDERS = ['M', 'F', 'U'] as const;
export const Gender = Enum(GENDERS);
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
  coordination: Nullable(Enum(['primary', 'secondary', 'tertiary'] as const)),
});
export type AdditionalPolicy = Static<typeof AdditionalPolicy>;
