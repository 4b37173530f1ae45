/**
 * The Good Faith Estimate's bodies (docs/good-faith-estimate.md): what POST /v1/good-faith-estimates
 * takes, what it and the reads answer, the billed-charges check. The elements 45 CFR 149.610(c)
 * requires are optional to the schema on purpose: a GFE missing one is refused by the domain check
 * (domain/gfe/required-elements.ts) naming the element, not by a generic schema error.
 */
import { Type, type Static } from 'typebox';
import { Enum, Nullable } from './coverage.ts';
import { US_STATE_CODES } from '../us-states.ts';

export const GFE_STATUSES = ['draft', 'given', 'superseded'] as const;
export type GfeStatus = (typeof GFE_STATUSES)[number];

/** Why the estimate is due when it is (domain/gfe/due-date.ts). */
export const DUE_RULES = [
  'scheduled_3_to_9_business_days',
  'scheduled_10_or_more_business_days',
  'scheduled_under_3_business_days',
  'requested',
  'changed_before_service',
] as const;

const Line = Type.String({ minLength: 1, maxLength: 500 });
const Name = Type.String({ minLength: 1, maxLength: 120 });

/** CPT (five digits, or four and a letter for Category II/III) or HCPCS Level II (a letter and four digits). */
export const SERVICE_CODE_PATTERN = '^(?:[0-9]{4}[0-9AFTU]|[A-V][0-9]{4})$';
/** ICD-10-CM: a letter, a digit, a letter or digit, then up to four more after an optional dot. */
export const ICD10_PATTERN = '^[A-TV-Z][0-9][0-9A-Z](?:\\.?[0-9A-Z]{1,4})?$';

export const GfeClient = Type.Object(
  {
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
    dob: Type.Optional(Type.String({ format: 'date' })),
  },
  { additionalProperties: false, description: 'The client (sealed at rest; the list and the audit trail name them by keyed hash only)' },
);

export const GfeLocation = Type.Object(
  {
    office: Type.Optional(Type.String({ maxLength: 200, description: 'The office or facility, e.g. "Main St office" or "Telehealth"' })),
    address: Type.Optional(Type.String({ maxLength: 300 })),
    state: Enum(US_STATE_CODES, { description: 'The state where the services are expected to be furnished' }),
  },
  { additionalProperties: false },
);

export const GfeService = Type.Object(
  {
    code: Type.String({ pattern: SERVICE_CODE_PATTERN, description: 'CPT or HCPCS code' }),
    modifier: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{2}$' })),
    description: Type.Optional(Line),
    quantity: Type.Integer({ minimum: 1, maximum: 366 }),
    charge_cents: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Expected charge per unit (cents); omitted, the key's imported fee schedule gives it" }),
    ),
    diagnosis_codes: Type.Optional(Type.Array(Type.String({ pattern: ICD10_PATTERN }), { maxItems: 12 })),
  },
  { additionalProperties: false },
);

export const GfeProviderInput = Type.Object(
  {
    name: Type.Optional(Name),
    npi: Type.Optional(Type.String({ format: 'npi' })),
    tin: Type.Optional(Type.String({ pattern: '^[0-9]{2}-?[0-9]{7}$', description: 'EIN (or SSN) of the provider: nine digits' })),
    locations: Type.Optional(Type.Array(GfeLocation, { maxItems: 20 })),
    services: Type.Array(GfeService, { maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const GfeNotices = Type.Object(
  {
    additional_services: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Other services may be recommended and scheduled or estimated separately' }),
    ),
    estimate_only: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Only an estimate: actual items, services or charges may differ' })),
    dispute_rights: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description: 'The right to dispute a bill $400 or more above the estimate for any provider, where to find how, and that disputing does not affect care',
      }),
    ),
    not_a_contract: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Not a contract; the client need not obtain the services from these providers' }),
    ),
  },
  { additionalProperties: false },
);

export const GoodFaithEstimateRequest = Type.Object(
  {
    client: Type.Optional(GfeClient),
    primary_service: Type.Optional(
      Type.Object(
        {
          description: Type.Optional(Line),
          scheduled_date: Type.Optional(Type.String({ format: 'date', description: 'When the primary service is scheduled' })),
        },
        { additionalProperties: false },
      ),
    ),
    scheduled_on: Type.Optional(Type.String({ format: 'date', description: 'The day the service was scheduled (starts the business-day clock)' })),
    requested_on: Type.Optional(Type.String({ format: 'date', description: 'The day the client asked for an estimate, when not scheduled' })),
    period_of_care: Type.Optional(
      Type.Object({ start: Type.String({ format: 'date' }), end: Type.String({ format: 'date' }) }, { additionalProperties: false }),
    ),
    diagnosis_codes: Type.Optional(Type.Array(Type.String({ pattern: ICD10_PATTERN }), { maxItems: 12, description: 'ICD-10-CM codes, when known' })),
    convening_provider: Type.Optional(GfeProviderInput),
    co_providers: Type.Optional(Type.Array(GfeProviderInput, { maxItems: 20 })),
    separate_scheduling: Type.Optional(
      Type.Object(
        {
          items: Type.Array(
            Type.Object({ description: Line, code: Type.Optional(Type.String({ pattern: SERVICE_CODE_PATTERN })) }, { additionalProperties: false }),
            {
              maxItems: 50,
            },
          ),
          instructions: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'How to get the separate estimates for these items' })),
        },
        {
          additionalProperties: false,
          description:
            'Items expected before or after this period of care that need scheduling (and an estimate) of their own; an empty list says there are none',
        },
      ),
    ),
    notices: Type.Optional(GfeNotices),
  },
  { $id: 'GoodFaithEstimateRequest', additionalProperties: false },
);
export type GoodFaithEstimateRequest = Static<typeof GoodFaithEstimateRequest>;

