/**
 * Issue 17 finding 10(e): a production 270 named itself "COVERAGE" in ISA06 and GS02 whatever the
 * payer directory's `sender_id` said, so the interchange and the CORE envelope around it disagreed
 * about who was asking. Now the service in production mode, talking to the payer simulator, sends
 * the directory's sender (and each payer's receiver_id, and the production usage indicator).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { simulatorDirectory, SIMULATOR_PASSWORD_ENV, SIMULATOR_USERNAME_ENV } from '../../src/payers/simulator/directory.ts';
import { PayerSimulator } from '../../src/payers/simulator/server.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { onDay } from '../helpers/clock.ts';

const SENDER = 'CLINIC-0042';
let sim: PayerSimulator;
let server: TestServer;
let dir: string;

before(async () => {
  process.env[SIMULATOR_USERNAME_ENV] = 'coverage-test';
  process.env[SIMULATOR_PASSWORD_ENV] = 'not-a-real-secret';
  sim = await PayerSimulator.start({ clock: onDay(TEST_TODAY) });
  const directory = simulatorDirectory(sim, { payerIds: ['SBX-EVERGREEN', 'SBX-HARBOR'] });
  directory.sender_id = SENDER;
  directory.payers[1]!.receiver_id = 'HARBOR-EDI';
  dir = mkdtempSync(join(tmpdir(), 'coverage-sender-'));
  const file = join(dir, 'payers.json');
  writeFileSync(file, JSON.stringify(directory));
  server = await startTestServer({ env: { COVERAGE_MODE: 'production', COVERAGE_PAYERS: file } });
});
after(async () => {
  await server?.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the 270 a payer receives names the directory sender in ISA06 and GS02, as the CORE envelope does', async () => {
  const { secret } = await server.runtime.keys.create({ name: 'production', env: 'production' });
  const res = await server.post(
    '/v1/estimate',
    {
      member_id: '10010MHNA',
      member_first_name: 'Avery',
      member_last_name: 'Walsh',
      member_dob: '1988-03-14',
      payer_id: 'SBX-EVERGREEN',
      provider_npi: '1234567893',
      provider_session_cost: '15000',
    },
    { apikey: secret },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const received = sim.received('SBX-EVERGREEN');
  assert.ok(received.length >= 1);
  for (const envelope of received) {
    assert.equal(envelope.core_sender_id, SENDER);
    assert.equal(envelope.isa_sender_id, SENDER);
    assert.equal(envelope.gs_sender_id, SENDER);
    assert.equal(envelope.isa_receiver_id, 'SBX-EVERGREEN');
    assert.equal(envelope.usage, 'P', 'a production interchange is not marked as test data');
  }
});

test("a payer's receiver_id is the 270's receiver too", async () => {
  const { secret } = await server.runtime.keys.create({ name: 'production 2', env: 'production' });
  await server.post('/v1/scan', { member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14', zip: '10001' }, { apikey: secret });
  const received = sim.received('SBX-HARBOR');
  assert.ok(received.length >= 1, 'the scan asked the second payer');
  for (const envelope of received) {
    assert.equal(envelope.core_receiver_id, 'HARBOR-EDI');
    assert.equal(envelope.isa_receiver_id, 'HARBOR-EDI');
    assert.equal(envelope.gs_receiver_id, 'HARBOR-EDI');
    assert.equal(envelope.isa_sender_id, SENDER);
  }
});
