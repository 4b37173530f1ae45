/** GET /v1/payers: the payers a server reaches; one schema for serialization, OpenAPI and the client. */
import { Type, type Static } from 'typebox';

export const PayerListing = Type.Object({
  payer_id: Type.String(),
  name: Type.String(),
  supports_search: Type.Boolean({ description: 'Answers name + DOB (+ ZIP) searches: usable by discover and scan' }),
  medicaid_state: Type.Union([Type.String(), Type.Null()], { description: 'The state whose Medicaid program this payer is' }),
  carve_out_administrators: Type.Array(Type.String(), { description: 'Administrators it hands mental health to that this server can ask' }),
});
export type PayerListing = Static<typeof PayerListing>;

export const PayersResponse = Type.Object(
  { mode: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]), payers: Type.Array(PayerListing) },
  { $id: 'PayersResponse' },
);
export type PayersResponse = Static<typeof PayersResponse>;
