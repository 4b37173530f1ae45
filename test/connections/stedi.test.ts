/** A `stedi` connection against the Stedi simulator over loopback: raw X12, mock members, the in-flight cap. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Pool } from 'undici';
import { payerErrorToServiceError } from '../../src/operations/ask-payer.ts';
import { PayerError } from '../../src/payers/network.ts';
import { RequestRefused } from '../../src/payers/production/errors.ts';
import { forwardedFor, stediClient } from '../../src/payers/vendors/stedi.ts';
import { build270, build999, detectTransactionSet } from '../../src/x12/index.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory, STEDI_DOC_NPI } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

describe('stedi connection', () => {
  let sim: StediSimulator;
  let server: TestServer;
  before(async () => {
    sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
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
    const sim = await StediSimulator.start({ clock: onDay(TEST_TODAY), latencyMs: 60, maxInFlight: 2 });
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
    sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
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

/** The EQ codes of each 270 the simulator received (raw X12), or the JSON request's serviceTypeCodes. */
function serviceTypesSent(body: unknown): string[][] {
  const b = body as { x12?: string; encounter?: { serviceTypeCodes?: string[] } };
  if (typeof b.x12 === 'string')
    return b.x12
      .split('~')
      .map((seg) => seg.trim())
      .filter((seg) => seg.startsWith('EQ*'))
      .map((seg) => seg.split('*')[1]!.split('^'));
  return [b.encounter?.serviceTypeCodes ?? []];
}

