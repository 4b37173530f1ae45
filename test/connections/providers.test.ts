/** `coverage providers add`: the store's providers name 2100B when a check gives only an NPI. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { addProvider, listProviders, providerRecord } from '../../src/cli/providers.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { openDb } from '../../src/store/db.ts';
import { ProviderStore } from '../../src/store/providers.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

test('a provider is a person or an organization, with a valid NPI and taxonomy', () => {
  assert.match(providerRecord({ npi: '1234567890', organization: 'X' }) as string, /check digit/);
  assert.match(providerRecord({ npi: '1234567893', organization: 'X', lastName: 'Y' }) as string, /person, or --organization/);
  assert.match(providerRecord({ npi: '1234567893', firstName: 'Only' }) as string, /needs --last-name/);
  assert.match(providerRecord({ npi: '1234567893', organization: 'X', taxonomy: 'bad' }) as string, /taxonomy/);
  assert.deepEqual(providerRecord({ npi: '1234567893', organization: 'Happy Mind Clinic', taxonomy: '261QM0801X' }), {
    npi: '1234567893',
    first_name: null,
    last_name: null,
    organization_name: 'Happy Mind Clinic',
    taxonomy: '261QM0801X',
  });
});

test('a production server names the stored provider of an NPI in 2100B', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coverage-providers-'));
  const db = await openDb({ dataDir });
  const quiet = { stdout: () => {}, stderr: () => {} };
  const store = new ProviderStore(db);
  assert.equal(await addProvider(store, { npi: '1234567893', firstName: 'Karen', lastName: 'Horney' }, quiet), 0);
  const said: string[] = [];
  assert.equal(
    await addProvider(
      store,
      { npi: '1234567893', firstName: 'Karen', lastName: 'Horney', taxonomy: '103T00000X' },
      { stdout: () => {}, stderr: (s) => said.push(s) },
    ),
    0,
    'a second add replaces',
  );
  assert.match(said.join(''), /Updated provider 1234567893\.\nA running server keeps the list it read at start: restart `coverage serve`/);
  const out: string[] = [];
  await listProviders(store, { stdout: (s) => out.push(s), stderr: () => {} });
  assert.match(out.join(''), /1234567893\s+Horney, Karen\s+103T00000X/);
  await db.close();
  const sim = await StediSimulator.start({ clock: onDay(TEST_TODAY) });
  const server = await serveDirectory(vendorDirectory([{ name: 'stedi', sim }]), { COVERAGE_DATA_DIR: dataDir });
  try {
    const res = await server.post('/v1/estimate', { ...estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'), provider_npi: '1234567893' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(sim.received.at(-1)!.provider_name, 'HORNEY, KAREN');
    assert.equal(sim.received.at(-1)!.provider_taxonomy, '103T00000X', "2100B PRV*PE*PXC from the registry's taxonomy");
    const other = await server.post('/v1/estimate', { ...estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'), provider_npi: '1245319599' });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.equal(sim.received.at(-1)!.provider_taxonomy, undefined, 'an NPI the registry does not hold: no PRV');
  } finally {
    await server.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
