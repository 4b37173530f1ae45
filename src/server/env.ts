/**
 * Reads the environment through EnvSchema (env-schema.ts): an empty variable counts as unset (except
 * a closed list's, such as COVERAGE_MODE, so a blank one never means the default), integers are read
 * with Number() (so "Infinity" or "1e400" is refused by the range, not coerced), and defaults fill
 * the rest. A refused value stops with one line per variable, naming it; a credential's line gives
 * its length, never its value.
 *
 * The schema uses a handful of JSON Schema keywords on flat string and integer properties, so each
 * variable's check is built here from its schema, with the meaning Ajv gives those keywords (a
 * pattern is a `u` regex; a length counts code points), instead of compiling the schema with Ajv at
 * every start (about a tenth of start-up's CPU). A keyword not listed below stops the first read, so
 * a schema this does not understand is never half-checked. test/cli/env-check.test.ts compares it
 * with Ajv's reading of the schema on random environments.
 */
import { EnvSchema, envSchemaOf, type Env, type EnvName } from './env-schema.ts';

const NAMES = Object.keys(EnvSchema.properties) as EnvName[];

/** Keywords the checks below implement, and the annotations that check nothing. */
const UNDERSTOOD = new Set([
  'type',
  'minimum',
  'maximum',
  'minLength',
  'pattern',
  'enum',
  'default',
  'description',
  'x-mode',
  'x-default-text',
  'x-expected',
  'x-secret',
]);

type Check = (value: string | number) => boolean;

/** Code points, as JSON Schema's minLength counts them. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function checkOf(name: EnvName): Check {
  const schema = envSchemaOf(name);
  for (const keyword of Object.keys(schema)) {
    if (!UNDERSTOOD.has(keyword)) throw new Error(`env-schema: ${name} uses "${keyword}", which src/server/env.ts does not check`);
  }
  const checks: Check[] = [];
  if (schema.type === 'integer') checks.push((v) => typeof v === 'number' && Number.isInteger(v));
  else if (schema.type === 'string') checks.push((v) => typeof v === 'string');
  else if (schema.type !== undefined) throw new Error(`env-schema: ${name} has type ${JSON.stringify(schema.type)}, which src/server/env.ts does not check`);
  if (typeof schema.minimum === 'number') {
    const min = schema.minimum;
    checks.push((v) => typeof v !== 'number' || v >= min);
  }
  if (typeof schema.maximum === 'number') {
    const max = schema.maximum;
    checks.push((v) => typeof v !== 'number' || v <= max);
  }
  if (typeof schema.minLength === 'number') {
    const min = schema.minLength;
    checks.push((v) => typeof v !== 'string' || codePoints(v) >= min);
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    checks.push((v) => typeof v !== 'string' || pattern.test(v));
  }
  if (Array.isArray(schema.enum)) {
    const values: readonly unknown[] = schema.enum;
    checks.push((v) => values.includes(v));
  }
  return (v) => checks.every((check) => check(v));
}

let checks: Map<EnvName, Check> | undefined;
const REQUIRED = new Set<string>(EnvSchema.required as readonly string[]);

function expected(schema: Readonly<Record<string, unknown>>): string {
  if (typeof schema['x-expected'] === 'string') return schema['x-expected'];
  if (Array.isArray(schema.enum)) return schema.enum.join(' or ');
  if (schema.type === 'integer') return `an integer from ${String(schema.minimum)} to ${String(schema.maximum)}`;
  throw new Error('env-schema: a constrained variable needs x-expected');
}

/** The line a refused variable gets: what it must be, and the value (a credential's length only). */
export function refusal(name: EnvName, raw: string): string {
  const schema = envSchemaOf(name);
  return schema['x-secret'] ? `${name} must be ${expected(schema)}; it has ${raw.length} characters` : `${name} must be ${expected(schema)}, got "${raw}"`;
}

/** The environment's variables of EnvSchema, checked, converted and defaulted; throws naming each refused one. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  checks ??= new Map(NAMES.map((name) => [name, checkOf(name)]));
  const input: Record<string, string | number> = {};
  const refused: EnvName[] = [];
  for (const name of NAMES) {
    const raw = env[name];
    const schema = envSchemaOf(name);
    if (raw === undefined || (raw === '' && !('enum' in schema))) {
      if (schema.default !== undefined) input[name] = schema.default as string | number;
      else if (REQUIRED.has(name)) throw new Error(`env-schema: ${name} is required but has no default`);
      continue;
    }
    const value = schema.type === 'integer' ? Number(raw) : raw;
    if (checks.get(name)!(value)) input[name] = value;
    else refused.push(name);
  }
  if (refused.length === 0) return input as Env;
  throw new Error(refused.map((name) => refusal(name, env[name] ?? '')).join('\n'));
}
