/**
 * The shape of the sandbox scenario catalog (payers.json, plans.json, members.json,
 * suffixes.json), written once as TypeBox schemas: the same definitions give the TypeScript types
 * and the check the files pass when they load (load-catalog.ts). Entries describe members and
 * their plans, never final JSON: responses are computed from them by the same X12 and estimate
 * code production uses. Dates may be tokens relative to the clock ("@today+20", "@year_start",
 * "@year_end", "@last_year_start", "@next_year_start") so scenarios keep their meaning on any day.
 *
 * Plan names and payer IDs are keys (PlanKey, PayerId): a member, a suffix scenario or an
 * administrator naming a plan that plans.json does not hold, or a payer the catalog does not have,
 * fails the load (load-catalog.ts checks each against the files' own keys).
 */
import { Type, type Static, type TSchema } from 'typebox';
import {
  AdditionalPolicy,
  Address,
  CoverageStatus,
  Enum,
  Gender,
  InsuranceType,
  MentalHealthCoverage,
  Nullable,
  OtherEntity,
  Pcp,
  PlanType,
  Relationship,
} from '../domain/schemas/coverage.ts';
import { ErrorCodes, type ErrorCode } from '../domain/errors.ts';
import { US_STATE_CODES } from '../domain/us-states.ts';

/** A calendar date, or a token the sandbox resolves against its clock (payers/sandbox/resolve-plan.ts). */
const DateOrToken = Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2}|@today([+-]\\d+)?|@year_start|@year_end|@last_year_start|@next_year_start)$' });
const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Cents = Nullable(Type.Integer({ minimum: 0 }));
const Percent = Nullable(Type.Number({ minimum: 0, maximum: 100 }));
const Accumulator = Type.Object({ total: Cents, remaining: Cents }, { additionalProperties: false });
const Accumulators = Nullable(Type.Object({ individual: Accumulator, family: Accumulator }, { additionalProperties: false }));
const CostShare = Type.Object({ copayment: Cents, coinsurance: Percent }, { additionalProperties: false });
const closed = { additionalProperties: false } as const;

/** The benefits of one network, as domain/coverage.ts NetworkBenefits holds them. */
const NetworkBenefits = Type.Object(
  {
    copayment: Cents,
    coinsurance: Percent,
    deductible_applies: Type.Boolean(),
    deductible: Accumulators,
    oop_max: Accumulators,
    visit_limit: Nullable(Type.Object({ total: Nullable(Type.Integer({ minimum: 0 })), remaining: Nullable(Type.Integer({ minimum: 0 })) }, closed)),
  },
  closed,
);

const NextPlanYear = Type.Object(
  {
    begin_date: DateOrToken,
    member_id: Nullable(Type.String()),
    in_network: Nullable(Type.Object({ copayment: Cents, coinsurance: Percent, deductible: Cents, oop_max: Cents }, closed)),
  },
  closed,
);

/** Plan fields as the catalog writes them: a Coverage without the member, subscriber and payer. */
const CatalogPlanSchema = Type.Object(
  {
    plan_name: Nullable(Type.String()),
    plan_type: PlanType,
    insurance_type: InsuranceType,
    group_name: Nullable(Type.String()),
    group_id: Nullable(Type.String()),
    plan_begin_date: Nullable(DateOrToken),
    plan_end_date: Nullable(DateOrToken),
    eligibility_end_date: Nullable(DateOrToken),
    coverage_status: CoverageStatus,
    mental_health_coverage: MentalHealthCoverage,
    in_network: Nullable(NetworkBenefits),
    out_of_network: Nullable(NetworkBenefits),
    telehealth: Nullable(Type.Object({ in_network: Nullable(CostShare), out_of_network: Nullable(CostShare) }, closed)),
    pcp: Nullable(Pcp),
    third_party_payer: Nullable(OtherEntity),
    utilization_manager: Nullable(OtherEntity),
    additional_policies: Type.Array(AdditionalPolicy),
    is_marketplace: Type.Boolean(),
    is_bluecard: Type.Boolean(),
    is_hdhp: Type.Boolean(),
    payer_corrected_demographics: Type.Boolean(),
    next_plan_year: Nullable(NextPlanYear),
    messages: Type.Array(Type.String()),
  },
  closed,
);

/** What a member or scenario changes of its plan: whole fields, each replacing the plan's. */
const PlanOverridesSchema = Type.Partial(CatalogPlanSchema);

const CatalogPersonSchema = Type.Object({ first_name: Type.String(), last_name: Type.String(), dob: CalendarDate, gender: Gender }, closed);

const RejectAnswer = Type.Object(
  {
    kind: Type.Literal('reject'),
    level: Enum(['payer', 'provider', 'subscriber'] as const),
    /** AAA03 the payer answers with. */
    reason_code: Type.String({ pattern: '^[0-9A-Z]{2}$' }),
    /** AAA04. */
    followup: Enum(['C', 'N', 'R', 'W', 'X', 'Y'] as const),
  },
  closed,
);
/** How the payer answers instead of returning coverage; a fault: its endpoint itself fails or throttles, no 271 comes back. */
const ScenarioAnswerSchema = Type.Union([
  Type.Object({ kind: Type.Literal('coverage') }, closed),
  RejectAnswer,
  Type.Object({ kind: Type.Literal('fault'), fault: Enum(['payer_failure', 'throttled'] as const) }, closed),
]);

