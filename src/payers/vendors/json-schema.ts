/**
 * TypeBox from our JSON copies of a vendor's schemas (optum-eligibility-v3.json and the like), so
 * that each schema is data, written once, and the validators are built from it by this one function.
 * It reads the part of JSON Schema those copies use: objects (properties, required, $id,
 * additionalProperties false, or a map of one value schema), strings (minLength, maxLength, pattern,
 * an enum or a const), integers, booleans, arrays (items, minItems, maxItems) and references to the document's
 * own schemas (`#/schemas/Name`). One extension keeps each code map once: `"x-names-of": "table"` is the
 * enum of a code table's names (a vendor that spells X12 codes out), less any `"x-except"`. Anything
 * else is a mistake in the copy and throws when it loads.
 */
import { Type, type TSchema } from 'typebox';

export interface JsonSchema {
  $ref?: string;
  $id?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly string[];
  'x-names-of'?: string;
  'x-except'?: readonly string[];
  const?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

/** A document of named schemas: `{ "schemas": { "Name": { ... } } }` (anything else in it is prose). */
export interface SchemaDocument {
  schemas: Record<string, JsonSchema>;
}

const REF = '#/schemas/';

/** Every schema of the document, built once each (a reference shares the schema it names). */
export function schemasOf<D extends SchemaDocument>(
  doc: D,
  tables: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): Record<keyof D['schemas'], TSchema> {
  const built = new Map<string, TSchema>();
  const namesOf = (table: string): string[] => {
    const codes = tables[table];
    if (!codes) throw new Error(`json-schema: no code table ${table}`);
    return Object.keys(codes);
  };
  const named = (ref: string): TSchema => {
    const name = ref.startsWith(REF) ? ref.slice(REF.length) : '';
    const schema = doc.schemas[name];
    if (!schema) throw new Error(`json-schema: no schema ${ref}`);
    let found = built.get(name);
    if (!found) built.set(name, (found = of(schema)));
    return found;
  };
  const of = (s: JsonSchema): TSchema => {
    const { $ref, type, properties, required = [], additionalProperties, items, enum: listed, const: literal, ...rest } = s;
    const { 'x-names-of': table, 'x-except': except = [], ...options } = rest;
    if ($ref !== undefined) return named($ref);
    const values = table === undefined ? listed : namesOf(table).filter((n) => !except.includes(n));
    if (values) return Type.Union(values.map((v) => Type.Literal(v)));
    if (literal !== undefined) return Type.Literal(literal);
    if (type === 'string') return Type.String(options);
    if (type === 'integer') return Type.Integer(options);
    if (type === 'boolean') return Type.Boolean(options);
    if (type === 'array' && items) return Type.Array(of(items), options);
    if (type === 'object' && !properties && typeof additionalProperties === 'object') return Type.Record(Type.String(), of(additionalProperties));
    if (type === 'object') {
      const props = Object.entries(properties ?? {}).map(([k, v]) => [k, required.includes(k) ? of(v) : Type.Optional(of(v))] as const);
      return Type.Object(Object.fromEntries(props), additionalProperties === false ? { ...options, additionalProperties: false } : options);
    }
    throw new Error(`json-schema: cannot read ${JSON.stringify(s)}`);
  };
  return Object.fromEntries(Object.keys(doc.schemas).map((name) => [name, named(REF + name)])) as Record<keyof D['schemas'], TSchema>;
}
