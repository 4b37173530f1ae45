/** The remittance loop's bodies: POST/GET /v1/remittances and GET /v1/accuracy (docs/remittances.md). */
import { Type, type Static } from 'typebox';
import { Enum, Nullable } from './coverage.ts';

export const VERDICTS = ['exact', 'within_1', 'under_collected', 'over_collected', 'not_comparable'] as const;

const cents = (description: string) => Nullable(Type.Integer({ description: `${description} (cents)` }));

const MemberShare = Type.Object(
  {
    deductible: Type.Integer(),
    coinsurance: Type.Integer(),
    copay: Type.Integer(),
    other: Type.Integer(),
    total: Type.Integer(),
  },
  { description: "The member's share the payer stated (CAS PR), by kind of its reason code, in cents" },
);

const EstimatedParts = Type.Object(
  { deductible: Type.Integer(), copay: Type.Integer(), coinsurance: Type.Integer(), total: Type.Integer() },
  { description: "The estimate's member share at the session cost, by part, in cents" },
);

const Comparison = Type.Object({
  verdict: Enum(VERDICTS, {
    description: 'exact (to the cent), within_1 (a dollar), under_collected / over_collected (the desk collected too little / too much), not_comparable',
  }),
  difference: cents("The member's share the payer stated less the one estimated"),
  reason: Nullable(Type.String({ description: 'Why the line is not comparable' })),
  member_share: MemberShare,
  estimated_member: cents("The estimate's member_obligation"),
  estimated_parts: Nullable(EstimatedParts),
  payer_paid: Type.Integer({ description: 'What the payer paid for the line (SVC03, cents)' }),
  estimated_payer: cents("The estimate's payer_obligation"),
  allowed: cents('The amount the payer allowed (AMT B6)'),
  session_cost: cents('The session cost the estimate priced'),
  at_allowed: cents("The estimate's own rule applied to the allowed amount, when it differs from the session cost"),
  causes: Type.Array(Type.String(), { description: 'The likely causes of a difference, most likely first' }),
});

export const RemittanceLine = Type.Object({
  transaction: Type.Integer({ description: 'The 835 transaction set (1-based) of the file' }),
  claim: Type.Integer({ description: 'The claim (1-based) within its transaction set' }),
  line: Type.Integer({ description: 'The service line (1-based) within its claim' }),
  claim_status: Type.String({ description: 'CLP02 as decided: primary, secondary, tertiary, denied, reversal, not_ours, predetermination, unknown' }),
  procedure: Type.String(),
  modifiers: Type.Array(Type.String()),
  date_of_service: Nullable(Type.String({ format: 'date' })),
  estimate_id: Nullable(Type.String({ description: 'The estimate the line was compared with (its request_id)' })),
  matched_by: Nullable(Enum(['procedure', 'default_encounter'] as const)),
  unmatched_reason: Nullable(Type.String()),
  comparison: Nullable(Comparison),
  payer_id: Nullable(Type.String()),
  group_id: Nullable(Type.String()),
  benefit_structure: Nullable(Type.String()),
});

export const RemittanceAnswer = Type.Object(
  {
    id: Type.String(),
    created_at: Type.String({ description: 'When the remittance was received (ISO 8601, UTC)' }),
    claims: Type.Integer(),
    service_lines: Type.Integer(),
    matched: Type.Integer(),
    unmatched: Type.Integer(),
    warnings: Type.Array(Type.String(), { description: "Where the 835 does not balance (TR3 1.10.2), by position; never a claim's patient control number" }),
    lines: Type.Array(RemittanceLine),
  },
  { $id: 'RemittanceAnswer' },
);
export type RemittanceAnswer = Static<typeof RemittanceAnswer>;

export const RemittanceParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const RemittanceQuery = Type.Object(
  {
    payer_id: Type.Optional(Type.String({ maxLength: 80, description: 'The payer the 835 is from, when its N1 PR / REF 2U is not an ID the directory knows' })),
  },
  { additionalProperties: false },
);

const Tally = {
  lines: Type.Integer(),
  compared: Type.Integer(),
  exact: Type.Integer(),
  within_1: Type.Integer(),
  off: Type.Integer(),
  not_comparable: Type.Integer(),
  under_collected_cents: Type.Integer(),
  over_collected_cents: Type.Integer(),
  causes: Type.Array(Type.Object({ cause: Type.String(), lines: Type.Integer() })),
};

export const AccuracyQuery = Type.Object(
  {
    payer_id: Type.Optional(Type.String({ maxLength: 80 })),
    from: Type.Optional(Type.String({ format: 'date', description: 'First day (UTC) a remittance was received, inclusive' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last day, inclusive' })),
  },
  { additionalProperties: false },
);

export const AccuracyReport = Type.Object(
  {
    payers: Type.Array(
      Type.Object({
        payer_id: Type.String(),
        ...Tally,
        plans: Type.Array(Type.Object({ group_id: Nullable(Type.String()), benefit_structure: Nullable(Type.String()), ...Tally })),
        weeks: Type.Array(Type.Object({ week: Type.String({ format: 'date', description: 'The Monday (UTC) of the week' }), ...Tally })),
      }),
    ),
  },
  { $id: 'AccuracyReport' },
);
