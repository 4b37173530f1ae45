/** Response bodies (docs/interface.md section 2): one set of TypeBox schemas for serialization, OpenAPI and the client. */
import { Type, type Static } from 'typebox';
import {
  AdditionalPolicy,
  CoverageStatus,
  Enum,
  InsuranceType,
  MentalHealthCoverage,
  Nullable,
  OtherEntity,
  Pcp,
  Person,
  PlanType,
  Relationship,
} from './coverage.ts';

const cents = (description: string) => Nullable(Type.Integer({ description: `${description} (cents)` }));
const text = Nullable(Type.String());
const date = Nullable(Type.String({ format: 'date' }));

export const BENEFIT_STRUCTURES = [
  'Copay, no deductible, with OOP Max',
  'Copay, no deductible, no OOP Max',
  'Coinsurance, no deductible, with OOP Max',
  'Coinsurance, no deductible, no OOP Max',
  'Copay and coinsurance, no deductible, with OOP Max',
  'Coinsurance after deductible, with OOP Max',
  'Coinsurance after deductible, no OOP Max',
  'Copay after deductible, with OOP Max',
  'Copay after deductible, no OOP Max',
  'Copay and coinsurance after deductible, with OOP Max',
  'Fully covered',
  'Fully covered after deductible',
] as const;
export type BenefitStructure = (typeof BENEFIT_STRUCTURES)[number];
const BenefitStructureSchema = Nullable(Enum(BENEFIT_STRUCTURES));

