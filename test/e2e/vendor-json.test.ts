/**
 * The clearinghouses' JSON answers read by the server as users start it (launch.ts): production mode
 * against `coverage simulate-payer --as stedi,optum,availity` on loopback (docs/going-live.md, 4), the
 * directory it writes edited the way an operator would: the Stedi connection set to `"format": "json"`
 * (Stedi's JSON model, read by the Stedi reader, not the 271 in `x12`), and one payer per vendor, each
 * with that vendor as its only route, so each estimate is priced from one vendor's JSON answer. The
 * vendor readers, their JSON code lists and schemas are what the bundle must carry; a JSON import or a
 * CommonJS package the bundle mishandles fails here and nowhere in the unit suites, which run the sources.
 *
 * The simulators answer sandbox payers from the sandbox catalog (Avery Walsh: a $30 copay for
 * outpatient mental health), so each vendor's answer states the copay the estimate must price. The
 * Stedi answer is also fetched straight from the simulator and its copay read off
 * `benefitsInformation`, so the expected figure is the vendor JSON's own. `--replay` works with the
 * CAQH CORE simulator only (recorded 271s), so no recorded vendor JSON answer is replayed here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { apiOf, type Call } from './api.ts';
import { coverage, prepare, serve, simulatePayer, TARGET, type Running } from './launch.ts';

const VENDORS = ['stedi', 'optum', 'availity'] as const;
const avery = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };

interface Connection {
  name: string;
  kind: string;
  base_url: string;
  format?: string;
}
interface Payer {
  payer_id: string;
  aliases?: string[];
  routes?: { connection: string; payer_id: string }[];
  [field: string]: unknown;
}

let dir: string;
let simulator: Running;
let server: Running;
let api: Call;
let connections: Connection[];

/** The payer through one vendor only: SBX-EVERGREEN's entry under another ID, routed to `vendor` alone. */
const viaVendor = (vendor: string) => `EVERGREEN-VIA-${vendor.toUpperCase()}`;

