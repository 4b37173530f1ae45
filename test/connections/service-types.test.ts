/**
 * Service types per inquiry (docs/going-live.md, "Service types"): a route's plan is sent one entry at
 * a time, the next entry only when the answer says nothing of behavioral health; the sandbox, which
 * has no routes, asks its list in one 270 as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { askPayer } from '../../src/operations/ask-payer.ts';
import type { OperationDeps } from '../../src/operations/context.ts';
import { lacksBehavioralDetail, serviceTypesFor } from '../../src/operations/service-types.ts';
import { DEFAULT_SERVICE_TYPES } from '../../src/payers/connections.ts';
import { PayerError, type PayerNetwork, type RouteEnvelope } from '../../src/payers/network.ts';
import { parse270 } from '../../src/x12/index.ts';
import { SegmentList, wrapInterchange } from '../../src/x12/writer.ts';
import { onDay } from '../helpers/clock.ts';

const inquiry: Inquiry = {
  trace_number: 'TRACE42',
  payer: { id: 'PAYER', name: null },
  provider: { npi: '1999999984', first_name: null, last_name: null, organization_name: 'CLINIC' },
  subscriber: { member_id: 'M1', first_name: 'A', last_name: 'B', dob: '1990-01-01', zip: null },
  dependent: null,
  service_types: ['MH', 'CF', 'A6', 'A8', '30', '98'],
  date: '2026-06-15',
};

/** A 271 to `trace` whose EBs cover `types` (an MH copay when MH is among them). */
function answer(trace: string, types: string[], options: { reject?: boolean } = {}): string {
  const list = new SegmentList();
  list.add('BHT', '0022', '11', trace, '20260615', '1200');
  list.add('HL', '1', '', '20', '1');
  list.add('NM1', 'PR', '2', 'PAYER', '', '', '', '', 'PI', 'PAYER');
  list.add('HL', '2', '1', '21', '1');
  list.add('NM1', '1P', '2', 'CLINIC', '', '', '', '', 'XX', '1999999984');
  list.add('HL', '3', '2', '22', '0');
  list.add('TRN', '2', trace, '9COVERAGE');
  list.add('NM1', 'IL', '1', 'B', 'A', '', '', '', 'MI', 'M1');
  if (options.reject) list.add('AAA', 'N', '', '75', 'C');
  else {
    list.add('EB', '1', '', list.repeat(types), 'C1', 'GOLD');
    if (types.includes('MH')) list.add('EB', 'B', 'IND', 'MH', '', '', '27', '25', '', '', '', '', 'Y');
    if (types.includes('30')) list.add('EB', 'C', 'IND', '30', '', '', '23', '500', '', '', '', '', 'Y');
  }
  return wrapInterchange({ functional_id: 'HB', set_id: '271', version: '005010X279A1', body: list, sender: 'PAYER', receiver: 'US', env: { usage: 'P' } });
}

/** A production-like network with one route: `reply` answers each 270 from its EQ codes. */
function network(plan: RouteEnvelope['service_types'], reply: (types: string[], trace: string) => string | Error) {
  const asked: string[][] = [];
  const traces: string[] = [];
  const net: PayerNetwork = {
    mode: 'production',
    anyPayerId: null,
    payers: () => [],
    payer: () => undefined,
    providerName: () => null,
    canonicalId: () => undefined,
    interchange: () => undefined,
    async inquire(payerId, build) {
      const route: RouteEnvelope = {
        sender_id: 'US',
        receiver_id: 'PAYER',
        usage: 'P',
        payer_id: payerId,
        connection: 'c',
        ...(plan ? { service_types: plan } : {}),
      };
      const sent = parse270(build(route));
      assert.ok(sent.ok);
      asked.push(sent.value.service_types);
      traces.push(sent.value.trace_number);
      const out = reply(sent.value.service_types, sent.value.trace_number);
      if (out instanceof Error) throw out;
      return { x12: out, route: 'c' };
    },
    exchange: () => Promise.reject(new Error('not used')),
    close: () => Promise.resolve(),
  };
  const deps: OperationDeps = { network: net, clock: onDay('2026-06-15'), payerTimeoutMs: 5000, scanTimeoutMs: 5000 };
  return { deps, asked, traces };
}

