/** Optum's object builders (every object closed, code lists as unions of literals) and the Address both directions share. */
import { Type, type TSchema } from 'typebox';

export const closed = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: false });
export const oneOf = <const L extends readonly string[]>(values: L) => Type.Union(values.map((v) => Type.Literal(v)));

/** N3/N4. */
export const Address = closed({
  address1: Type.Optional(Type.String({ maxLength: 55 })),
  address2: Type.Optional(Type.String({ maxLength: 55 })),
  city: Type.Optional(Type.String({ maxLength: 30 })),
  state: Type.Optional(Type.String({ maxLength: 2 })),
  postalCode: Type.Optional(Type.String({ maxLength: 15 })),
  countryCode: Type.Optional(Type.String()),
  locationIdentifier: Type.Optional(Type.String()),
  countrySubDivisionCode: Type.Optional(Type.String()),
});
