/** A Good Faith Estimate as the Da Vinci PCT GFE Bundle (?format=fhir or accept), valid FHIR R4 by @medplum/core's validator. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PCT } from '../../src/fhir/gfe-bundle.ts';
import { assertConformant, isRefused } from '../fhir/conformance.ts';
import { completeGfe, CO_PROVIDER_NPI } from '../helpers/gfe-request.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let id: string;
before(async () => {
  server = await startTestServer();
  const made = await server.post('/v1/good-faith-estimates', completeGfe());
  assert.equal(made.status, 201);
  id = made.body.id;
});
after(() => server.close());

test('?format=fhir: a collection Bundle with the Patient, a self-pay Coverage, and an Organization and a GFE Claim per provider, valid FHIR R4', async () => {
  const r = await server.get(`/v1/good-faith-estimates/${id}?format=fhir`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/fhir\+json/);
  const bundle = r.body;
  assertConformant(bundle, 'GFE Bundle');
  assert.deepEqual([bundle.resourceType, bundle.type, bundle.meta.profile], ['Bundle', 'collection', [PCT.bundle]]);
  assert.deepEqual(
    bundle.entry.map((e: any) => e.resource.resourceType),
    ['Patient', 'Coverage', 'Organization', 'Claim', 'Organization', 'Claim'],
  );
  for (const e of bundle.entry) assertConformant(e.resource, e.resource.resourceType);
  const urls = bundle.entry.map((e: any) => e.fullUrl);
  assert.equal(new Set(urls).size, urls.length);
  for (const u of urls) assert.match(u, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const [patient, coverage] = bundle.entry.map((e: any) => e.resource);
  assert.deepEqual([patient.name[0].family, patient.birthDate], ['Walsh', '1988-03-14']);
  assert.equal(coverage.payor[0].reference, bundle.entry[0].fullUrl, 'the client pays');
  const claims = bundle.entry.filter((e: any) => e.resource.resourceType === 'Claim').map((e: any) => e.resource);
  assert.deepEqual(
    claims.map((c: any) => [c.meta.profile[0], c.use, c.total.value, c.item.length]),
    [
      [PCT.claim, 'predetermination', 3800, 2],
      [PCT.claim, 'predetermination', 360, 1],
    ],
  );
  const [north] = claims;
  assert.deepEqual(north.item[1].productOrService.coding[0], { system: 'http://www.ama-assn.org/go/cpt', code: '90837' });
  assert.deepEqual([north.item[1].quantity.value, north.item[1].unitPrice.value, north.item[1].net.value], [24, 150, 3600]);
  assert.equal(north.diagnosis[0].diagnosisCodeableConcept.coding[0].code, 'F41.1');
  assert.ok(
    north.extension.some((x: any) => x.url === PCT.disclaimer && /\$400 or more/.test(x.valueString)),
    'the dispute notice',
  );
  const orgs = bundle.entry.filter((e: any) => e.resource.resourceType === 'Organization').map((e: any) => e.resource);
  assert.deepEqual(
    orgs.map((o: any) => o.identifier.map((i: any) => i.value)),
    [
      [VALID_NPI, '123456789'],
      [CO_PROVIDER_NPI, '987654321'],
    ],
  );
  assert.equal(north.provider.reference, bundle.entry[2].fullUrl);
});

test('accept: application/fhir+json answers the same Bundle; the same version always gives the same one; JSON stays the default', async () => {
  const viaQuery = await server.get(`/v1/good-faith-estimates/${id}?format=fhir`);
  const viaAccept = await server.get(`/v1/good-faith-estimates/${id}`, { accept: 'application/fhir+json' });
  assert.deepEqual(viaAccept.body, viaQuery.body);
  const json = await server.get(`/v1/good-faith-estimates/${id}`);
  assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(json.body.id, id);
  const explicit = await server.get(`/v1/good-faith-estimates/${id}?format=json`, { accept: 'application/fhir+json' });
  assert.equal(explicit.body.id, id, '?format=json wins over accept');
});

test('the validator refuses a broken Claim, so the checks above can fail', async () => {
  const bundle = (await server.get(`/v1/good-faith-estimates/${id}?format=fhir`)).body;
  const claim = structuredClone(bundle.entry[3].resource);
  delete claim.status;
  assert.equal(isRefused(claim), true);
  claim.status = 'active';
  delete claim.item[0].productOrService;
  assert.equal(isRefused(claim), true);
  const bad = structuredClone(bundle.entry[3].resource);
  bad.total = '3800.00';
  assert.equal(isRefused(bad), true);
});
