/**
 * Issue 39, item 6: 64 KiB of nested arrays or objects blocked the event loop 85 to 558 ms before any
 * schema could refuse it. A JSON body nested deeper than MAX_JSON_DEPTH is refused before it is parsed
 * (400 INVALID_REQUEST, an OperationOutcome on the FHIR door), and the limit stays well above the
 * deepest body the schemas and the FHIR door accept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Bundle, CoverageEligibilityRequest, Extension, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.ts';
import { EXAMPLE_CALLS } from '../../src/http/openapi/openapi-examples.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { AVERY, bundleOf, eligibilityRequest } from '../fhir/fixtures.ts';

const FHIR_PATH = '/fhir/r4/CoverageEligibilityRequest/$submit';
const FHIR = { 'content-type': 'application/fhir+json' };
const BODY_LIMIT = 64 * 1024;

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** How deep a JSON value nests arrays and objects (a scalar is 0). */
const depthOf = (value: unknown): number =>
  Array.isArray(value)
    ? 1 + Math.max(0, ...value.map(depthOf))
    : value !== null && typeof value === 'object'
      ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
      : 0;

/** The deepest a body of this schema can nest; an open part (additionalProperties, FHIR's resources) counts as its declared levels only. */
function schemaDepth(schema: Record<string, any>, doc: Record<string, any>, seen: Set<string> = new Set()): number {
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return 0;
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key: string) => node?.[key], doc);
    return target ? schemaDepth(target, doc, new Set([...seen, schema.$ref])) : 0;
  }
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].map((s) => schemaDepth(s, doc, seen));
  const inner = [
    ...Object.values(schema.properties ?? {}).map((s) => schemaDepth(s as Record<string, any>, doc, seen)),
    ...(typeof schema.additionalProperties === 'object' ? [schemaDepth(schema.additionalProperties, doc, seen)] : []),
    ...(schema.items ? [schemaDepth(schema.items, doc, seen)] : []),
  ];
  const own = schema.type === 'object' || schema.type === 'array' || schema.properties || schema.items ? 1 + Math.max(0, ...inner) : 0;
  return Math.max(own, ...parts);
}

describe('the scan', () => {
  test('counts arrays and objects, not brackets inside strings', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    assert.equal(nestsDeeperThan(nested(5), 5), false);
    assert.equal(nestsDeeperThan(nested(6), 5), true);
    assert.equal(nestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4), false);
    assert.equal(nestsDeeperThan('{"a":{"b":[1,{"c":{}}]}}', 4), true);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: '[[[[[[[[{{{{{{' }), 1), false);
    // An escaped quote does not end the string; an escaped backslash before the quote does.
    assert.equal(nestsDeeperThan(JSON.stringify({ a: 'say "[[[[" \\', b: '\\"{{{{' }), 1), false);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: '\\' }) + '[[[', 2), true);
    // Malformed text is left to the parser.
    assert.equal(nestsDeeperThan('{"a": "[[[[[[', 1), false);
  });
});

describe('a body nested past the limit is refused before it is parsed', () => {
  const arrays = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);
  const objects = (bytes: number) => {
    const n = Math.floor((bytes - 1) / 6);
    return '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  };

  test('on /v1: 400 INVALID_REQUEST, for arrays and for objects', async () => {
    for (const body of [arrays(BODY_LIMIT - 2), objects(BODY_LIMIT - 2)]) {
      assert.ok(body.length < BODY_LIMIT);
      const res = await server.post('/v1/estimate', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error_code, 'INVALID_REQUEST');
      assert.equal(res.body.message, `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`);
    }
  });

  test('on the FHIR door: a 400 OperationOutcome, for application/fhir+json and application/json', async () => {
    for (const headers of [FHIR, { 'content-type': 'application/json' }]) {
      const res = await server.post(FHIR_PATH, arrays(BODY_LIMIT - 2), headers);
      assert.equal(res.status, 400);
      const outcome = res.body as OperationOutcome;
      assert.equal(outcome.resourceType, 'OperationOutcome');
      assert.equal(outcome.issue[0]!.details?.coding?.[0]?.code, 'INVALID_REQUEST');
      assert.match(outcome.issue[0]!.details?.text ?? '', /more than \d+ deep/);
    }
  });
});

describe('the limit stays above every body the service accepts', () => {
  test('twice the deepest request schema and the deepest example request fit in it', async () => {
    const doc = (await server.get('/openapi.json')).body as Record<string, any>;
    const schemas: [string, number][] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const schema = operation?.requestBody?.content?.['application/json']?.schema;
        if (schema) schemas.push([`${method} ${path}`, schemaDepth(schema, doc)]);
      }
    }
    assert.ok(schemas.length >= 9, `the request schemas are read: ${schemas.map((s) => s[0]).join(', ')}`);
    const examples = EXAMPLE_CALLS.filter((c) => c.body !== undefined).map((c) => [`${c.operation}/${c.name}`, depthOf(c.body)] as const);
    const [deepest, depth] = [...schemas, ...examples].sort((a, b) => b[1] - a[1])[0]!;
    assert.ok(2 * depth <= MAX_JSON_DEPTH, `${deepest} nests ${depth} deep: MAX_JSON_DEPTH ${MAX_JSON_DEPTH} is too close`);
  });

  test('a FHIR Bundle nested exactly to the limit is answered; one level more is refused', async () => {
    /** A complex extension on the contained Patient, nested until the whole Bundle is `depth` deep. */
    const bundleOfDepth = (depth: number): Bundle => {
      for (let levels = 1; ; levels++) {
        // Each level of extension is an array and an object; the innermost value a string, or an object for an odd depth.
        for (const value of [{ valueString: 'deep' }, { valueCodeableConcept: { text: 'deep' } }]) {
          const bundle = bundleOf(eligibilityRequest(AVERY, { price: 150 }), eligibilityRequest(AVERY));
          let extension: Extension = { url: 'https://example.org/fhir/StructureDefinition/note', ...value };
          for (let i = 1; i < levels; i++) extension = { url: `part-${i}`, extension: [extension] };
          const request = bundle.entry![0]!.resource as CoverageEligibilityRequest;
          const patient = request.contained!.find((r) => r.resourceType === 'Patient') as Patient;
          patient.extension = [extension];
          if (depthOf(bundle) === depth) return bundle;
        }
      }
    };
    const fits = bundleOfDepth(MAX_JSON_DEPTH);
    const res = await server.post(FHIR_PATH, fits, FHIR);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      (res.body as Bundle).entry!.map((e) => e.response?.status),
      ['200', '200'],
    );
    const refused = await server.post(FHIR_PATH, bundleOfDepth(MAX_JSON_DEPTH + 1), FHIR);
    assert.equal(refused.status, 400);
    assert.equal((refused.body as OperationOutcome).issue[0]!.details?.text, `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`);
  });
});
