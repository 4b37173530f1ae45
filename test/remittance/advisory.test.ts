/**
 * Feedback at the desk (docs/remittances.md): the last three remittance lines of a payer and group
 * that disagree the same way with the eligibility answer put a REMITTANCE_MISMATCH alert on the next
 * estimate, citing them; the estimate's figures are the payer's with or without it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { EstimateResponse } from '../../src/domain/schemas/responses.ts';
import { runEstimate } from '../../src/operations/estimate.ts';
import { ADVISORY_DAYS, ADVISORY_LINES, remittanceAdvisories, type Observation } from '../../src/operations/remittance/advisory.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import { claimOf, PR, remittance835, serviceLine } from '../helpers/remittance-835.ts';
import { onDay } from '../helpers/clock.ts';
import { VALID_NPI } from '../helpers/requests.ts';
import { startTestServer, TEST_TODAY, type TestServer } from '../helpers/server.ts';

const AVERY = { member_id: '10010MHNA', member_first_name: 'Avery', member_last_name: 'Walsh', member_dob: '1988-03-14' };
const x12 = { 'content-type': 'application/edi-x12' };

let t = Date.parse('2026-12-01T09:00:00Z');
let server: TestServer;
before(async () => {
  // Each call a minute later: the remittances are received in order.
  server = await startTestServer({ now: () => new Date((t += 60_000)) });
});
after(() => server.close());

async function estimate(extra: Record<string, unknown> = {}) {
  const r = await server.post('/v1/estimate', { ...AVERY, provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837', ...extra });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as EstimateResponse;
}

/** A remittance of Avery's session with the copay the payer took. */
async function remit(payerId: string, copay: number) {
  const file = remittance835(payerId, [claimOf(`C${copay}`, AVERY, [serviceLine('90837', 15000, 15000 - copay, [PR('3', copay)], 15000)])]);
  const r = await server.post('/v1/remittances', file, x12);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body as { id: string; created_at: string; lines: { comparison: { verdict: string } }[] };
}

/** Every field of the answer but its alerts (and the explanation that words them): the figures the payer's answer gave. */
const figures = ({ alerts: _a, explanation: _e, ...rest }: EstimateResponse) => rest;

