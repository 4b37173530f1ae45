/** Unions of string literals whose Static<> keeps the values (a plain .map() into Type.Union yields never). */
import { Type, type TLiteral } from 'typebox';

type LiteralTuple<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K] & string> };

export const Literals = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Union<LiteralTuple<T>>(values.map((v) => Type.Literal(v)) as unknown as [...LiteralTuple<T>], options);
