/** examples/medplum-bot.ts runs as Medplum would run it: a Coverage in, the CoverageEligibilityResponse stored against the chart. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Coverage, Organization, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { handler, type MedplumLike } from '../../examples/medplum-bot.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { assertConformant } from './conformance.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** The chart: what MedplumClient would read, and what the bot creates. */
function fakeMedplum(resources: Resource[]): MedplumLike & { created: Resource[] } {
  const created: Resource[] = [];
  return {
    created,
    readReference: async <T extends Resource>(ref: Reference<T>) => {
      const found = resources.find((r) => `${r.resourceType}/${r.id}` === ref.reference);
      if (!found) throw new Error(`not found: ${ref.reference}`);
      return found as T;
    },
    createResource: async <T extends Resource>(resource: T) => {
      const stored = { ...resource, id: `stored-${created.length}` };
      created.push(stored);
      return stored;
    },
  };
}

const patient: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '3' },
  name: [{ given: ['Avery'], family: 'Walsh' }],
  birthDate: '1988-03-14',
};
const payer: Organization = { resourceType: 'Organization', id: 'o1', identifier: [{ system: 'urn:ehr:payers', value: 'SBX-EVERGREEN' }], name: 'Evergreen' };
const coverage: Coverage = {
  resourceType: 'Coverage',
  id: 'c1',
  status: 'active',
  subscriberId: '10010MHNA',
  beneficiary: { reference: 'Patient/p1' },
  payor: [{ reference: 'Organization/o1' }],
};

test('the bot reads the Coverage, asks the FHIR door, and stores the answer against Patient and Coverage', async () => {
  const medplum = fakeMedplum([patient, payer, coverage]);
  const secrets = {
    COVERAGE_URL: { valueString: server.url },
    COVERAGE_API_KEY: { valueString: TEST_KEY },
    PROVIDER_NPI: { valueString: '1234567893' },
    SESSION_PRICE: { valueString: '150.00' },
  };
  const result = await handler(medplum, { input: coverage, secrets });
  assert.equal(result.resourceType, 'CoverageEligibilityResponse');
  assert.equal(medplum.created.length, 1);
  const stored = medplum.created[0]!;
  assertConformant(stored, 'the stored response');
  assert.ok(stored.resourceType === 'CoverageEligibilityResponse', stored.resourceType);
  assert.deepEqual(stored.patient, { reference: 'Patient/p1' });
  assert.deepEqual(stored.insurance?.[0]?.coverage, { reference: 'Coverage/c1' });
  assert.equal(stored.insurance?.[0]?.inforce, true);
  assert.equal(stored.contained, undefined);
});

test('an error answer is returned, not stored', async () => {
  const medplum = fakeMedplum([patient, payer, { ...coverage, subscriberId: '5MHMNF' }]);
  const result = await handler(medplum, {
    input: { ...coverage, subscriberId: '5MHMNF' },
    secrets: { COVERAGE_URL: { valueString: server.url }, COVERAGE_API_KEY: { valueString: TEST_KEY } },
  });
  assert.equal(result.resourceType, 'OperationOutcome');
  assert.equal(medplum.created.length, 0);
});