export const PLAN_STATUSES = ['ACTIVE', 'INACTIVE', 'ACTIVE_AT_RISK'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const RESET_STATUSES = ['DETECTED_NO_ACTION_REQUIRED', 'DETECTED_ACTION_REQUIRED', 'NOT_DETECTED'] as const;
export type ResetStatus = (typeof RESET_STATUSES)[number];
export const RESET_CHANGES = ['copay', 'coinsurance', 'member_id', 'deductible', 'oop_max'] as const;
export type ResetChange = (typeof RESET_CHANGES)[number];
export const ALERT_CODES = [
  'DEMOGRAPHIC_MISMATCH',
  'PAYER_CORRECTED',
  'CARVE_OUT_DETECTED',
  'ADDITIONAL_POLICY',
  'UTILIZATION_MANAGEMENT',
  'PLAN_RESET_SOON',
  'PLAN_AT_RISK',
  'VISIT_LIMIT',
  'MISSING_ADDRESS',
  'NOT_COVERED',
  'PRIOR_AUTHORIZATION',
  'SESSION_COST_LOW',
  'REMITTANCE_MISMATCH',
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

/** A remittance line an advisory cites (REMITTANCE_MISMATCH): where it is and the two amounts, no member data. */
export const RemittanceCitation = Type.Object({
  remittance_id: Type.String({ description: 'GET /v1/remittances/{id}' }),
  line: Type.Integer({ minimum: 1, description: "The service line's position in that remittance's `lines` (1-based)" }),
  received: Type.String({ format: 'date', description: 'The day (UTC) the remittance was received' }),
  paid: Type.Integer({ description: "The payer's amount of this benefit on the line (cents): PR 3 copay, PR 2 coinsurance or PR 1 deductible" }),
  estimated: Type.Integer({ description: "What the estimate, from the payer's eligibility answer, expected of it (cents)" }),
});
export type RemittanceCitation = Static<typeof RemittanceCitation>;

export const Alert = Type.Object({
  code: Enum(ALERT_CODES),
  message: Type.String(),
  /** For demographic alerts: the payer's values of the fields that differ. */
  payer_values: Type.Optional(Type.Record(Type.String(), Nullable(Type.String()))),
  /** REMITTANCE_MISMATCH: the benefit the remittances disagree on, and the lines that do (docs/remittances.md 'Feedback at the desk'). */
  benefit: Type.Optional(Enum(['copay', 'coinsurance', 'deductible'] as const)),
  remittances: Type.Optional(Type.Array(RemittanceCitation)),
});
export type Alert = Static<typeof Alert>;

export const ResetBenefits = Type.Object({
  effective_date: Type.String({ format: 'date' }),
  changes: Type.Array(Enum(RESET_CHANGES)),
  copayment: cents('Next plan year copay'),
  coinsurance: Nullable(Type.Number()),
  deductible: cents('Next plan year deductible'),
  oop_max: cents('Next plan year out-of-pocket maximum'),
  member_id: text,
});
export type ResetBenefits = Static<typeof ResetBenefits>;

export const Telehealth = Type.Object({
  copayment: cents('Telehealth copay'),
  coinsurance: Nullable(Type.Number({ description: 'Percent points' })),
  benefit_structure: BenefitStructureSchema,
  member_obligation: cents('What the member pays for a telehealth session'),
});

/** What the payer (or the clearinghouse) reported: an AAA segment or a vendor error, in our words (docs/payer-errors.md). */
export const PayerErrorEntry = Type.Object({
  code: Type.String({ description: 'AAA03 reject reason code (e.g. 75), or the clearinghouse error code' }),
  description: Type.String({ description: "The reason in words, from the service's table (never the payer's prose)" }),
  followup: Nullable(Type.String({ description: 'AAA04 follow-up action in words (e.g. Please correct and resubmit)' })),
  loop: Nullable(
    Type.String({ description: 'The X12 loop that carried it: 2100A payer, 2100B provider, 2100C subscriber, 2100D dependent, 2110C/D a benefit' }),
  ),
  category: Enum(['member', 'provider', 'route', 'input', 'payer'] as const, {
    description:
      'member: correct the patient data; provider: the practice is not accepted; route: the connection ' +
      "could not ask (another may); input: correct the request; payer: the payer's own condition",
  }),
});
export type PayerErrorEntry = Static<typeof PayerErrorEntry>;

/** Plan fields every operation returns. */
const planFields = {
  payer_id: Type.String(),
  route: Type.Optional(Type.String({ description: 'Production: the connection (directory `connections[].name`) that answered, after any failover' })),
  payer_errors: Type.Optional(Type.Array(PayerErrorEntry, { description: 'On 206 answers: what the payer reported about benefits it could not give' })),
  payer_name: Type.String(),
  plan_name: text,
  plan_type: PlanType,
  insurance_type: InsuranceType,
  group_name: text,
  group_id: text,
  plan_begin_date: date,
  plan_end_date: date,
  eligibility_end_date: date,
  plan_status: Enum(PLAN_STATUSES),
  coverage_status: CoverageStatus,
  mental_health_coverage: MentalHealthCoverage,
  relationship_to_subscriber: Relationship,
  demographics: Person,
  subscriber_demographics: Person,
  alerts: Type.Array(Alert),
  third_party_payer: Nullable(OtherEntity),
  additional_policy: Type.Array(AdditionalPolicy),
  is_marketplace: Type.Boolean(),
  is_bluecard: Type.Boolean(),
  is_hdhp: Type.Boolean(),
};

/** Financial fields of the estimate (docs/interface.md section 3), computed by the estimate engine. */
export const EstimateFinancials = Type.Object({
  in_network: Type.Boolean(),
  provider_session_cost: cents('The session cost the estimate was computed for'),
  benefit_structure: BenefitStructureSchema,
  copayment: cents('Per-session copay'),
  coinsurance: Nullable(Type.Number({ description: 'Percent points (20 = 20 %)' })),
  deductible: cents('Individual deductible for the plan year'),
  remaining_deductible: cents('Deductible left; the smaller of individual and family'),
  oop_max: cents('Individual out-of-pocket maximum'),
  remaining_oop_max: cents('Out-of-pocket left; the smaller of individual and family'),
  family_deductible: cents('Family deductible'),
  family_remaining_deductible: cents('Family deductible left'),
  family_oop_max: cents('Family out-of-pocket maximum'),
  family_remaining_oop_max: cents('Family out-of-pocket left'),
  member_obligation: cents('What the member pays for this session'),
  payer_obligation: cents('What the payer pays for this session'),
  pre_deductible_member_obligation: cents('Member share while the deductible is unmet'),
  pre_deductible_payer_obligation: cents('Payer share while the deductible is unmet'),
  post_deductible_member_obligation: cents('Member share once the deductible is met'),
  post_deductible_payer_obligation: cents('Payer share once the deductible is met'),
  post_oop_max_member_obligation: cents('Member share once the OOP max is met'),
  post_oop_max_payer_obligation: cents('Payer share once the OOP max is met'),
  remaining_sessions_before_deductible: Nullable(Type.Integer()),
  remaining_sessions_before_oop_max: Nullable(Type.Integer()),
  telehealth: Nullable(Telehealth),
  visits_remaining: Nullable(Type.Integer()),
  prior_authorization_required: Nullable(Type.Boolean({ description: 'EB11 of the benefit that prices the session; null when the payer does not say' })),
});
export type EstimateFinancials = Static<typeof EstimateFinancials>;

export const ResetFields = Type.Object({
  plan_reset_soon: Type.Boolean(),
  reset_benefits_status: Enum(RESET_STATUSES),
  reset_benefits: Nullable(ResetBenefits),
});
export type ResetFields = Static<typeof ResetFields>;

/** One EB row of the 271 in the explanation: the figure it backs (or would have), the row and the rule. */
export const ExplanationEntry = Type.Object({
  figure: Type.String({ description: 'The figure explained, e.g. copayment, deductible individual remaining, insurance type: qmb' }),
  network: Nullable(Type.String({ description: 'in or out of network; null for a plan-wide rule' })),
  segment: Nullable(Type.Integer({ description: 'Position of the EB segment in the 271 (ISA = 1); null for a rule that reads no single EB' })),
  eb: Nullable(Type.String({ description: 'The EB segment, elements joined by *' })),
  service_type: Nullable(Type.String({ description: 'EB03 service type code(s) as sent' })),
  coverage_level: Nullable(Type.String({ description: 'EB02 coverage level (IND, FAM, ...)' })),
  place_of_service: Nullable(Type.String({ description: '2115C III*ZZ place-of-service codes (11 office, 02/10 telehealth), comma-separated' })),
  time_period: Nullable(Type.String({ description: 'EB06 time period qualifier (23 calendar year, 29 remaining, 27 visit, ...)' })),
  rule: Type.String({ description: 'The rule that chose this benefit (docs/estimates.md section 1)' }),
  words: Type.Optional(Type.String({ description: 'Every code of the row in words beside the code (EB01 B copayment, EB03 MH mental health, ...)' })),
  alternative: Type.Optional(Type.String({ description: 'Where the payer is ambiguous: the other reading and what it would change' })),
  administrator: Type.Optional(Type.String({ description: "The carve-out administrator's payer id when the entry reads its 271, not the medical plan's" })),
});
export type ExplanationEntry = Static<typeof ExplanationEntry>;

/** Where each figure came from (docs/estimates.md section 1.6); only when the request asks with `explain: true`. */
export const Explanation = Type.Object({
  benefits: Type.Array(ExplanationEntry, { description: 'The rows each figure was read from (the requested network and the plan-wide rules only)' }),
  skipped: Type.Array(ExplanationEntry, { description: 'Every other EB row of the 271, once, with the reason it was not used' }),
  conflicts: Type.Array(ExplanationEntry, { description: 'Rows of the deciding rank that contradict each other: the figure is unknown, never the first' }),
  obligation: Type.Array(Type.String({ description: "A step of the member's share, in words" })),
});
export type Explanation = Static<typeof Explanation>;

const PARTIAL_CODES = ['UNKNOWN_COSTSHARE', 'UNKNOWN_REMAININGS'] as const;
const partial = { error_code: Type.Optional(Enum(PARTIAL_CODES)) };

/** The encounter an estimate priced (domain/encounter.ts): the request's, or the default's where it gave none. */
export const EstimateEncounter = Type.Object(
  {
    date_of_service: Type.String({ format: 'date', description: 'The date of service the payer was asked about (DTP*291)' }),
    procedure_code: Nullable(Type.String({ description: 'CPT/HCPCS code sent to the payer (270 EQ02); null: none, an office psychotherapy visit' })),
    place_of_service: Type.String({ description: 'CMS place-of-service code priced: 11 office, 02 or 10 telehealth' }),
  },
  { description: 'The encounter this estimate prices: the request’s date, procedure and place, or the defaults (today, none, 11)' },
);

/** How a course line's share was decided: the phase of the plan year, QMB, or the gate that closed (docs/course-of-care.md). */
export const COURSE_PHASES = [
  'deductible',
  'deductible_met',
  'cost_share',
  'oop_max',
  'qmb',
  'inactive',
  'not_in_force',
  'behavioral_health_inactive',
  'not_covered',
  'visit_limit',
] as const;
export type CoursePhase = (typeof COURSE_PHASES)[number];

/** One session of a course of care, priced with what the earlier sessions left of the accumulators. */
export const CourseLine = Type.Object({
  date_of_service: Type.String({ format: 'date' }),
  procedure_code: Nullable(Type.String({ description: 'CPT/HCPCS code of the session; null: none, an office psychotherapy visit' })),
  place_of_service: Type.String({ description: 'CMS place-of-service code of the session' }),
  plan_year: Enum(['current', 'next'] as const, { description: "current: the plan year of the course's first session; next: after its reset" }),
  provider_session_cost: Type.Integer({ description: 'The session cost (cents)' }),
  member_obligation: cents('What the member pays for this session; null when the known facts do not determine it'),
  payer_obligation: cents('What the payer pays for this session'),
  remaining_deductible: cents('Deductible left after this session; the smaller of individual and family'),
  remaining_oop_max: cents('Out-of-pocket left after this session; the smaller of individual and family'),
  visits_remaining: Nullable(Type.Integer({ description: 'Visits of the plan-year limit left after this session; null: no limit reported, or unknown' })),
  visits_used: Nullable(Type.Integer({ description: 'Visits of the plan-year limit used after this session; null: no limit reported, or unknown' })),
  phase: Nullable(
    Enum(COURSE_PHASES, {
      description:
        'deductible: the session goes to the deductible; deductible_met: it meets the deductible, the rest at the ' +
        'cost share; cost_share: copay or coinsurance; oop_max: capped by the out-of-pocket maximum; qmb: the ' +
        'member owes $0; else the gate that made the member pay the whole session. null when the share is unknown',
    }),
  ),
  error_code: Nullable(Enum(PARTIAL_CODES, { description: 'Why the share is unknown, as a 206 would say it; null when it is known' })),
  reason: Nullable(Type.String({ description: 'The unknown share’s reason in words; null when it is known' })),
});
export type CourseLine = Static<typeof CourseLine>;

export const Course = Type.Object(
  {
    lines: Type.Array(CourseLine),
    member_obligation: cents("What the member pays for the whole course; null when a session's share is unknown"),
    payer_obligation: cents("What the payer pays for the whole course; null when a session's share is unknown"),
    unknown_sessions: Type.Integer({ description: 'Sessions whose share is unknown' }),
  },
  { description: 'Only when the request asks for a course: one line per session, with the accumulators carried from one to the next' },
);
export type Course = Static<typeof Course>;

export const EstimateResponse = Type.Object(
  {
    ...planFields,
    ...EstimateFinancials.properties,
    ...ResetFields.properties,
    pcp: Nullable(Pcp),
    utilization_manager: Nullable(OtherEntity),
    qmb_status: Type.Boolean(),
    encounter: EstimateEncounter,
    priced_by: Type.Optional(
      Type.Object(OtherEntity.properties, {
        description: "Carve-out only: the administrator whose answer the benefits and price are (not the medical plan's); absent when none answered",
      }),
    ),
    explanation: Type.Optional(Explanation),
    course: Type.Optional(Course),
    ...partial,
  },
  { $id: 'EstimateResponse' },
);
export type EstimateResponse = Static<typeof EstimateResponse>;

export const DiscoverResponse = Type.Object({ ...planFields, explanation: Type.Optional(Explanation) }, { $id: 'DiscoverResponse' });
export type DiscoverResponse = Static<typeof DiscoverResponse>;

export const ScanResponse = Type.Object(
  {
    ...planFields,
    payers_checked: Type.Integer(),
    payers_failed: Type.Array(Type.Object({ payer_id: Type.String(), error_code: Type.String() })),
  },
  { $id: 'ScanResponse' },
);
export type ScanResponse = Static<typeof ScanResponse>;

export const MedicaidResponse = Type.Object(
  {
    ...planFields,
    patient_state: text,
    qmb_status: Type.Boolean(),
    managed_care: Type.Boolean(),
    pcp: Nullable(Pcp),
  },
  { $id: 'MedicaidResponse' },
);
export type MedicaidResponse = Static<typeof MedicaidResponse>;

export const ErrorResponse = Type.Object(
  {
    error_code: Type.String(),
    message: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    payer_errors: Type.Optional(Type.Array(PayerErrorEntry, { description: 'What the payer or clearinghouse reported (AAA segments, vendor errors)' })),
  },
  { $id: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;