test('the default plan asks MH alone; an answer with MH benefits ends it', async () => {
  const { deps, asked } = network(DEFAULT_SERVICE_TYPES, (types, trace) => answer(trace, types));
  const result = await askPayer(deps, inquiry, { request_id: 'r' });
  assert.deepEqual(asked, [['MH']]);
  assert.equal(result.coverage.in_network?.copayment, 2500);
});

test('an MH answer without behavioral-health benefits brings the second inquiry, 30, whose answer is read', async () => {
  // A payer that knows MH not at all: it answers plan level (30) whatever it is asked, with its deductible only when asked 30.
  const { deps, asked, traces } = network(DEFAULT_SERVICE_TYPES, (types, trace) => answer(trace, types.includes('30') ? ['30'] : ['AL']));
  const exchanges = new Map();
  const result = await askPayer(deps, inquiry, { request_id: 'r', exchanges });
  assert.deepEqual(asked, [['MH'], ['30']]);
  assert.equal(traces[0], inquiry.trace_number);
  assert.notEqual(traces[1], inquiry.trace_number, 'the follow-up is a 270 of its own, not a duplicate');
  assert.equal(exchanges.get('PAYER')?.trace_number, traces[1], 'the audit names the 270 answered');
  assert.equal(result.coverage.in_network?.deductible?.individual.total, 50000);
});

test('a rejection is not retried with other service types, and a failed second inquiry keeps the first answer', async () => {
  const rejected = network(DEFAULT_SERVICE_TYPES, (types, trace) => answer(trace, types, { reject: true }));
  await assert.rejects(askPayer(rejected.deps, inquiry, { request_id: 'r' }), { code: 'MEMBER_NOT_FOUND' });
  assert.deepEqual(rejected.asked, [['MH']]);
  const failing = network(DEFAULT_SERVICE_TYPES, (types, trace) => (types.includes('30') ? new PayerError('failure', 'c', 'HTTP 500') : answer(trace, ['UC'])));
  const result = await askPayer(failing.deps, inquiry, { request_id: 'r' });
  assert.deepEqual(failing.asked, [['MH'], ['30']]);
  // The first answer's only status row is for urgent care (UC), no limited program's: it states no status for the
  // session (docs/estimates.md 1.1; a vision-only answer would be a limited program's, "Limited programs").
  assert.equal(result.coverage.plan_name, 'GOLD');
  assert.equal(result.coverage.coverage_status, 'unknown');
});

test('a one-entry plan is one inquiry, several codes in it when configured', async () => {
  const { deps, asked } = network([['MH', '30']], (_types, trace) => answer(trace, ['AL']));
  await askPayer(deps, inquiry, { request_id: 'r' });
  assert.deepEqual(asked, [['MH', '30']]);
});

test('without a plan (the sandbox shape) the inquiry asks its own list in one 270', async () => {
  const { deps, asked } = network(undefined, (types, trace) => answer(trace, types));
  await askPayer(deps, inquiry, { request_id: 'r' });
  assert.deepEqual(asked, [inquiry.service_types]);
});

test('serviceTypesFor: the plan entry of the step, its last entry past the end', () => {
  const route = (plan: string[][]): RouteEnvelope => ({ sender_id: 'a', receiver_id: 'b', usage: 'P', payer_id: 'p', connection: 'c', service_types: plan });
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.constantFrom('MH', '30', 'A6', 'CF', '98'), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      fc.nat(6),
      (plan, step) => {
        assert.deepEqual(serviceTypesFor(route(plan), step, inquiry), plan[Math.min(step, plan.length - 1)]);
      },
    ),
  );
});

test('lacksBehavioralDetail: benefits but none for MH, CF, A4, A6, A7, A8 or AI', () => {
  assert.equal(lacksBehavioralDetail(answer('T', ['30'])), true);
  assert.equal(lacksBehavioralDetail(answer('T', ['98'])), true, '98 is a fallback, not behavioral health itself');
  for (const code of ['MH', 'CF', 'A4', 'A6', 'A7', 'A8', 'AI']) assert.equal(lacksBehavioralDetail(answer('T', ['30', code])), false, code);
  assert.equal(lacksBehavioralDetail(answer('T', ['MH'], { reject: true })), false, 'a rejection has nothing to add to');
  assert.equal(lacksBehavioralDetail('not x12'), false);
});
