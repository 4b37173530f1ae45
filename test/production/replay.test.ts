/**
 * The 271 corpus end to end: `simulate-payer --replay` answers each 270 with the recorded 271 for
 * the member, and the service in production mode reads and prices it as the corpus sidecar says.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runSimulatePayer } from '../../src/cli/simulate-payer.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { findRecorded } from '../../src/payers/simulator/replay.ts';
import { startProduction, type ProductionSetup } from '../helpers/production.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { assertSubset, corpus, CORPUS, estimateRequest } from '../x12/corpus.ts';

const HTTP_STATUS: Record<string, number> = {
  MEMBER_NOT_FOUND: 404,
  PROVIDER_NOT_RECOGNIZED: 400,
  PAYER_NOT_SUPPORTED: 400,
  TOO_MANY_REQUESTS: 429,
  PAYER_FAILURE: 502,
};
const PAYER = 'SBX-EVERGREEN';
const MEDICAID_PAYER = 'SBX-MCD-NY';

let prod: ProductionSetup;
let scratch: string;
before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'coverage-replay-'));
  prod = await startProduction({
    replayDir: fileURLToPath(CORPUS),
    env: { COVERAGE_CACHE_TTL_MS: '0' },
    overrides: { circuit_breaker: { consecutive_failures: 1000, half_open_after_ms: 300 } },
  });
});
after(async () => {
  await prod.close();
  rmSync(scratch, { recursive: true, force: true });
});

// The public samples live beside the corpus (x12-samples/) and are not in the replayed folder.
const replayed = corpus().filter((c) => c.expect.file === undefined);

describe('the corpus through --replay and a production server', () => {
  test('every corpus file is dated for the test server', () => {
    for (const c of replayed) assert.equal(c.expect.today, TEST_TODAY, c.name);
  });

  for (const c of replayed) {
    test(`replay ${c.name}`, async () => {
      const res = await prod.server.post('/v1/estimate', estimateRequest(c, PAYER));
      if (c.expect.rejected) {
        const code = c.expect.rejected.error_code;
        assert.equal(res.status, HTTP_STATUS[code], `${c.name}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error_code, code);
        if (code === 'TOO_MANY_REQUESTS') assert.equal(res.headers.get('retry-after'), '60');
        return;
      }
      const e = c.expect.estimate!;
      assert.equal(res.status, e.status, `${c.name}: ${JSON.stringify(res.body).slice(0, 400)}`);
      assertSubset(res.body, e.body, `${c.name} (replayed)`);
      if (e.alert_codes) assert.deepEqual(res.body.alerts.map((a: { code: string }) => a.code).sort(), [...e.alert_codes].sort(), `${c.name}: alerts`);
    });
  }

  test('a state Medicaid program of the directory answers for Medicaid when its 271 sends no EB04: /v1/medicaid answers, active or INACTIVE', async () => {
    for (const [name, status] of [
      ['medicaid-directory-only-active', 'ACTIVE'],
      ['medicaid-directory-only-inactive', 'INACTIVE'],
    ] as const) {
      const c = replayed.find((x) => x.name === name)!;
      const { provider_session_cost: _cost, in_network: _net, ...who } = c.expect.request;
      const res = await prod.server.post('/v1/medicaid', { ...who, payer_id: MEDICAID_PAYER });
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(res.body.insurance_type, 'medicaid');
      assert.equal(res.body.plan_status, status);
      const estimate = await prod.server.post('/v1/estimate', estimateRequest(c, MEDICAID_PAYER));
      assert.equal(estimate.body.insurance_type, 'medicaid');
    }
  });

  test('explain: true names the recorded EB behind the copay', async () => {
    const c = replayed.find((x) => x.name === 'specificity-mh-copay-beats-plan-coinsurance')!;
    const res = await prod.server.post('/v1/estimate', { ...estimateRequest(c, PAYER), explain: true });
    assert.equal(res.status, 200);
    const copay = res.body.explanation.benefits.find((e: { figure: string; network: string }) => e.figure === 'copayment' && e.network === 'in');
    assert.equal(copay.eb, 'EB*B**MH***27*30*****Y');
    assert.equal(copay.segment, 19);
  });

  test('no recorded 271 for the member is AAA 75: 404 MEMBER_NOT_FOUND', async () => {
    const res = await prod.server.post('/v1/estimate', {
      payer_id: PAYER,
      member_id: 'NOBODY404',
      member_first_name: 'No',
      member_last_name: 'Body',
      member_dob: '1980-01-01',
      provider_npi: '1234567893',
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error_code, 'MEMBER_NOT_FOUND');
  });
});

describe('the replay folder is read at each request', () => {
  let own: ProductionSetup;
  before(async () => {
    own = await startProduction({ replayDir: scratch, env: { COVERAGE_CACHE_TTL_MS: '0' } });
  });
  after(() => own.close());

  test('an answer changes between two checks when its file does; a 270 without an ID matches by name and DOB', async () => {
    const c = replayed.find((x) => x.name === 'specificity-a4-beats-98')!;
    const file = join(scratch, 'member.271');
    copyFileSync(new URL(`${c.name}.271`, CORPUS), file);
    const first = await own.server.post('/v1/estimate', estimateRequest(c, PAYER));
    assert.equal(first.status, 200);
    assert.equal(first.body.copayment, 1500);
    writeFileSync(file, readFileSync(file, 'latin1').replace('EB*B**A4***27*15*', 'EB*B**A4***27*35*'), 'latin1');
    const second = await own.server.post('/v1/estimate', estimateRequest(c, PAYER));
    assert.equal(second.body.copayment, 3500);
    const { member_first_name, member_last_name, member_dob } = c.expect.request;
    const third = await own.server.post('/v1/discover', { member_first_name, member_last_name, member_dob, zip: '62701', payer_id: PAYER });
    assert.equal(third.status, 200, JSON.stringify(third.body).slice(0, 300));
    assert.equal(third.body.demographics.member_id, c.expect.request.member_id);
  });

  test("the response's payer_id is the 271's NM109 only under NM108 PI; a tax ID (FI) names no payer ID, so the ID asked stands", async () => {
    const c = replayed.find((x) => x.name === 'specificity-a4-beats-98')!;
    const file = join(scratch, 'member.271');
    const text = readFileSync(new URL(`${c.name}.271`, CORPUS), 'latin1');
    const pi = /NM1\*PR\*2\*([^*~]*)\*\*\*\*\*PI\*([^*~]*)~/.exec(text)!;
    writeFileSync(file, text, 'latin1');
    const own271 = await own.server.post('/v1/estimate', estimateRequest(c, PAYER));
    assert.equal(own271.body.payer_id, pi[2]);
    writeFileSync(file, text.replace(pi[0], `NM1*PR*2*${pi[1]}*****FI*363456789~`), 'latin1');
    const taxId = await own.server.post('/v1/estimate', estimateRequest(c, PAYER));
    assert.equal(taxId.status, 200, JSON.stringify(taxId.body).slice(0, 300));
    assert.equal(taxId.body.payer_id, PAYER);
    assert.equal(taxId.body.copayment, own271.body.copayment);
  });
});

test('simulate-payer --replay refuses a folder that does not exist', async () => {
  await assert.rejects(
    runSimulatePayer({ port: '0', host: '127.0.0.1', latencyMs: '0', extraPayers: '0', protocol: 'mixed', replay: join(tmpdir(), 'no-such-replay-folder-14') }),
    /--replay: no such folder/,
  );
});

test('--replay reads recorded 271s whatever their file name (.x12, .edi), and skips files that hold none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-replay-names-'));
  try {
    writeFileSync(join(dir, 'a-notes.txt'), 'not X12');
    copyFileSync(new URL('../../examples/sample-271.x12', import.meta.url), join(dir, 'b-answer.x12'));
    const person = { member_id: '10010MHNA', first_name: null, last_name: null, dob: null, zip: null };
    const inquiry: Inquiry = {
      trace_number: 'T1',
      payer: { id: PAYER, name: null },
      provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: null },
      subscriber: person,
      dependent: null,
      service_types: ['30'],
      date: TEST_TODAY,
    };
    assert.match(findRecorded(dir, inquiry) ?? '', /NM1\*IL\*1\*WALSH\*AVERY/);
    assert.equal(findRecorded(dir, { ...inquiry, subscriber: { ...person, member_id: 'NOSUCH1' } }), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
