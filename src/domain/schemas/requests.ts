/** Request bodies of the four operations (docs/interface.md section 1), written once for validation, OpenAPI and the client. */
import { Type, type Static } from 'typebox';
import { COURSE_DEFAULT_EVERY_DAYS, COURSE_MAX_ENCOUNTERS, COURSE_MAX_SESSIONS, COURSE_MAX_SPAN_DAYS } from '../estimate/course-sessions.ts';
import { PLACE_OF_SERVICE_PATTERN, PROCEDURE_CODE_PATTERN, SERVICE_DATE_MONTHS_BACK } from '../encounter.ts';
import { US_STATE_CODES } from '../us-states.ts';
import { Literals } from './literals.ts';

// Commas and typographic apostrophes too: "Bell, Jr." and "O’Brien" are how real names are typed (domain/names.ts).
const NAME = "^[\\p{L}\\p{M} .,'\u2018\u2019\u02bc-]*$";
/** A required name holds at least one letter: blank or punctuation-only names cannot be matched. */
const REQUIRED_NAME = "^(?=.*\\p{L})[\\p{L}\\p{M} .,'\u2018\u2019\u02bc-]*$";

const memberName = (required: boolean) =>
  Type.String({
    maxLength: 60,
    pattern: required ? REQUIRED_NAME : NAME,
    // Writable in the X12 basic character set once transliterated (domain/names.ts).
    format: 'person-name',
    ...(required ? { minLength: 1 } : {}),
    description: required
      ? 'Latin letters (accents are removed: José is sent as JOSE), spaces, apostrophes, periods, commas and hyphens ("Bell, Jr.").'
      : 'Latin letters, spaces, apostrophes, periods, commas and hyphens; may be blank when matching by member ID only.',
  });

const fields = {
  payer_id: Type.String({ maxLength: 80, pattern: '^[A-Za-z0-9 ._-]*$', description: 'Payer identifier; blank means any payer in the sandbox.' }),
  member_id: Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9-]+$', description: 'Insurance member identifier.' }),
  member_dob: Type.String({ format: 'date', description: 'Date of birth, YYYY-MM-DD, not after today (400 INVALID_REQUEST otherwise).' }),
  provider_npi: Type.String({ format: 'npi', description: '10-digit NPI with a valid check digit.' }),
  provider_first_name: memberName(false),
  provider_last_name: memberName(false),
  provider_session_cost: Type.Union([Type.String({ pattern: '^[0-9]{1,9}$' }), Type.Integer({ minimum: 0, maximum: 999_999_999 })], {
    description: 'Session price in cents: a string of digits or a non-negative integer.',
  }),
  in_network: Type.Boolean({ description: 'Whether the provider is in the plan network; default true.' }),
  zip: Type.String({ pattern: '^([0-9]{5}(-[0-9]{4})?)?$', description: '5-digit ZIP or ZIP+4; blank means 10001 in the sandbox.' }),
  patient_state: Literals(US_STATE_CODES, { description: 'US state or territory code (routes to its Medicaid program).' }),
  date_of_service: Type.String({
    format: 'date',
    description:
      `The date of the session, YYYY-MM-DD; default today. From ${SERVICE_DATE_MONTHS_BACK} months ago ` +
      `through the end of next month (400 INVALID_REQUEST otherwise): the window payers answer for.`,
  }),
  procedure_code: Type.String({
    pattern: PROCEDURE_CODE_PATTERN,
    description:
      'CPT or HCPCS code of the session: five digits (90791 intake, 90834 or 90837 psychotherapy) or a letter ' +
      'and four digits (H0031). Sent to the payer (270 EQ02); default none: an office psychotherapy visit.',
  }),
  place_of_service: Type.String({
    pattern: PLACE_OF_SERVICE_PATTERN,
    description: 'CMS place-of-service code, two digits: 11 office (the default), 02 telehealth other than the home, 10 telehealth in the home.',
  }),
  explain: Type.Boolean({
    description:
      'Add `explanation`: the 271 benefit (EB segment, service type, network, coverage level, place of service, time ' +
      'period) and rule behind each figure, and the steps of the member share. The payer is asked afresh (no cache).',
  }),
};

const closed = { additionalProperties: false } as const;