test('a $40 copay taken three times where the 271 says $30: the next estimate carries the advisory, its figures unchanged', async () => {
  const first = await estimate();
  assert.equal(first.copayment, 3000);
  assert.ok(first.group_id, 'the sandbox plan has a group');
  assert.ok(!first.alerts.some((a) => a.code === 'REMITTANCE_MISMATCH'));

  const rems: Awaited<ReturnType<typeof remit>>[] = [];
  for (let i = 0; i < ADVISORY_LINES; i++) {
    rems.push(await remit(first.payer_id, 4000));
    const now = await estimate();
    const advisory = now.alerts.find((a) => a.code === 'REMITTANCE_MISMATCH');
    // Fewer than three lines say nothing; the third makes it.
    assert.equal(Boolean(advisory), i === ADVISORY_LINES - 1, JSON.stringify(now.alerts));
    assert.deepEqual(figures(now), figures(first));
  }
  const now = await estimate({ explain: true });
  const advisory = now.alerts.find((a) => a.code === 'REMITTANCE_MISMATCH')!;
  assert.equal(advisory.benefit, 'copay');
  assert.match(advisory.message, /^The payer's last 3 remittances for this group took a \$40\.00 copay where its eligibility answer says \$30\.00/);
  // Newest first; each cited by id, line, the day received and the two amounts.
  assert.deepEqual(
    advisory.remittances,
    rems.reverse().map((r) => ({ remittance_id: r.id, line: 1, received: r.created_at.slice(0, 10), paid: 4000, estimated: 3000 })),
  );
  for (const r of rems) assert.ok(advisory.message.includes(`${r.id} line 1`));
  // No member data in it: neither the member ID nor the name.
  assert.doesNotMatch(JSON.stringify(advisory), /10010MHNA|avery|walsh/i);
  assert.equal(now.copayment, 3000);
  assert.equal(now.member_obligation, first.member_obligation);
  assert.ok(now.explanation!.obligation.some((s) => s.startsWith('Advisory, not applied: ') && s.includes(rems[0]!.id)));

  // One remittance that agrees with the 271 breaks the run: the last three no longer disagree the same way.
  await remit(first.payer_id, 3000);
  assert.ok(!(await estimate()).alerts.some((a) => a.code === 'REMITTANCE_MISMATCH'));
  // Three different copays disagree, but not the same way.
  await remit(first.payer_id, 4000);
  await remit(first.payer_id, 4500);
  assert.ok(!(await estimate()).alerts.some((a) => a.code === 'REMITTANCE_MISMATCH'));
});

const obs = (o: Partial<Observation> & Pick<Observation, 'remittance_id' | 'created_at'>): Observation => ({
  line_no: 1,
  copay_said: 3000,
  copay_estimated: 3000,
  copay_paid: 3000,
  coinsurance_said: null,
  coinsurance_estimated: null,
  coinsurance_paid: null,
  deductible_estimated: 0,
  deductible_paid: 0,
  ...o,
});

test('the rule: three lines, the same copay taken, within the days counted, per group', () => {
  const now = new Date('2026-12-06T12:00:00Z');
  const target = { group_id: 'G1', copayment: 3000, coinsurance: null };
  const forty = (n: number, days: number) =>
    obs({ remittance_id: `rem_${n}`, created_at: new Date(now.getTime() - days * 86_400_000).toISOString(), copay_paid: 4000 });
  assert.equal(remittanceAdvisories(target, [forty(1, 1), forty(2, 2), forty(3, 3)], now).length, 1);
  // A line older than the days counted does not count.
  assert.equal(remittanceAdvisories(target, [forty(1, 1), forty(2, 2), forty(3, ADVISORY_DAYS + 1)], now).length, 0);
  // Without a group there is no plan to speak of.
  assert.equal(remittanceAdvisories({ ...target, group_id: null }, [forty(1, 1), forty(2, 2), forty(3, 3)], now).length, 0);
  // Another copay said (the 271 changed since): those lines are not about this one.
  assert.equal(remittanceAdvisories({ ...target, copayment: 2500 }, [forty(1, 1), forty(2, 2), forty(3, 3)], now).length, 0);
  // Coinsurance: taken more than the estimate three times beyond a dollar.
  const co = (n: number, paid: number) =>
    obs({
      remittance_id: `rem_${n}`,
      created_at: new Date(now.getTime() - n * 86_400_000).toISOString(),
      copay_said: null,
      copay_estimated: 0,
      copay_paid: 0,
      coinsurance_said: 200_000,
      coinsurance_estimated: 3000,
      coinsurance_paid: paid,
    });
  const coTarget = { group_id: 'G1', copayment: null, coinsurance: 20 };
  assert.deepEqual(
    remittanceAdvisories(coTarget, [co(1, 4500), co(2, 4600), co(3, 4400)], now).map((a) => a.benefit),
    ['coinsurance'],
  );
  assert.equal(remittanceAdvisories(coTarget, [co(1, 4500), co(2, 3050), co(3, 4400)], now).length, 0, 'within a dollar agrees');
  assert.equal(remittanceAdvisories(coTarget, [co(1, 4500), co(2, 2000), co(3, 4400)], now).length, 0, 'less once is not the same way');
});

test('property: an estimate answered with advisories has the same figures as without, whatever the remittances said', async () => {
  const clock = onDay(TEST_TODAY);
  const network = new SandboxNetwork({ clock });
  const deps = { network, clock, payerTimeoutMs: 5_000, scanTimeoutMs: 5_000 };
  const request = { ...AVERY, payer_id: 'SBX-EVERGREEN', provider_npi: VALID_NPI, provider_session_cost: 15000, procedure_code: '90837' };
  const owner = { key_id: 'key_1', surface: 'api' as const };
  const plain = await runEstimate(deps, request, { request_id: 'r0', owner });
  const now = new Date('2026-12-06T12:00:00Z');
  const amount = fc.oneof(fc.constant(3000), fc.constant(4000), fc.integer({ min: 0, max: 20_000 }));
  const observation = fc.record({
    line_no: fc.integer({ min: 1, max: 9 }),
    days: fc.integer({ min: 0, max: 120 }),
    copay_said: fc.oneof(fc.constant(3000), fc.constant(null)),
    copay_estimated: fc.oneof(fc.constant(3000), amount),
    copay_paid: amount,
    coinsurance_said: fc.oneof(fc.constant(null), fc.constant(200_000)),
    coinsurance_estimated: fc.option(amount),
    coinsurance_paid: fc.option(amount),
    deductible_estimated: fc.option(amount),
    deductible_paid: fc.option(amount),
  });
  let advised = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(observation, { maxLength: 8 }), async (list) => {
      const observations = list
        .map(({ days, ...o }, i) => ({ ...o, remittance_id: `rem_${i}`, created_at: new Date(now.getTime() - days * 86_400_000).toISOString() }))
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
      const withAdvice = {
        ...deps,
        remittanceAdvice: async (_o: unknown, body: EstimateResponse) =>
          remittanceAdvisories({ group_id: body.group_id, copayment: body.copayment, coinsurance: body.coinsurance }, observations, now),
      };
      const r = await runEstimate(withAdvice, request, { request_id: 'r1', owner });
      const added = r.body.alerts.filter((a) => a.code === 'REMITTANCE_MISMATCH');
      advised += added.length > 0 ? 1 : 0;
      assert.equal(r.status, plain.status);
      assert.deepEqual(figures(r.body), figures(plain.body));
      assert.deepEqual(
        r.body.alerts.filter((a) => a.code !== 'REMITTANCE_MISMATCH'),
        plain.body.alerts,
      );
    }),
    { numRuns: 150, seed: 41 },
  );
  assert.ok(advised > 0, 'some runs carried an advisory');
});
