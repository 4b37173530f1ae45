/** One simulator per vendor at once: a payer reachable through Stedi, Optum and Availity fails over down the list. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AvailitySimulator } from '../../src/payers/simulator/vendors/availity.ts';
import { vendorDirectory } from '../../src/payers/simulator/vendors/directory.ts';
import { OptumSimulator } from '../../src/payers/simulator/vendors/optum.ts';
import { StediSimulator } from '../../src/payers/simulator/vendors/stedi.ts';
import { TEST_TODAY, type TestServer } from '../helpers/server.ts';
import { estimateFor, serveDirectory } from './setup.ts';
import { onDay } from '../helpers/clock.ts';

let stedi: StediSimulator;
let optum: OptumSimulator;
let availity: AvailitySimulator;
let server: TestServer;

before(async () => {
  [stedi, optum, availity] = await Promise.all([
    StediSimulator.start({ clock: onDay(TEST_TODAY) }),
    OptumSimulator.start({ clock: onDay(TEST_TODAY) }),
    AvailitySimulator.start({ clock: onDay(TEST_TODAY) }),
  ]);
  const directory = vendorDirectory([
    { name: 'stedi', sim: stedi },
    { name: 'optum', sim: optum },
    { name: 'availity', sim: availity },
  ]);
  for (const c of directory.connections!) {
    c.retry = { max_attempts: 0 };
    c.timeout_ms = 500;
    c.poll_initial_ms = 20;
  }
  server = await serveDirectory(directory, { COVERAGE_PAYER_TIMEOUT_MS: '5000' });
});
after(async () => {
  await server?.close();
  await Promise.all([stedi?.close(), optum?.close(), availity?.close()]);
});

test('a payer routes through all three in order; Stedi down (500) and Optum silent (timeout): Availity answers', async () => {
  const harbor = () => server.post('/v1/estimate', estimateFor('SBX-EVERGREEN', '10010MHNA', 'Avery', 'Walsh', '1988-03-14'));
  assert.equal((await harbor()).body.route, 'stedi');
  stedi.faults.set({ payers: { 'SBX-EVERGREEN': { fault: 'http_500' } } });
  assert.equal((await harbor()).body.route, 'optum');
  optum.faults.set({ payers: { 'SBX-EVERGREEN': { fault: 'timeout' } } });
  const res = await harbor();
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.route, 'availity');
  assert.equal(res.body.copayment, 3000);
});

test("Stedi's mock payers are not routed through vendors that do not list them", async () => {
  const { body } = await server.get('/v1/payers');
  assert.ok(body.payers.some((p: any) => p.payer_id === 'AETNA'));
  const res = await server.post('/v1/estimate', estimateFor('AETNA', 'AETNA12345', 'Jane', 'Doe', '2004-04-04'));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.route, 'stedi');
});
