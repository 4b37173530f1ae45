/** EnvSchema is the one list of environment variables: the README's table is made from it, src reads no other, and it refuses what it should. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { configTableMarkdown, README_PATH, withConfigTable } from '../../scripts/config-table.ts';
import { parseEnv } from '../../src/server/env.ts';
import { EnvSchema, envSchemaOf, type EnvName } from '../../src/server/env-schema.ts';

const NAMES = Object.keys(EnvSchema.properties) as EnvName[];
const SRC = new URL('../../src/', import.meta.url);

test('the README shows the configuration table made from EnvSchema (run `node --import tsx scripts/config-table.ts` after changing a variable)', () => {
  const readme = readFileSync(README_PATH, 'utf8');
  assert.equal(readme, withConfigTable(readme, configTableMarkdown()));
});

test('every environment variable src/ reads by name is declared in EnvSchema', () => {
  const read = new Set<string>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('env-schema.ts')) continue;
    const text = readFileSync(new URL(file, SRC), 'utf8');
    for (const [, name] of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) read.add(name!);
    for (const [, name] of text.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)) read.add(name!);
  }
  assert.ok(read.has('PORT') && read.has('COVERAGE_URL'), [...read].join(', '));
  for (const name of read) assert.ok(NAMES.includes(name as EnvName), `${name} is read but not declared in src/server/env-schema.ts`);
});

test('each variable has a description and a mode; its default is a value it accepts', () => {
  const defaults = parseEnv({});
  for (const name of NAMES) {
    const schema = envSchemaOf(name);
    assert.ok(typeof schema.description === 'string' && schema.description.length > 0, name);
    assert.ok(['any', 'sandbox', 'production', 'client'].includes(schema['x-mode'] as string), name);
    if (typeof schema.default === 'string' || typeof schema.default === 'number')
      assert.equal(parseEnv({ [name]: String(schema.default) })[name], defaults[name], name);
  }
});

test('an integer variable takes its range, refuses outside it, and the refusal names the variable', () => {
  const integers = NAMES.filter((name) => envSchemaOf(name).type === 'integer');
  assert.ok(integers.length > 20);
  fc.assert(
    fc.property(fc.constantFrom(...integers), fc.integer({ min: -10_000_000, max: 20_000_000 }), (name, n) => {
      const { minimum, maximum } = envSchemaOf(name) as { minimum: number; maximum: number };
      if (n >= minimum && n <= maximum) assert.equal(parseEnv({ [name]: String(n) })[name], n);
      else assert.throws(() => parseEnv({ [name]: String(n) }), { message: `${name} must be an integer from ${minimum} to ${maximum}, got "${n}"` });
    }),
  );
  for (const bad of ['Infinity', '1e400', '2.5', 'ten', 'NaN']) assert.throws(() => parseEnv({ PORT: bad }), /PORT must be an integer from 0 to 65535/, bad);
  assert.equal(parseEnv({ PORT: '' }).PORT, 8080, 'empty is unset');
});

test("a refused credential's message gives its length, never the value", () => {
  const secrets = NAMES.filter((name) => envSchemaOf(name)['x-secret'] === true);
  assert.deepEqual(secrets, ['COVERAGE_DEV_KEY', 'COVERAGE_DATA_KEY', 'COVERAGE_METRICS_TOKEN']);
  fc.assert(
    fc.property(fc.constantFrom(...secrets), fc.string({ minLength: 4, maxLength: 31 }), (name, value) => {
      assert.throws(
        () => parseEnv({ [name]: `${value} x` }),
        (err: Error) =>
          err.message.startsWith(`${name} must be`) && err.message.endsWith(`it has ${value.length + 2} characters`) && !err.message.includes(`${value} x`),
      );
    }),
  );
});

test('a closed list refuses an empty value; a flag takes 1, 0, true or false', () => {
  assert.throws(() => parseEnv({ COVERAGE_MODE: '' }), { message: 'COVERAGE_MODE must be sandbox or production, got ""' });
  assert.throws(() => parseEnv({ COVERAGE_HEAP: '' }), { message: 'COVERAGE_HEAP must be fast or small, got ""' });
  assert.equal(parseEnv({ COVERAGE_WEBHOOK_DELIVERY: '' }).COVERAGE_WEBHOOK_DELIVERY, '1');
  assert.throws(() => parseEnv({ COVERAGE_WEBHOOK_DELIVERY: 'yes' }), { message: 'COVERAGE_WEBHOOK_DELIVERY must be 1 or 0, got "yes"' });
  assert.throws(
    () => parseEnv({ PORT: 'x', COVERAGE_MODE: 'prod' }),
    { message: 'PORT must be an integer from 0 to 65535, got "x"\nCOVERAGE_MODE must be sandbox or production, got "prod"' },
    'every refusal, one a line',
  );
});
