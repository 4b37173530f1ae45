/**
 * TypeBox from our JSON copies of a vendor's schemas (optum-eligibility-v3.json and the like), so
 * that each schema is data, written once, and the validators are built from it by this one function.
 * It reads the part of JSON Schema those copies use: objects (properties, required,
 * additionalProperties false, or a map of one value schema), strings (minLength, maxLength, pattern,
 * an enum or a const), integers, arrays (items, minItems, maxItems) and references to the document's
 * own schemas (`#/schemas/Name`). Anything else is a mistake in the copy and throws when it loads.
 */
import { Type, type TSchema } from 'typebox';

export interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly string[];
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
export function schemasOf<D extends SchemaDocument>(doc: D): Record<keyof D['schemas'], TSchema> {
  const built = new Map<string, TSchema>();
  const named = (ref: string): TSchema => {
    const name = ref.startsWith(REF) ? ref.slice(REF.length) : '';
    const schema = doc.schemas[name];
    if (!schema) throw new Error(`json-schema: no schema ${ref}`);
    let found = built.get(name);
    if (!found) built.set(name, (found = of(schema)));
    return found;
  };
  const of = (s: JsonSchema): TSchema => {
    const { $ref, type, properties, required = [], additionalProperties, items, enum: values, const: literal, ...options } = s;
    if ($ref !== undefined) return named($ref);
    if (values) return Type.Union(values.map((v) => Type.Literal(v)));
    if (literal !== undefined) return Type.Literal(literal);
    if (type === 'string') return Type.String(options);
    if (type === 'integer') return Type.Integer(options);
    if (type === 'array' && items) return Type.Array(of(items), options);
    if (type === 'object' && !properties && typeof additionalProperties === 'object') return Type.Record(Type.String(), of(additionalProperties));
    if (type === 'object') {
      const props = Object.entries(properties ?? {}).map(([k, v]) => [k, required.includes(k) ? of(v) : Type.Optional(of(v))] as const);
      return Type.Object(Object.fromEntries(props), additionalProperties === false ? { additionalProperties: false } : {});
    }
    throw new Error(`json-schema: cannot read ${JSON.stringify(s)}`);
  };
  return Object.fromEntries(Object.keys(doc.schemas).map((name) => [name, named(REF + name)])) as Record<keyof D['schemas'], TSchema>;
}