const PricedService = Type.Object({
  code: Type.String(),
  modifier: Nullable(Type.String()),
  description: Nullable(Type.String()),
  quantity: Type.Integer(),
  charge_cents: Type.Integer({ description: 'Per unit (cents)' }),
  charge_source: Enum(['request', 'fee_schedule'] as const),
  total_cents: Type.Integer(),
  diagnosis_codes: Type.Array(Type.String()),
});

const PricedProvider = Type.Object({
  role: Enum(['convening', 'co_provider'] as const),
  name: Type.String(),
  npi: Type.String(),
  tin: Type.String(),
  locations: Type.Array(Type.Object({ office: Nullable(Type.String()), address: Nullable(Type.String()), state: Type.String() })),
  services: Type.Array(PricedService),
  total_cents: Type.Integer(),
});

const Due = Type.Object({
  date: Nullable(
    Type.String({ format: 'date', description: 'The last day the estimate may be given (business days: weekends and federal holidays do not count)' }),
  ),
  rule: Enum(DUE_RULES),
  lead_business_days: Nullable(Type.Integer({ description: 'Business days from scheduling to the service' })),
});

export const GoodFaithEstimate = Type.Object(
  {
    id: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    status: Enum(GFE_STATUSES),
    created_at: Type.String(),
    given_at: Nullable(Type.String()),
    given_on: Nullable(Type.String({ format: 'date' })),
    due: Due,
    overdue: Type.Boolean({ description: 'A draft past its due date' }),
    client: Type.Object({ first_name: Type.String(), last_name: Type.String(), dob: Type.String({ format: 'date' }) }),
    primary_service: Type.Object({ description: Type.String(), scheduled_date: Nullable(Type.String({ format: 'date' })) }),
    scheduled_on: Nullable(Type.String({ format: 'date' })),
    requested_on: Nullable(Type.String({ format: 'date' })),
    period_of_care: Nullable(Type.Object({ start: Type.String({ format: 'date' }), end: Type.String({ format: 'date' }) })),
    diagnosis_codes: Type.Array(Type.String()),
    providers: Type.Array(PricedProvider),
    total_cents: Type.Integer(),
    separate_scheduling: Type.Object({
      items: Type.Array(Type.Object({ description: Type.String(), code: Nullable(Type.String()) })),
      instructions: Nullable(Type.String()),
    }),
    notices: Type.Object({ additional_services: Type.String(), estimate_only: Type.String(), dispute_rights: Type.String(), not_a_contract: Type.String() }),
    versions: Type.Array(Type.Object({ version: Type.Integer(), status: Enum(GFE_STATUSES), created_at: Type.String(), total_cents: Type.Integer() }), {
      description: 'Every version of this estimate, oldest first; older ones are kept',
    }),
  },
  { $id: 'GoodFaithEstimate' },
);
export type GoodFaithEstimate = Static<typeof GoodFaithEstimate>;

export const GoodFaithEstimateList = Type.Object(
  {
    estimates: Type.Array(
      Type.Object({
        id: Type.String(),
        version: Type.Integer(),
        status: Enum(GFE_STATUSES),
        client_name: Type.String(),
        service_date: Nullable(Type.String({ format: 'date' })),
        due_date: Nullable(Type.String({ format: 'date' })),
        overdue: Type.Boolean(),
        total_cents: Type.Integer(),
        created_at: Type.String(),
      }),
      { description: 'The current version of each estimate: overdue ones first, then by due date' },
    ),
  },
  { $id: 'GoodFaithEstimateList' },
);
export type GoodFaithEstimateList = Static<typeof GoodFaithEstimateList>;

export const GfeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const GfeGetQuery = Type.Object(
  {
    version: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'An earlier version (default: the latest)' })),
    format: Type.Optional(
      Enum(['json', 'fhir'] as const, {
        description: 'fhir: the Da Vinci Patient Cost Transparency GFE Bundle as application/fhir+json (as does `accept: application/fhir+json`)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const GfeGivenRequest = Type.Object(
  { given_on: Type.Optional(Type.String({ format: 'date', description: 'The day it was given (default: today)' })) },
  { additionalProperties: false },
);

export const BilledCheckRequest = Type.Object(
  {
    bills: Type.Array(
      Type.Object(
        {
          npi: Type.String({ format: 'npi' }),
          billed_cents: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: "The provider's total billed charges (cents)" }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 21 },
    ),
  },
  { additionalProperties: false },
);
export type BilledCheckRequest = Static<typeof BilledCheckRequest>;

export const BilledCheckAnswer = Type.Object(
  {
    id: Type.String(),
    version: Type.Integer({ description: 'The version given to the client the bills are held against' }),
    threshold_cents: Type.Integer({
      description: '40000: a bill this much or more above the estimate, for any one provider, may be disputed (45 CFR 149.620)',
    }),
    providers: Type.Array(
      Type.Object({
        npi: Type.String(),
        name: Nullable(Type.String({ description: 'null: a provider the estimate did not name (its estimate is $0)' })),
        estimated_cents: Type.Integer(),
        billed_cents: Nullable(Type.Integer({ description: 'null: no bill was sent for this provider' })),
        over_cents: Nullable(Type.Integer()),
        disputable: Type.Boolean(),
      }),
    ),
    any_disputable: Type.Boolean(),
  },
  { $id: 'BilledCheckAnswer' },
);
export type BilledCheckAnswer = Static<typeof BilledCheckAnswer>;
