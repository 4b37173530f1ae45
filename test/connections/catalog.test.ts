/** The payer catalog: `coverage payers import` into the store, read by a production server at start; aliases, search, not_supported per route. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parseCatalogCsv } from '../../src/cli/payer-formats/generic-csv.ts';
import { importPayers } from '../../src/cli/payers.ts';
import type { CatalogEntry } from '../../src/payers/network.ts';
import { ProductionNetwork } from '../../src/payers/production/network.ts';
import { AvailitySimulator } from '../../src/payers/simulator/vendors/availity.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { openDb } from '../../src/store/db.ts';
import { PayerCatalogStore } from '../../src/store/payer-catalog.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/payers-catalog.csv', import.meta.url));
const quiet = { stdout: () => {}, stderr: () => {} };

describe('the generic CSV', () => {
  test('the example catalog reads: aliases split on ;, eligibility and the connection payer ID', async () => {
    const rows = parseCatalogCsv((await import('node:fs')).readFileSync(EXAMPLE, 'utf8')).payers;
    const aetna = rows.find((r) => r.entry.payer_id === 'AETNA')!;
    assert.deepEqual(aetna.entry.aliases, ['60054', 'AETNA INC']);
    assert.equal(aetna.connection_payer_id, '60054');
    assert.equal(rows.find((r) => r.entry.payer_id === 'EXAMPLE-NOELIG')!.entry.eligibility, 'not_supported');
    assert.ok(rows.length >= 8);
  });

  test('a bad row stops the import with its row number and nothing is imported', () => {
    assert.throws(() => parseCatalogCsv('payer_id,name,eligibility\nOK,Fine,supported\nBAD ID!,Broken,maybe\n'), /row 3: payer_id .*eligibility/);
    assert.throws(() => parseCatalogCsv('id,title\nA,B\n'), /needs a payer_id column/);
  });
});

describe('a production server with an imported catalog', () => {
  let sim: StediSimulator;
  let server: TestServer;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'coverage-catalog-'));
    const db = await openDb({ dataDir });
    const store = new PayerCatalogStore(db);
    assert.equal(await importPayers(store, EXAMPLE, { connection: 'stedi', format: 'csv' }, quiet), 0);
    // Importing again updates in place.
    const again: string[] = [];
    assert.equal(await importPayers(store, EXAMPLE, { connection: 'stedi', format: 'csv' }, { stdout: () => {}, stderr: (s) => again.push(s) }), 0);
    assert.match(again.join(''), /0 added, 9 updated/);
    assert.match(
      again.join(''),
      /restart `coverage serve` \(every instance\) to use this/,
      'a running server keeps the list it read at start, and the command says so',
    );
    await db.close();
    sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
    // The directory names the connection only: every payer comes from the catalog.
    const directory = vendorDirectory([{ name: 'stedi', sim }]);
    directory.payers = [];
    server = await serveDirectory(directory, { COVERAGE_DATA_DIR: dataDir });
  });
  after(async () => {
    await server?.close();
    await sim?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('any alias or connection payer ID is accepted as payer_id, any case', async () => {
    for (const id of ['AETNA', '60054', 'aetna inc']) {
      const res = await server.post('/v1/estimate', estimateFor(id, 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
      assert.equal(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.payer_id, 'AETNA');
      assert.equal(res.body.route, 'stedi');
    }
    assert.equal(sim.received.at(-1)!.payer_id, '60054', "the route's own ID went out in 2100A");
  });

  test('a payer marked not_supported answers 400 PAYER_NOT_SUPPORTED without a call', async () => {
    const before = sim.stats.requests;
    const res = await server.post('/v1/estimate', estimateFor('EXAMPLE-NOELIG', 'X1', 'Jane', 'Doe', '2004-04-04'));
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
    assert.equal(sim.stats.requests, before);
  });

  test('GET /v1/payers?query= searches name, ID and aliases; GET /v1/payers/{id} takes an alias', async () => {
    const found = await server.get('/v1/payers?query=aetan');
    assert.deepEqual(
      found.body.payers.map((p: any) => p.payer_id),
      ['AETNA'],
    );
    const united = await server.get('/v1/payers?query=united');
    assert.equal(united.body.payers[0].payer_id, 'UHC');
    const byAlias = await server.get('/v1/payers/87726');
    assert.equal(byAlias.status, 200);
    assert.equal(byAlias.body.payer_id, 'UHC');
    assert.deepEqual(byAlias.body.aliases, ['87726', 'UNITED HEALTHCARE', 'UHC COMMERCIAL']);
    assert.equal(byAlias.body.eligibility, 'supported');
    assert.equal((await server.get('/v1/payers/NOPE')).status, 404);
    const all = await server.get('/v1/payers');
    assert.equal(all.body.payers.length, 9);
    assert.ok(!JSON.stringify(all.body).includes('stedi'), 'no connection names');
  });
});

describe("two connections' lists disagree on eligibility", () => {
  let stedi: StediSimulator;
  let availity: AvailitySimulator;
  let server: TestServer;
  let dataDir: string;
  const write = (name: string, content: unknown) => {
    const file = join(dataDir, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'coverage-catalog-routes-'));
    const db = await openDb({ dataDir });
    const store = new PayerCatalogStore(db);
    const evergreen = { primaryPayerId: 'SBX-EVERGREEN', displayName: 'Evergreen', transactionSupport: { eligibilityCheck: 'SUPPORTED' } };
    const both = { primaryPayerId: 'SBX-HARBOR', displayName: 'Harbor', transactionSupport: { eligibilityCheck: 'NOT_SUPPORTED' } };
    assert.equal(await importPayers(store, write('stedi.json', { items: [evergreen, both] }), { connection: 'stedi', format: 'stedi-json' }, quiet), 0);
    // Availity's list, imported last, has Evergreen's 270 through its portal only: not_supported there.
    const portalOnly = [{ transactionDescription: 'Eligibility and Benefits Inquiry', submissionMode: 'Portal' }];
    const availityList = [
      { payerId: 'SBX-EVERGREEN', displayName: 'Evergreen', processingRoutes: portalOnly },
      { payerId: 'SBX-HARBOR', displayName: 'Harbor', processingRoutes: portalOnly },
    ];
    assert.equal(await importPayers(store, write('availity.json', availityList), { connection: 'availity', format: 'availity-json' }, quiet), 0);
    await db.close();
    [stedi, availity] = await Promise.all([StediSimulator.start({ clock: onDay(TEST_TODAY) }), AvailitySimulator.start({ clock: onDay(TEST_TODAY) })]);
    const directory = vendorDirectory([
      { name: 'availity', sim: availity },
      { name: 'stedi', sim: stedi },
    ]);
    directory.payers = [];
    server = await serveDirectory(directory, { COVERAGE_DATA_DIR: dataDir });
  });
  after(async () => {
    await server?.close();
    await Promise.all([stedi?.close(), availity?.close()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("a payer Availity's list marks not_supported answers through Stedi's supported route; the Availity route is not tried", async () => {
    const before = availity.stats.requests;
    const res = await server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.route, 'stedi');
    assert.equal(availity.stats.requests, before, 'the not_supported route (first by name) was skipped');
    assert.equal((await server.get('/v1/payers/SBX-EVERGREEN')).body.eligibility, 'supported');
  });

  test('a payer no route supports answers 400 PAYER_NOT_SUPPORTED without a call and lists as not_supported', async () => {
    const calls = stedi.stats.requests + availity.stats.requests;
    const res = await server.post('/v1/estimate', estimateFor('SBX-HARBOR', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
    assert.equal(res.status, 400);
    assert.equal(res.body.error_code, 'PAYER_NOT_SUPPORTED');
    assert.equal(stedi.stats.requests + availity.stats.requests, calls);
    assert.equal((await server.get('/v1/payers/SBX-HARBOR')).body.eligibility, 'not_supported');
  });
});

test("a payer of the directory file takes each connection's catalog eligibility; a file route the catalog says nothing of counts as supported", async () => {
  const network = new ProductionNetwork(
    {
      submitter: { id: 'PRACTICE01', name: 'HAPPY MIND CLINIC' },
      connections: [
        { name: 'stedi', kind: 'stedi', base_url: 'https://stedi.invalid', api_key_env: 'K' },
        { name: 'gateway', kind: 'core-soap', endpoint: 'https://gateway.invalid/soap', receiver_id: 'GATEWAY EDI', username_env: 'U', password_env: 'P' },
      ],
      payers: [
        {
          payer_id: 'AETNA',
          name: 'Aetna',
          supports_search: false,
          routes: [
            { connection: 'stedi', payer_id: '60054' },
            { connection: 'gateway', payer_id: 'AETNA' },
          ],
        },
        { payer_id: 'UHC', name: 'UHC', supports_search: false, routes: [{ connection: 'gateway', payer_id: '87726' }] },
      ],
    },
    { timeoutMs: 1000, env: { K: 'k', U: 'u', P: 'p' } },
  );
  const entry = (payer_id: string, routes: CatalogEntry['routes']): CatalogEntry => ({
    payer_id,
    name: payer_id,
    aliases: [],
    eligibility: 'not_supported',
    medicaid_state: null,
    routes,
  });
  const firstTried = async (payerId: string) => {
    const tried: string[] = [];
    await assert.rejects(
      network.inquire(
        payerId,
        (route) => {
          tried.push(route.connection);
          throw new Error('stop before sending');
        },
        { request_id: 'r', deadline: Date.now() + 1000 },
      ),
      /stop before sending/,
    );
    return tried[0];
  };
  assert.equal(await firstTried('AETNA'), 'stedi');
  const warnings = network.addCatalog([
    entry('AETNA', { stedi: { payer_id: '60054', eligibility: 'not_supported' } }),
    // Only through a connection this server does not have: says nothing of the file's gateway route.
    entry('UHC', { availity: { payer_id: 'UHC', eligibility: 'not_supported' } }),
  ]);
  assert.deepEqual(warnings, ['UHC: connection availity is not in the directory; its route is ignored']);
  assert.equal(network.payer('AETNA')!.eligibility, 'supported', 'the gateway route still serves');
  assert.equal(await firstTried('AETNA'), 'gateway', 'the not_supported Stedi route is skipped');
  assert.equal(network.interchange('AETNA')!.receiver_id, 'GATEWAY EDI');
  assert.equal(network.payer('UHC')!.eligibility, undefined);
  network.addCatalog([entry('AETNA', { gateway: { payer_id: 'AETNA', eligibility: 'enrollment_required' } })]);
  assert.equal(network.payer('AETNA')!.eligibility, 'enrollment_required');
  await network.close();
});

test('stedi-json: Stedi payer records import with their aliases and eligibility support', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-catalog-json-'));
  const file = join(dir, 'payers.json');
  writeFileSync(
    file,
    JSON.stringify({
      items: [
        {
          stediId: 'HPQRS',
          primaryPayerId: 'CMS',
          displayName: 'Medicare',
          aliases: ['CMS', 'CMSMED', 'MEDICARE'],
          transactionSupport: { eligibilityCheck: 'ENROLLMENT_REQUIRED' },
        },
      ],
    }),
  );
  const db = await openDb({ dataDir: dir });
  try {
    assert.equal(await importPayers(new PayerCatalogStore(db), file, { connection: 'stedi', format: 'stedi-json' }, quiet), 0);
    const [cms] = await new PayerCatalogStore(db).list();
    assert.deepEqual(cms, {
      payer_id: 'CMS',
      name: 'Medicare',
      aliases: ['CMSMED', 'MEDICARE', 'HPQRS'],
      eligibility: 'enrollment_required',
      medicaid_state: null,
      routes: { stedi: { payer_id: 'CMS', eligibility: 'enrollment_required' } },
    });
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