const ExpectationSchema = Type.Object(
  {
    status: Type.Integer({ minimum: 200, maximum: 599 }),
    error_code: Nullable(Enum(Object.keys(ErrorCodes) as ErrorCode[])),
  },
  closed,
);

/** Keyed by the first digit of a generated ID's numeric prefix. */
const ByPrefix = <T extends TSchema>(t: T) => Type.Object({ byPrefix: Type.Record(Type.String({ pattern: '^[0-9]$' }), t) }, closed);

const SandboxPayerSchema = Type.Object(
  {
    payer_id: Type.String({ pattern: '^[A-Z0-9-]+$' }),
    name: Type.String({ minLength: 1 }),
    /** Answers name + DOB searches (discover, scan). */
    supports_search: Type.Boolean(),
    /** The state whose Medicaid program this payer is. */
    medicaid_state: Nullable(Enum(US_STATE_CODES)),
  },
  closed,
);

/** A key of plans.json. */
const PlanKey = Type.String({ pattern: '^[a-z0-9_]+$' });
/** A payer of payers.json, or a state's Medicaid program SBX-MCD-<state>. */
const PayerId = Type.String({ pattern: '^[A-Z0-9-]+$' });

const CatalogMemberSchema = Type.Object(
  {
    member_id: Type.String({ minLength: 1 }),
    person: CatalogPersonSchema,
    /** The payer's own record when it differs from what a caller is expected to send (demographic mismatch). */
    payer_record: Type.Optional(Type.Partial(CatalogPersonSchema)),
    /** Present for dependents: the subscriber who holds the policy. */
    subscriber: Type.Optional(
      Type.Object({ member_id: Type.String({ minLength: 1 }), first_name: Type.String(), last_name: Type.String(), dob: CalendarDate, gender: Gender }, closed),
    ),
    relationship: Relationship,
    payer_id: PayerId,
    address: Nullable(Address),
    /** Medicaid members: the state whose program covers them. */
    patient_state: Type.Optional(Enum(US_STATE_CODES)),
    scenario: Type.String({ pattern: '^[a-z0-9_]+$' }),
    description: Type.String({ minLength: 1 }),
    plan: PlanKey,
    overrides: Type.Optional(PlanOverridesSchema),
    answer: Type.Optional(ScenarioAnswerSchema),
    /** Expected status and error code per endpoint the member serves; tests assert these over HTTP. */
    expect: Type.Object(
      {
        estimate: Type.Optional(ExpectationSchema),
        discover: Type.Optional(ExpectationSchema),
        scan: Type.Optional(ExpectationSchema),
        medicaid: Type.Optional(ExpectationSchema),
      },
      { ...closed, minProperties: 1 },
    ),
  },
  closed,
);
/** A scenario selected by the member ID suffix (docs/interface.md 7.4): `<digits>MH<suffix>`. */
const SuffixScenarioSchema = Type.Object(
  {
    suffix: Type.String({ pattern: '^[A-Z]+$' }),
    scenario: Type.String({ pattern: '^[a-z0-9_]+$' }),
    description: Type.String({ minLength: 1 }),
    plan: PlanKey,
    overrides: Type.Optional(PlanOverridesSchema),
    /** Answer chosen by the first digit of the numeric prefix (RR: 1 payer failure, 2 not supported). */
    answer: Type.Optional(Type.Union([ScenarioAnswerSchema, ByPrefix(ScenarioAnswerSchema)])),
    expect: Type.Union([ExpectationSchema, ByPrefix(ExpectationSchema)]),
  },
  closed,
);
const PayersFileSchema = Type.Object(
  {
    /** The payer ID a blank payer_id is sent to in the sandbox: any payer's member answers. */
    any_payer_id: Type.String({ minLength: 1 }),
    /** The payer that answers generated member IDs when neither the request nor default_suffix_payer names one. */
    default_payer_id: PayerId,
    /** Per suffix, the payer that answers its generated member IDs when the request names none. */
    default_suffix_payer: Type.Record(Type.String({ pattern: '^[A-Z]+$' }), PayerId),
    /** Carve-out administrators and the plan they answer with for the members handed to them. */
    administrator_plans: Type.Record(Type.String(), PlanKey),
    /** The commercial and Medicare payers; the Medicaid programs (one per state) are added by the load. */
    payers: Type.Array(SandboxPayerSchema),
  },
  closed,
);

/** The four files together: what the load checks. */
export const CatalogFilesSchema = Type.Object(
  {
    payers: PayersFileSchema,
    plans: Type.Record(PlanKey, CatalogPlanSchema),
    members: Type.Array(CatalogMemberSchema),
    suffixes: Type.Array(SuffixScenarioSchema),
  },
  closed,
);

export type SandboxPayer = Static<typeof SandboxPayerSchema>;
export type CatalogPlan = Static<typeof CatalogPlanSchema>;
export type PlanOverrides = Static<typeof PlanOverridesSchema>;
export type CatalogPerson = Static<typeof CatalogPersonSchema>;
export type ScenarioAnswer = Static<typeof ScenarioAnswerSchema>;
export type Expectation = Static<typeof ExpectationSchema>;
export type CatalogMember = Static<typeof CatalogMemberSchema>;
export type SuffixScenario = Static<typeof SuffixScenarioSchema>;
export type PayersFile = Static<typeof PayersFileSchema>;
export type CatalogFiles = Static<typeof CatalogFilesSchema>;
