/**
 * parseEnv builds each variable's check from EnvSchema instead of compiling it with Ajv at start:
 * on random environments it must accept, default and refuse exactly as the Ajv reading it replaced
 * (copied here as the reference; the refusal's wording is env.ts's own).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { parseEnv, refusal } from '../../src/server/env.ts';
import { EnvSchema, envSchemaOf, type Env, type EnvName } from '../../src/server/env-schema.ts';

const NAMES = Object.keys(EnvSchema.properties) as EnvName[];

const ajvValidate = new Ajv({ allErrors: true, useDefaults: true, keywords: ['x-mode', 'x-default-text', 'x-expected', 'x-secret'] }).compile<Env>(EnvSchema);

/** The Ajv reading as it was (src/server/env.ts before the checks were built from the schema). */
function parseEnvAjv(env: NodeJS.ProcessEnv): Env {
  const input: Record<string, string | number> = {};
  for (const name of NAMES) {
    const raw = env[name];
    const schema = envSchemaOf(name);
    if (raw === undefined || (raw === '' && !('enum' in schema))) continue;
    input[name] = schema.type === 'integer' ? Number(raw) : raw;
  }
  if (ajvValidate(input)) return input;
  const refused = new Set((ajvValidate.errors ?? []).map((e) => e.instancePath.split('/')[1] as EnvName));
  throw new Error(
    NAMES.filter((name) => refused.has(name))
      .map((name) => refusal(name, env[name] ?? ''))
      .join('\n'),
  );
}

const outcome = (read: (env: NodeJS.ProcessEnv) => Env, env: NodeJS.ProcessEnv) => {
  try {
    return { env: read(env) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

/** Values near what each variable accepts: bounds, numbers written oddly, patterns one character off, odd Unicode. */
function valueFor(name: EnvName): fc.Arbitrary<string | undefined> {
  const schema = envSchemaOf(name);
  const near: fc.Arbitrary<string>[] = [
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-0',
      '1',
      '1.0',
      '2.5',
      '1e3',
      '1e400',
      '-1',
      '0x10',
      ' 7 ',
      'Infinity',
      'NaN',
      'true',
      'false',
      'yes',
      'sandbox',
      'production',
      'fast',
      'small',
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer({ min: -1_000, max: 20_000_000 }).map(String),
  ];
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') {
    const { minimum: min, maximum: max } = schema as { minimum: number; maximum: number };
    near.push(fc.constantFrom(min - 1, min, min + 1, max - 1, max, max + 1).map(String));
  }
  if (Array.isArray(schema.enum))
    near.push(
      fc.constantFrom(...(schema.enum as string[])),
      fc.constantFrom(...(schema.enum as string[])).map((v) => ` ${v}`),
    );
  if (typeof schema.minLength === 'number') {
    const n = schema.minLength;
    // Astral characters are two UTF-16 units: the length counts code points.
    near.push(
      fc.array(fc.constantFrom('a', 'Z', '9', '😀', '\u00e9', ' ', '\ud800'), { minLength: Math.floor(n / 2) - 2, maxLength: n + 2 }).map((cs) => cs.join('')),
    );
  }
  if (name === 'COVERAGE_DATA_KEY') near.push(fc.stringMatching(/^[0-9a-fA-F]{62,66}$/), fc.stringMatching(/^[0-9a-fA-F]{64}\n?$/));
  if (name === 'COVERAGE_MONITOR_WINDOW') near.push(fc.stringMatching(/^\s{0,2}\d{1,2}:\d{2}-\d{1,2}:\d{2}\s{0,2}$/));
  if (typeof schema.pattern === 'string' && /0\|1/.test(schema.pattern)) near.push(fc.constantFrom('0', '1', 'true', 'false', '01', 'TRUE', '1\n'));
  return fc.option(fc.oneof(...near), { nil: undefined, freq: 3 });
}

test('parseEnv accepts, defaults and refuses as the Ajv reading of EnvSchema did', () => {
  assert.deepEqual(outcome(parseEnv, {}), outcome(parseEnvAjv, {}));
  const envs = fc.record(Object.fromEntries(NAMES.map((name) => [name, valueFor(name)])) as Record<EnvName, fc.Arbitrary<string | undefined>>, {
    requiredKeys: [],
  });
  // Most random environments refuse something; these keep a share that are accepted whole.
  const few = fc
    .subarray(NAMES, { maxLength: 3 })
    .chain((names) => fc.record(Object.fromEntries(names.map((name) => [name, valueFor(name)])) as Record<string, fc.Arbitrary<string | undefined>>));
  let accepted = 0;
  fc.assert(
    fc.property(fc.oneof(envs, few), (env) => {
      const expectedOutcome = outcome(parseEnvAjv, { ...env });
      if ('env' in expectedOutcome) accepted++;
      assert.deepEqual(outcome(parseEnv, { ...env }), expectedOutcome);
    }),
    { numRuns: 3_000 },
  );
  assert.ok(accepted > 300, `only ${accepted} of 3,000 environments were accepted`);
});