before(async () => {
  await prepare();
  dir = mkdtempSync(join(tmpdir(), 'coverage-e2e-vendor-'));
  const directory = join(dir, 'payers.local.json');
  simulator = await simulatePayer(['--as', VENDORS.join(','), '--port', '0', '--directory-out', directory]);
  const written = JSON.parse(readFileSync(directory, 'utf8')) as { connections: Connection[]; payers: Payer[] };
  connections = written.connections;
  assert.deepEqual(
    connections.map((c) => c.kind),
    [...VENDORS],
  );
  const stedi = connections.find((c) => c.kind === 'stedi')!;
  stedi.format = 'json';
  const evergreen = written.payers.find((p) => p.payer_id === 'SBX-EVERGREEN')!;
  for (const vendor of VENDORS) {
    written.payers.push({ ...evergreen, payer_id: viaVendor(vendor), aliases: [], routes: [{ connection: vendor, payer_id: 'SBX-EVERGREEN' }] });
  }
  writeFileSync(directory, JSON.stringify(written, null, 2));
  const env = {
    COVERAGE_MODE: 'production',
    COVERAGE_PAYERS: directory,
    COVERAGE_DATA_DIR: join(dir, 'data'),
    COVERAGE_DATA_KEY: 'e3'.repeat(32),
    // The simulators' secrets, as their printout says (every secret is `sim`).
    COVERAGE_SIM_STEDI_API_KEY: 'sim',
    COVERAGE_SIM_OPTUM_CLIENT_ID: 'sim',
    COVERAGE_SIM_OPTUM_CLIENT_SECRET: 'sim',
    COVERAGE_SIM_AVAILITY_CLIENT_ID: 'sim',
    COVERAGE_SIM_AVAILITY_CLIENT_SECRET: 'sim',
    COVERAGE_CACHE_TTL_MS: '0',
  };
  const key = await coverage(['keys', 'create', '--name', 'e2e-vendor', '--env', 'production'], env);
  assert.equal(key.code, 0, key.stderr);
  server = await serve(env);
  api = await apiOf(server.url, key.stdout.trim());
});
after(async () => {
  await server?.stop();
  await simulator?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a vendor simulator has received so far (GET /simulator/stats on its own port). */
async function received(vendor: string): Promise<number> {
  const origin = new URL(connections.find((c) => c.kind === vendor)!.base_url).origin;
  const res = await fetch(`${origin}/simulator/stats`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { requests: number }).requests;
}

/** The copay Stedi's JSON answer states for Avery's outpatient mental health (service type MH), in cents. */
async function stediStatedCopay(): Promise<number> {
  const stedi = connections.find((c) => c.kind === 'stedi')!;
  const res = await fetch(`${stedi.base_url}/change/medicalnetwork/eligibility/v3`, {
    method: 'POST',
    headers: { authorization: 'sim', 'content-type': 'application/json' },
    body: JSON.stringify({
      controlNumber: '123456789',
      tradingPartnerServiceId: 'SBX-EVERGREEN',
      provider: { organizationName: 'E2E CLINIC', npi: '1234567893' },
      subscriber: { memberId: avery.member_id, firstName: avery.member_first_name, lastName: avery.member_last_name, dateOfBirth: '19880314' },
      encounter: { serviceTypeCodes: ['MH'] },
    }),
  });
  const body = (await res.json()) as {
    benefitsInformation?: { code?: string; serviceTypeCodes?: string[]; benefitAmount?: string; inPlanNetworkIndicatorCode?: string }[];
  };
  assert.equal(res.status, 200, JSON.stringify(body));
  const copays = (body.benefitsInformation ?? []).filter((b) => b.code === 'B' && b.serviceTypeCodes?.includes('MH') && b.benefitAmount !== undefined);
  const amounts = [...new Set(copays.map((b) => b.benefitAmount))];
  assert.equal(amounts.length, 1, `one MH copay in Stedi's JSON answer: ${JSON.stringify(copays)}`);
  return Math.round(Number(amounts[0]) * 100);
}

for (const vendor of VENDORS) {
  test(`${TARGET} in production: an estimate priced from ${vendor === 'optum' ? 'Optum eligibility v3' : vendor === 'stedi' ? "Stedi's JSON" : "Availity's Coverages"} answer`, async () => {
    const before = await received(vendor);
    const estimate = await api('POST', '/v1/estimate', {
      body: {
        ...avery,
        payer_id: viaVendor(vendor),
        provider_npi: '1234567893',
        provider_session_cost: 15000,
        in_network: true,
        procedure_code: '90837',
        place_of_service: '10',
      },
    });
    assert.equal(estimate.status, 200, estimate.text);
    assert.equal(estimate.body.plan_status, 'ACTIVE', estimate.text);
    // The catalog's plan for Avery: a $30 copay, all of it the member's on a $150 session.
    const stated = vendor === 'stedi' ? await stediStatedCopay() : 3000;
    assert.equal(stated, 3000);
    assert.deepEqual([estimate.body.copayment, estimate.body.member_obligation], [stated, stated], estimate.text);
    assert.ok((await received(vendor)) > before, `the answer came from the ${vendor} simulator`);
  });
}

test(`${TARGET} in production: Stedi's documented mock member answers through the JSON reader`, async () => {
  const before = await received('stedi');
  const estimate = await api('POST', '/v1/estimate', {
    body: {
      member_id: 'AETNA12345',
      member_first_name: 'Jane',
      member_last_name: 'Doe',
      member_dob: '2004-04-04',
      payer_id: 'AETNA',
      provider_npi: '1234567893',
      provider_session_cost: 15000,
    },
  });
  assert.equal(estimate.status, 200, estimate.text);
  assert.equal(estimate.body.plan_status, 'ACTIVE', estimate.text);
  assert.equal(typeof estimate.body.member_obligation, 'number', estimate.text);
  assert.ok((await received('stedi')) > before);
});
