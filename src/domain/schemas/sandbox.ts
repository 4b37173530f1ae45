/** GET /v1/sandbox/members: the scenario catalog as rows, one schema for serialization, OpenAPI and the client. */
import { Type, type Static } from 'typebox';
import { Literals } from './literals.ts';

const OPERATION_NAMES = ['estimate', 'discover', 'scan', 'medicaid'] as const;
const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const Expectation = Type.Object({
  status: Type.Integer({ description: 'HTTP status the sandbox answers with' }),
  error_code: nullableString('error_code of the answer, null on 200'),
});

export const SandboxMember = Type.Object({
  member_id: Type.String(),
  first_name: nullableString('Null for generated IDs: any name matches'),
  last_name: nullableString('Null for generated IDs: any name matches'),
  dob: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Null for generated IDs: any DOB matches' }),
  payer_id: Type.String({ description: 'Blank: any payer_id is accepted' }),
  patient_state: nullableString('State to send to /v1/medicaid'),
  scenario: Type.String(),
  description: Type.String(),
  endpoints: Type.Array(Literals(OPERATION_NAMES), { description: 'Endpoints that know this member' }),
  expected_status: Type.Integer(),
  expected_error_code: nullableString('error_code on the first endpoint listed'),
  expectations: Type.Object(
    {
      estimate: Type.Optional(Expectation),
      discover: Type.Optional(Expectation),
      scan: Type.Optional(Expectation),
      medicaid: Type.Optional(Expectation),
    },
    { description: 'The answer per endpoint' },
  ),
});
export type SandboxMember = Static<typeof SandboxMember>;

export const SandboxMembersResponse = Type.Object({ members: Type.Array(SandboxMember) }, { $id: 'SandboxMembersResponse' });
export type SandboxMembersResponse = Static<typeof SandboxMembersResponse>;
