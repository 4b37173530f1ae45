/** The directory's connections + routes shape, beside the original one, and what each 270 carries. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadDirectory, parseDirectory, resolveDirectory } from '../../src/payers/directory.ts';
import { ProductionNetwork } from '../../src/payers/production/network.ts';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { onDay } from '../helpers/clock.ts';

const CONTRACT = {
  submitter: { id: 'PRACTICE01', name: 'HAPPY MIND CLINIC' },
  connections: [
    { name: 'stedi', kind: 'stedi', base_url: 'https://healthcare.us.stedi.com/2024-04-01', api_key_env: 'STEDI_API_KEY', max_in_flight: 5 },
    { name: 'optum', kind: 'optum', base_url: 'https://apigw.optum.com', client_id_env: 'OPTUM_ID', client_secret_env: 'OPTUM_SECRET' },
    { name: 'availity', kind: 'availity', base_url: 'https://api.availity.com', client_id_env: 'AV_ID', client_secret_env: 'AV_SECRET', scope: 'hipaa' },
    {
      name: 'gateway',
      kind: 'core-soap',
      endpoint: 'https://api.gatewayedi.com/v2/CORE_CAQH/soap',
      receiver_id: 'GATEWAY EDI',
      username_env: 'GW_USER',
      password_env: 'GW_PASS',
    },
  ],
  payers: [
    {
      payer_id: 'AETNA',
      name: 'Aetna',
      aliases: ['60054'],
      supports_search: true,
      routes: [
        { connection: 'stedi', payer_id: '60054' },
        { connection: 'availity', payer_id: 'AETNA' },
      ],
    },
  ],
};

describe('directory shapes', () => {
  test("the issue's contract is a valid directory", () => {
    const d = resolveDirectory(parseDirectory(structuredClone(CONTRACT)));
    assert.deepEqual(d.submitter, { id: 'PRACTICE01', name: 'HAPPY MIND CLINIC' });
    assert.deepEqual(
      d.connections.map((c) => c.name),
      ['stedi', 'optum', 'availity', 'gateway'],
    );
    assert.deepEqual(
      d.payers[0]!.routes.map((r) => r.connection),
      ['stedi', 'availity'],
    );
  });

  test("a payer's cost_share_fallback (docs/estimates.md 1.1, 'Fallback order') reaches its payer info; another value is refused", () => {
    const withOrder = structuredClone(CONTRACT);
    (withOrder.payers[0] as Record<string, unknown>).cost_share_fallback = '30-then-98';
    assert.equal(resolveDirectory(parseDirectory(withOrder)).payers[0]!.info.cost_share_fallback, '30-then-98');
    assert.equal(resolveDirectory(parseDirectory(structuredClone(CONTRACT))).payers[0]!.info.cost_share_fallback, undefined);
    (withOrder.payers[0] as Record<string, unknown>).cost_share_fallback = '30-first';
    assert.throws(() => parseDirectory(withOrder), /invalid|cost_share_fallback/);
  });

  test('the original shape becomes one CORE connection per payer, named by its payer_id', () => {
    const d = resolveDirectory(
      parseDirectory({
        sender_id: 'SX',
        payers: [
          {
            payer_id: 'P1',
            name: 'One',
            endpoint: 'https://p1.example/core',
            protocol: 'core-mime',
            receiver_id: 'P1EDI',
            supports_search: false,
            max_concurrency: 3,
          },
        ],
      }),
    );
    assert.equal(d.submitter.id, 'SX');
    assert.deepEqual(d.connections, [{ name: 'P1', kind: 'core-mime', endpoint: 'https://p1.example/core', receiver_id: 'P1EDI', max_in_flight: 3 }]);
    assert.deepEqual(d.payers[0]!.routes, [{ connection: 'P1', payer_id: 'P1' }]);
  });

  test('the example directory (examples/payers.connections.example.json) is valid', () => {
    const d = resolveDirectory(loadDirectory(fileURLToPath(new URL('../../examples/payers.connections.example.json', import.meta.url))));
    assert.deepEqual(
      d.connections.map((c) => c.kind),
      ['stedi', 'optum', 'availity', 'core-soap'],
    );
  });

  test('mistakes are refused with what is wrong', () => {
    const bad = (mutate: (d: any) => void) => {
      const d = structuredClone(CONTRACT) as any;
      mutate(d);
      return () => parseDirectory(d);
    };
    assert.throws(
      bad((d) => (d.payers[0].routes[0].connection = 'nope')),
      /connection nope, which is not listed/,
    );
    assert.throws(
      bad((d) => delete d.connections[0].api_key_env),
      /stedi \(stedi\) needs api_key_env/,
    );
    assert.throws(
      bad((d) => (d.connections[0].api_key = 'test_abc')),
      /invalid/,
    );
    assert.throws(
      bad((d) => delete d.submitter),
      /needs submitter.id/,
    );
    assert.throws(
      bad((d) => d.connections.push(d.connections[0])),
      /connection stedi twice/,
    );
    assert.throws(
      bad((d) => (d.payers[0].endpoint = 'https://x.example')),
      /belong on its connections/,
    );
    assert.throws(
      bad((d) => d.payers.push({ payer_id: 'OTHER', name: 'O', aliases: ['60054'], supports_search: false, routes: [{ connection: 'stedi', payer_id: '1' }] })),
      /60054 names both payer AETNA and payer OTHER/,
    );
    assert.throws(
      bad((d) => (d.payers[0].routes[0].payer_id = 'X'.repeat(16))),
      /too long for ISA08/,
    );
    assert.throws(
      bad((d) => (d.submitter.id = 'X'.repeat(16))),
      /invalid: \/submitter\/id/,
    );
    assert.throws(
      bad(
        (d) =>
          (d.providers = [
            { npi: '1999999984', last_name: 'A' },
            { npi: '1999999984', organization_name: 'B' },
          ]),
      ),
      /provider 1999999984 twice/,
    );
    assert.throws(
      bad((d) => (d.providers = [{ npi: '1999999984', last_name: 'A', organization_name: 'B' }])),
      /a person .* or an organization/,
    );
    assert.throws(
      bad((d) => (d.providers = [{ npi: '123', organization_name: 'B' }])),
      /invalid/,
    );
  });

  test('a secret environment variable that is not set stops the start, naming the variable only', () => {
    const d = parseDirectory({
      ...structuredClone(CONTRACT),
      connections: [CONTRACT.connections[0]!],
      payers: [{ ...CONTRACT.payers[0]!, routes: [CONTRACT.payers[0]!.routes[0]!] }],
    });
    assert.throws(() => new ProductionNetwork(d, { timeoutMs: 1000, env: {} }), /connection stedi: environment variable STEDI_API_KEY is not set/);
  });
});

describe('ISA15 from the connection: P in production, T when the connection says test', () => {
  let sim: PayerSimulator;
  let server: TestServer;
  let dir: string;
  before(async () => {
    process.env.DIR_TEST_USER = 'u';
    process.env.DIR_TEST_PASS = 'sim';
    sim = await PayerSimulator.start({ clock: onDay(TEST_TODAY) });
    const core = (name: string, payer: string, test: boolean) => ({
      name,
      kind: 'core-soap',
      endpoint: sim.endpoint(payer, 'soap'),
      username_env: 'DIR_TEST_USER',
      password_env: 'DIR_TEST_PASS',
      ...(test ? { test: true } : {}),
    });
    const directory = {
      submitter: { id: 'PRACTICE01', name: 'HAPPY MIND CLINIC' },
      connections: [core('live', 'SBX-EVERGREEN', false), core('trial', 'SBX-HARBOR', true)],
      payers: [
        { payer_id: 'EVERGREEN', name: 'Evergreen', supports_search: false, routes: [{ connection: 'live', payer_id: 'SBX-EVERGREEN' }] },
        { payer_id: 'HARBOR', name: 'Harbor', supports_search: false, routes: [{ connection: 'trial', payer_id: 'SBX-HARBOR' }] },
      ],
    };
    dir = mkdtempSync(join(tmpdir(), 'coverage-dirformat-'));
    writeFileSync(join(dir, 'payers.json'), JSON.stringify(directory));
    server = await startTestServer({ env: { COVERAGE_MODE: 'production', COVERAGE_PAYERS: join(dir, 'payers.json') } });
  });
  after(async () => {
    await server?.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const estimate = (payer_id: string) =>
    server.post('/v1/estimate', {
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      payer_id,
      provider_npi: '1234567893',
      provider_session_cost: '15000',
    });

  test('a live connection sends P, a test connection T; sender from submitter, receiver the route payer ID', async () => {
    const live = await estimate('EVERGREEN');
    assert.equal(live.status, 200, JSON.stringify(live.body));
    assert.equal(live.body.payer_id, 'EVERGREEN', "the response names the directory's payer, not the route's ID");
    await estimate('HARBOR');
    const [a] = sim.received('SBX-EVERGREEN');
    const [b] = sim.received('SBX-HARBOR');
    assert.equal(a!.usage, 'P');
    assert.equal(b!.usage, 'T');
    for (const e of [a!, b!]) {
      assert.equal(e.isa_sender_id, 'PRACTICE01');
      assert.equal(e.core_sender_id, 'PRACTICE01');
    }
    assert.equal(a!.isa_receiver_id, 'SBX-EVERGREEN');
  });

  test('GET /v1/payers lists payers without connections, URLs or env var names', async () => {
    const { body } = await server.get('/v1/payers');
    assert.deepEqual(body.payers.map((p: any) => p.payer_id).sort(), ['EVERGREEN', 'HARBOR']);
    const text = JSON.stringify(body);
    for (const secret of ['127.0.0.1', 'DIR_TEST', 'live', 'trial']) assert.ok(!text.includes(secret), secret);
  });
});