/** A course of care (docs/course-of-care.md): a count of sessions at an interval, or their dates (one or the other). */
const course = Type.Object(
  {
    sessions: Type.Optional(Type.Integer({ minimum: 1, maximum: COURSE_MAX_SESSIONS, description: 'How many sessions, the first on date_of_service.' })),
    every_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: COURSE_MAX_SPAN_DAYS,
        description: `Days between two sessions of \`sessions\`; default ${COURSE_DEFAULT_EVERY_DAYS} (weekly).`,
      }),
    ),
    dates: Type.Optional(
      Type.Array(
        Type.Object(
          {
            date_of_service: Type.String({
              format: 'date',
              description: 'The session’s date, YYYY-MM-DD; in order, the first on date_of_service when the request gives one.',
            }),
            procedure_code: Type.Optional(fields.procedure_code),
            place_of_service: Type.Optional(fields.place_of_service),
            provider_session_cost: Type.Optional(fields.provider_session_cost),
          },
          closed,
        ),
        { minItems: 1, maxItems: COURSE_MAX_SESSIONS, description: 'The sessions, instead of `sessions` and `every_days`.' },
      ),
    ),
  },
  {
    ...closed,
    description:
      `Price a course of sessions, not one: \`sessions\` (1-${COURSE_MAX_SESSIONS}) every \`every_days\`, or a list ` +
      `of \`dates\` (each with the request's procedure, place and price unless it names its own). The last at most ` +
      `${COURSE_MAX_SPAN_DAYS} days after the first, at most ${COURSE_MAX_ENCOUNTERS} different procedure and place ` +
      `pairs; needs provider_session_cost. The answer's \`course\` has one line per session (docs/course-of-care.md).`,
  },
);

export const EstimateRequest = Type.Object(
  {
    member_id: fields.member_id,
    member_first_name: memberName(false),
    member_last_name: memberName(false),
    member_dob: fields.member_dob,
    payer_id: Type.Optional(fields.payer_id),
    provider_npi: Type.Optional(fields.provider_npi),
    provider_first_name: Type.Optional(fields.provider_first_name),
    provider_last_name: Type.Optional(fields.provider_last_name),
    provider_session_cost: Type.Optional(fields.provider_session_cost),
    in_network: Type.Optional(fields.in_network),
    date_of_service: Type.Optional(fields.date_of_service),
    procedure_code: Type.Optional(fields.procedure_code),
    place_of_service: Type.Optional(fields.place_of_service),
    explain: Type.Optional(fields.explain),
    course: Type.Optional(course),
  },
  { ...closed, $id: 'EstimateRequest', description: 'Real-time cost estimate for one session.' },
);

export const DiscoverRequest = Type.Object(
  {
    member_first_name: memberName(true),
    member_last_name: memberName(true),
    member_dob: fields.member_dob,
    zip: fields.zip,
    payer_id: fields.payer_id,
    explain: Type.Optional(fields.explain),
  },
  { ...closed, $id: 'DiscoverRequest', description: 'Find active coverage at a known payer by name, DOB and ZIP.' },
);

export const ScanRequest = Type.Object(
  {
    member_first_name: memberName(true),
    member_last_name: memberName(true),
    member_dob: fields.member_dob,
    zip: fields.zip,
  },
  { ...closed, $id: 'ScanRequest', description: 'Search every payer for active coverage by name, DOB and ZIP.' },
);

export const MedicaidRequest = Type.Object(
  {
    member_id: fields.member_id,
    member_first_name: memberName(true),
    member_last_name: memberName(true),
    member_dob: fields.member_dob,
    payer_id: Type.Optional(fields.payer_id),
    patient_state: Type.Optional(fields.patient_state),
  },
  { ...closed, $id: 'MedicaidRequest', description: 'Find Medicaid coverage; needs payer_id or patient_state.' },
);

export type EstimateRequest = Static<typeof EstimateRequest>;
export type DiscoverRequest = Static<typeof DiscoverRequest>;
export type ScanRequest = Static<typeof ScanRequest>;
export type MedicaidRequest = Static<typeof MedicaidRequest>;

export type OperationName = 'estimate' | 'discover' | 'scan' | 'medicaid';
export const OPERATIONS: readonly OperationName[] = ['estimate', 'discover', 'scan', 'medicaid'];
