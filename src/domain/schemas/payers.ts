/** GET /v1/payers: the payers a server reaches; one schema for serialization, OpenAPI and the client. */
import { Type, type Static } from 'typebox';

export const PayerListing = Type.Object({
  payer_id: Type.String(),
  name: Type.String(),
  supports_search: Type.Boolean({ description: 'Answers name + DOB (+ ZIP) searches: usable by discover and scan' }),
  medicaid_state: Type.Union([Type.String(), Type.Null()], { description: 'The state whose Medicaid program this payer is' }),
  carve_out_administrators: Type.Array(Type.String(), { description: 'Administrators it hands mental health to that this server can ask' }),
  aliases: Type.Optional(
    Type.Array(Type.String(), { description: "Other IDs accepted as payer_id for this payer: its aliases and each connection's own ID for it (production)" }),
  ),
  eligibility: Type.Optional(
    Type.Union([Type.Literal('supported'), Type.Literal('enrollment_required'), Type.Literal('not_supported')], {
      description:
        "From the imported payer catalog, over the payer's routes (each connection's list says its own): supported if any route is, " +
        'else enrollment_required (the provider must be enrolled with the clearinghouse) if ' +
        'any is, else not_supported, which answers 400 PAYER_NOT_SUPPORTED without asking',
    }),
  ),
});
export type PayerListing = Static<typeof PayerListing>;

export const PayersResponse = Type.Object(
  { mode: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]), payers: Type.Array(PayerListing) },
  { $id: 'PayersResponse' },
);
export type PayersResponse = Static<typeof PayersResponse>;

export const PayersQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Search: payer ID, name or alias, case-insensitive, forgiving of a typo; best matches first (at most 50)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PayerParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The payer ID, or any alias or connection payer ID of it' }),
});
