/**
 * Reads the environment through EnvSchema (env-schema.ts), compiled once: an empty variable counts
 * as unset (except a closed list's, such as COVERAGE_MODE, so a blank one never means the default),
 * integers are read with Number() (not ajv's coercion, which lets "Infinity" past the range), and
 * defaults fill the rest. A refused value stops with one line per variable, naming it; a
 * credential's line gives its length, never its value.
 */
import { Ajv } from 'ajv';
import { EnvSchema, envSchemaOf, type Env, type EnvName } from './env-schema.ts';

const NAMES = Object.keys(EnvSchema.properties) as EnvName[];

let compiled: ReturnType<typeof compile> | undefined;

function compile() {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, keywords: ['x-mode', 'x-default-text', 'x-expected', 'x-secret'] });
  return ajv.compile<Env>(EnvSchema);
}

function expected(schema: Record<string, unknown>): string {
  if (typeof schema['x-expected'] === 'string') return schema['x-expected'];
  if (Array.isArray(schema.enum)) return schema.enum.join(' or ');
  if (schema.type === 'integer') return `an integer from ${String(schema.minimum)} to ${String(schema.maximum)}`;
  throw new Error('env-schema: a constrained variable needs x-expected');
}

function refusal(name: EnvName, raw: string): string {
  const schema = envSchemaOf(name);
  return schema['x-secret'] ? `${name} must be ${expected(schema)}; it has ${raw.length} characters` : `${name} must be ${expected(schema)}, got "${raw}"`;
}

/** The environment's variables of EnvSchema, checked, converted and defaulted; throws naming each refused one. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const input: Record<string, string | number> = {};
  for (const name of NAMES) {
    const raw = env[name];
    const schema = envSchemaOf(name);
    if (raw === undefined || (raw === '' && !('enum' in schema))) continue;
    input[name] = schema.type === 'integer' ? Number(raw) : raw;
  }
  const validate = (compiled ??= compile());
  if (validate(input)) return input;
  const refused = new Set((validate.errors ?? []).map((e) => e.instancePath.split('/')[1] as EnvName));
  throw new Error(
    NAMES.filter((name) => refused.has(name))
      .map((name) => refusal(name, env[name] ?? ''))
      .join('\n'),
  );
}
