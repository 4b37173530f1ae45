/**
 * Finding 8, logs and audit: a payer's SOAP fault (or CORE ErrorMessage) that names the member was
 * logged verbatim, and audit_events.payer_id stored whatever a rejected request named. The log
 * keeps the fault's class and code only; the audit trail keeps payer IDs the network knows.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadConfig } from '../../src/server/config.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startProduction } from '../helpers/production.ts';
import { AVERY_ESTIMATE } from '../support/checks.ts';
import { sqliteStore } from '../support/stores.ts';
import { NO_SHEDDING } from '../support/no-shedding.ts';

/** Distinctive, so a leak would show; the simulator's fault prose repeats them as X12 wrote them. */
const PERSON = { member_id: '88123MHQX', member_first_name: 'Quillon', member_last_name: 'Marchbanks', member_dob: '1971-07-19' };
const LEAKS = ['Quillon', 'QUILLON', 'Marchbanks', 'MARCHBANKS', '1971-07-19', '19710719', '88123MHQX'];

function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

// The simulator speaks SOAP for commercial payers and MIME (CORE ErrorMessage) for Medicaid programs.
for (const [payer, protocol] of [
  ['SBX-HARBOR', 'core-soap'],
  ['SBX-MCD-NY', 'core-mime'],
] as const) {
  test(`${protocol}: a payer fault naming the member is logged as its code, without the prose`, async () => {
    const log = logCapture();
    const prod = await startProduction({ payerIds: [payer], faults: { payers: { [payer]: { fault: 'soap_fault' } } }, logStream: log.stream });
    try {
      const res = await prod.server.post('/v1/estimate', { ...PERSON, payer_id: payer, provider_npi: VALID_NPI });
      assert.equal(res.status, 502);
      assert.equal(res.body.error_code, 'PAYER_FAILURE');
    } finally {
      await prod.close();
    }
    const text = log.lines.join('');
    const line = log.lines.find((l) => /"reason"/.test(l) && /PAYER_FAILURE/.test(l));
    assert.ok(line, 'the failure is logged with its reason');
    assert.match(line, protocol === 'core-soap' ? /SOAP fault Receiver"/ : /CORE error Receiver"/);
    for (const leak of LEAKS) assert.ok(!text.includes(leak), `the log holds ${leak}`);
  });
}

test('audit: a rejected request records only a payer ID the network knows', async (t) => {
  const store = await sqliteStore();
  const runtime = await startRuntime(loadConfig({ ...NO_SHEDDING, COVERAGE_DATA_DIR: store.env.COVERAGE_DATA_DIR }), { logLevel: false });
  t.after(async () => {
    await runtime.close();
    await store.cleanup();
  });
  const { secret } = await runtime.keys.create({ name: 'audit', env: 'sandbox' });
  const post = (payload: object) => runtime.app.inject({ method: 'POST', url: '/v1/estimate', headers: { apikey: secret }, payload });

  // Caller text where a payer ID goes: a name, refused by validation or by the network.
  const invalidNamed = await post({ member_id: '10010MHNA', payer_id: 'Quillon Marchbanks 1971' });
  const unknownNamed = await post({ ...AVERY_ESTIMATE, payer_id: 'Quillon Marchbanks 1971' });
  const invalidKnown = await post({ member_id: '10010MHNA', payer_id: 'SBX-EVERGREEN' });
  const answered = await post(AVERY_ESTIMATE);
  assert.deepEqual([invalidNamed.statusCode, invalidKnown.statusCode, answered.statusCode], [400, 400, 200]);
  assert.ok(unknownNamed.statusCode >= 400, String(unknownNamed.statusCode));

  await runtime.audit.flush();
  const rows = await runtime.db.kysely.selectFrom('audit_events').select(['request_id', 'payer_id']).execute();
  const payerOf = (res: { headers: Record<string, unknown> }) => rows.find((r) => r.request_id === res.headers['x-request-id'])?.payer_id;
  assert.equal(rows.length, 4);
  assert.equal(payerOf(invalidNamed), null);
  assert.equal(payerOf(unknownNamed), null);
  assert.equal(payerOf(invalidKnown), 'SBX-EVERGREEN');
  assert.equal(payerOf(answered), answered.json().payer_id);
  for (const r of rows) assert.ok(!String(r.payer_id).includes('Marchbanks'));
});
