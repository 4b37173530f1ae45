/** The served document keeps the coverage model's enums on every response that shows them (one TypeBox schema for both). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { COVERAGE_STATUSES, INSURANCE_TYPES, MENTAL_HEALTH_COVERAGES, PLAN_TYPES, RELATIONSHIPS } from '../../src/domain/schemas/coverage.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let doc: any;
before(async () => {
  server = await startTestServer();
  doc = await (await fetch(`${server.url}/openapi.json`)).json();
});
after(() => server.close());

/** The string values a schema admits: const, enum, and the branches of anyOf/oneOf. */
function valuesOf(schema: any): string[] {
  if (!schema) return [];
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v: unknown) => typeof v === 'string');
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(valuesOf);
}

const component = (name: string) => {
  const schema = doc.components?.schemas?.[name];
  assert.ok(schema, `no components.schemas.${name}`);
  return schema;
};

for (const name of ['EstimateResponse', 'DiscoverResponse', 'ScanResponse', 'MedicaidResponse']) {
  test(`${name}: insurance_type, plan_type, coverage_status, mental_health_coverage and relationship are enums`, () => {
    const props = component(name).properties;
    assert.deepEqual(valuesOf(props.insurance_type).sort(), [...INSURANCE_TYPES].sort());
    assert.deepEqual(valuesOf(props.plan_type).sort(), [...PLAN_TYPES].sort());
    assert.deepEqual(valuesOf(props.coverage_status).sort(), [...COVERAGE_STATUSES].sort());
    assert.deepEqual(valuesOf(props.mental_health_coverage).sort(), [...MENTAL_HEALTH_COVERAGES].sort());
    assert.deepEqual(valuesOf(props.relationship_to_subscriber).sort(), [...RELATIONSHIPS].sort());
    assert.deepEqual(valuesOf(props.additional_policy.items.properties.insurance_type).sort(), [...INSURANCE_TYPES].sort());
  });
}
