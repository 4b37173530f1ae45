/** A `stedi` connection against the Stedi simulator over loopback: raw X12, mock members, the in-flight cap. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory, STEDI_DOC_NPI } from './setup.ts';

describe('stedi connection', () => {
  let sim: StediSimulator;
  let server: TestServer;
  before(async () => {
    sim = await StediSimulator.start({ today: () => TEST_TODAY });
    const directory = vendorDirectory([{ name: 'stedi', sim }]);
    directory.providers = [{ npi: STEDI_DOC_NPI, first_name: 'ANNA', last_name: 'FREUD', taxonomy: '103T00000X' }];
    server = await serveDirectory(directory);
  });
  after(async () => {
    await server?.close();
    await sim?.close();
  });

  test("Stedi's mock Aetna member is active, asked by our payer ID; the 270 names Stedi's payer ID and goes out as production data", async () => {
    const before = sim.stats.requests;
    const res = await server.post('/v1/estimate', estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.payer_id, 'AETNA');
    assert.equal(res.body.plan_status, 'ACTIVE');
    assert.equal(sim.stats.requests, before + 1);
    const last = sim.received.at(-1)!;
    assert.equal(last.payer_id, '60054');
    assert.equal(last.usage, 'P');
    assert.equal(last.isa_sender_id, 'COVERAGESVC');
  });

  test('the alias (Stedi payer ID) is accepted as payer_id as well', async () => {
    const res = await server.post('/v1/estimate', estimateFor('60054', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.payer_id, 'AETNA');
  });

  test('mock outcomes: inactive, AAA 75 in a 400 body is the member not found', async () => {
    const inactive = await server.post('/v1/estimate', estimateFor('UHC', 'UHCINACTIVE', 'Jane', 'Doe', '1971-01-01'));
    assert.equal(inactive.status, 200, JSON.stringify(inactive.body));
    assert.equal(inactive.body.plan_status, 'INACTIVE');
    const missing = await server.post('/v1/estimate', estimateFor('UHC', 'UHCAAA75', 'Jane', 'Doe', '1990-01-01'));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body.error_code, 'MEMBER_NOT_FOUND');
    assert.deepEqual(missing.body.payer_errors, [
      { code: '75', description: 'Subscriber/insured not found', followup: 'Please correct and resubmit', loop: '2100C', category: 'member' },
    ]);
  });

  test('a sandbox payer answers from the catalog through the same connection', async () => {
    const res = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.copayment, 3000);
  });

  test("2100B: the request's provider name, else the directory's provider of that NPI, else the practice's name", async () => {
    const ask = (extra: Record<string, string>) =>
      server.post('/v1/estimate', { ...estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'), ...extra });
    assert.equal((await ask({ provider_first_name: 'Carl', provider_last_name: 'Rogers' })).status, 200);
    assert.equal(sim.received.at(-1)!.provider_name, 'ROGERS, CARL');
    assert.equal(sim.received.at(-1)!.provider_taxonomy, '103T00000X', "the directory's taxonomy for that NPI (PRV*PE*PXC)");
    assert.equal((await ask({})).status, 200);
    assert.equal(sim.received.at(-1)!.provider_name, 'FREUD, ANNA');
    assert.equal(sim.received.at(-1)!.provider_taxonomy, '103T00000X');
    assert.equal((await ask({ provider_npi: '1234567893' })).status, 200);
    assert.equal(sim.received.at(-1)!.provider_name, 'COVERAGE SIMULATOR CLINIC');
    assert.equal(sim.received.at(-1)!.provider_taxonomy, undefined, 'an NPI not listed: no PRV');
  });

  test('GET /simulator/stats answers the counts', async () => {
    const res = await fetch(`${sim.url}/simulator/stats`);
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ['requests', 'token_requests']);
    assert.equal(body.requests, sim.stats.requests);
    assert.equal(body.token_requests, 0);
  });

  test('the simulator refuses a wrong API key', async () => {
    const res = await fetch(`${sim.baseUrl}/change/medicalnetwork/eligibility/v3/raw-x12`, {
      method: 'POST',
      headers: { authorization: 'test_nope' },
      body: '{}',
    });
    assert.equal(res.status, 401);
  });
});

describe('the in-flight cap', () => {
  const burst = async (connectionCap: number) => {
    const sim = await StediSimulator.start({ today: () => TEST_TODAY, latencyMs: 60, maxInFlight: 2 });
    const directory = vendorDirectory([{ name: 'stedi', sim }]);
    directory.connections![0]!.max_in_flight = connectionCap;
    directory.connections![0]!.retry = { max_attempts: 0 };
    const server = await serveDirectory(directory, { COVERAGE_PAYER_TIMEOUT_MS: '20000' });
    try {
      const all = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', `1${String(i).padStart(4, '0')}MHNA`, 'Avery', 'Walsh', '1988-03-14')),
        ),
      );
      return all.map((r) => r.status);
    } finally {
      await server.close();
      await sim.close();
    }
  };

  test('past the connection cap checks queue within the deadline instead of tripping the vendor 429', async () => {
    assert.deepEqual(await burst(2), Array(8).fill(200));
  });

  test('(control) a cap above the vendor limit does trip it', async () => {
    const statuses = await burst(8);
    assert.ok(statuses.includes(429), statuses.join(','));
  });
});

describe('stedi connection, "format": "json" (the v3 JSON endpoint)', () => {
  let sim: StediSimulator;
  let server: TestServer;
  before(async () => {
    sim = await StediSimulator.start({ today: () => TEST_TODAY });
    const directory = vendorDirectory([{ name: 'stedi', sim }]);
    directory.connections![0]!.format = 'json';
    directory.providers = [{ npi: STEDI_DOC_NPI, first_name: 'ANNA', last_name: 'FREUD', taxonomy: '103T00000X' }];
    server = await serveDirectory(directory);
  });
  after(async () => {
    await server?.close();
    await sim?.close();
  });

  test('a mock member, a catalog member and a rejection read from the JSON', async () => {
    const aetna = await server.post('/v1/estimate', estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
    assert.equal(aetna.status, 200, JSON.stringify(aetna.body));
    assert.equal(aetna.body.plan_status, 'ACTIVE');
    assert.equal(sim.received.at(-1)!.payer_id, '60054');
    assert.equal(sim.received.at(-1)!.provider_taxonomy, '103T00000X', 'the taxonomy as provider.referenceIdentification (providerCode PE)');
    const evergreen = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(evergreen.body.copayment, 3000, JSON.stringify(evergreen.body));
    const missing = await server.post('/v1/estimate', estimateFor('UHC', 'UHCAAA75', 'Jane', 'Doe', '1990-01-01'));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body.payer_errors[0].code, '75');
  });
});