describe('service types: one per request', () => {
  test('by default one 270 asks MH alone, through both endpoints; a route may ask 30 (what Stedi test mode answers)', async () => {
    const sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
    const servers: TestServer[] = [];
    try {
      for (const format of ['x12', 'json'] as const) {
        const directory = vendorDirectory([{ name: 'stedi', sim }]);
        directory.connections![0]!.format = format;
        const aetna = directory.payers.find((p) => p.payer_id === 'AETNA')!;
        aetna.routes = aetna.routes!.map((r) => ({ ...r, service_types: [['30']] }));
        servers.push(await serveDirectory(directory));
      }
      for (const server of servers) {
        const before = sim.bodies.length;
        const evergreen = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
        assert.equal(evergreen.status, 200, JSON.stringify(evergreen.body));
        assert.equal(evergreen.body.copayment, 3000);
        // The answer holds MH benefits: no second inquiry.
        assert.equal(sim.bodies.length, before + 1);
        assert.deepEqual(serviceTypesSent(sim.bodies.at(-1)), [['MH']]);
        const aetna = await server.post('/v1/estimate', estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
        assert.equal(aetna.status, 200, JSON.stringify(aetna.body));
        assert.deepEqual(serviceTypesSent(sim.bodies.at(-1)), [['30']]);
      }
    } finally {
      for (const s of servers) await s.close();
      await sim.close();
    }
  });
});

describe('X-Forwarded-For on checks to CMS', () => {
  test("sent when the connection asks for it, with the caller's address chain, only to the payer IDs named", async () => {
    const sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
    const directory = vendorDirectory([{ name: 'stedi', sim }]);
    directory.connections![0]!.forwarded_for = { payer_ids: ['CMS'], proxies: ['203.0.113.7'] };
    const server = await serveDirectory(directory);
    try {
      const cms = await server.post('/v1/estimate', estimateFor('CMS', 'CMS12345678', 'Jane', 'Doe', '1955-05-05'));
      assert.equal(cms.status, 200, JSON.stringify(cms.body));
      assert.match(sim.forwardedFor.at(-1) ?? '', /^(::ffff:)?127\.0\.0\.1, 203\.0\.113\.7$/);
      assert.equal((await server.post('/v1/estimate', estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'))).status, 200);
      assert.equal(sim.forwardedFor.at(-1), null);
    } finally {
      await server.close();
      await sim.close();
    }
  });

  test('no header without the option, without a listed payer or without any valid address', () => {
    const target = { payer_id: 'CMS', sender_id: 'S', receiver_id: 'R', client_ips: ['198.51.100.4', 'not an address'] };
    assert.equal(forwardedFor(undefined, target), null);
    assert.equal(forwardedFor({ payer_ids: ['MEDICARE'] }, target), null);
    assert.equal(forwardedFor({ payer_ids: ['cms'] }, target), '198.51.100.4');
    assert.equal(forwardedFor({ payer_ids: ['CMS'] }, { ...target, client_ips: [] }), null);
  });
});

describe("Stedi refusing our own request is our fault, not the payer's", () => {
  const published = readFileSync(new URL('../fixtures/stedi/published-raw-x12-parse-error.json', import.meta.url), 'utf8');
  async function answering(status: number, body: string, run: (base: string) => Promise<void>) {
    const http = createServer((_req, res) => {
      _req.resume();
      _req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/2024-04-01`;
    try {
      await run(base);
    } finally {
      await new Promise((r) => http.close(r));
    }
  }
  const target = { payer_id: '87726', sender_id: 'COVERAGESVC', receiver_id: 'STEDI' };

  test("Stedi's published parse-error 400 (no 271) is RequestRefused, answered as 400 INVALID_REQUEST", async () => {
    await answering(400, published, async (base) => {
      const pool = new Pool(new URL(base).origin);
      try {
        const client = stediClient(pool, 'stedi', { baseUrl: base, apiKey: 'test_x' });
        const err = await client.send('ISA*00*x~', target, AbortSignal.timeout(5000)).catch((e: unknown) => e);
        assert.ok(err instanceof RequestRefused, String(err));
        const answer = payerErrorToServiceError(err);
        assert.equal(answer.status, 400);
        assert.equal(answer.code, 'INVALID_REQUEST');
      } finally {
        await pool.close();
      }
    });
  });

  test('a validation answer names what the route needs by our field names', async () => {
    const body = JSON.stringify({
      message: 'Validation failed',
      fieldList: [
        { path: 'subscriber.firstName', message: 'required' },
        { path: '/provider/npi', message: 'pattern' },
      ],
    });
    await answering(400, body, async (base) => {
      const pool = new Pool(new URL(base).origin);
      try {
        const err = await stediClient(pool, 'stedi', { baseUrl: base, apiKey: 'k' })
          .send('ISA', target, AbortSignal.timeout(5000))
          .catch((e: unknown) => e);
        assert.ok(err instanceof RequestRefused);
        assert.deepEqual(err.fields, ['member_first_name', 'provider_npi']);
      } finally {
        await pool.close();
      }
    });
  });

  test('through the JSON endpoint, a 999 in `x12` (the payer refusing the 270) comes back as the 999, as through raw X12', async () => {
    const ours = build270(
      {
        trace_number: 'T1',
        payer: { id: '87726', name: null },
        provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'CLINIC' },
        subscriber: { member_id: 'M1', first_name: 'A', last_name: 'B', dob: '1990-01-01', zip: null },
        dependent: null,
        service_types: ['MH'],
        date: '2026-06-15',
      },
      { control_number: 7 },
    );
    const ack = build999(ours, [{ segment_id: 'NM1', position: 5, code: '8', description: 'Segment has data element errors' }]);
    await answering(200, JSON.stringify({ x12: ack, errors: [] }), async (base) => {
      const pool = new Pool(new URL(base).origin);
      try {
        const out = await stediClient(pool, 'stedi', { baseUrl: base, apiKey: 'k', format: 'json' }).send(ours, target, AbortSignal.timeout(5000));
        assert.equal(detectTransactionSet(out), '999');
      } finally {
        await pool.close();
      }
    });
  });

  test("a payer Stedi could not reach (AAA 42 without a 271) stays the payer's failure", async () => {
    await answering(400, JSON.stringify({ errors: [{ code: '42', followupAction: 'Resubmission Allowed' }], status: 'ERROR' }), async (base) => {
      const pool = new Pool(new URL(base).origin);
      try {
        const err = await stediClient(pool, 'stedi', { baseUrl: base, apiKey: 'k' })
          .send('ISA', target, AbortSignal.timeout(5000))
          .catch((e: unknown) => e);
        assert.ok(err instanceof PayerError && !(err instanceof RequestRefused) && err.kind === 'failure', String(err));
      } finally {
        await pool.close();
      }
    });
  });
});
