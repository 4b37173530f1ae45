/** `coverage normalize FILE --session-cost CENTS`: the estimate of a raw 271 and where each figure came from. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runNormalize } from '../../src/cli/normalize.ts';
import { normalize271, type TraceEntry } from '../../src/x12/index.ts';
import { corpus, CORPUS } from './corpus.ts';

async function explain(name: string, inNetwork = true) {
  let stdout = '';
  const code = await runNormalize(
    fileURLToPath(new URL(`${name}.271`, CORPUS)),
    { stdout: (s) => (stdout += s), stderr: () => {} },
    { sessionCost: 15000, inNetwork, today: '2026-06-15' },
  );
  assert.equal(code, 0);
  return JSON.parse(stdout) as { estimate: { status: number; body: Record<string, unknown> }; explanation: { benefits: TraceEntry[]; obligation: string[] } };
}

const entry = (benefits: TraceEntry[], figure: string) => benefits.find((e) => e.figure === figure && (e.network === 'in' || e.network === null));

test('the copay names its EB and rule; the missing coinsurance says why the plan-level one is not used', async () => {
  const out = await explain('specificity-mh-copay-beats-plan-coinsurance');
  assert.equal(out.estimate.body.member_obligation, 3000);
  const copay = entry(out.explanation.benefits, 'copayment')!;
  assert.equal(copay.eb, 'EB*B**MH***27*30*****Y');
  assert.equal(copay.segment, 19, 'ISA is segment 1');
  assert.match(copay.rule, /most specific service type with a cost share: MH/);
  assert.match(entry(out.explanation.benefits, 'coinsurance')!.rule, /less specific coinsurance is never added/);
  assert.match(out.explanation.obligation.at(-1)!, /member pays \$30\.00, payer \$120\.00/);
});

test('the deductible: the MSG that makes the copay wait, and the EBs of the amounts', async () => {
  const out = await explain('deductible-msg-applies-to-copay');
  assert.match(entry(out.explanation.benefits, 'deductible applies: yes')!.rule, /COPAY APPLIES AFTER DEDUCTIBLE IS MET/);
  assert.equal(entry(out.explanation.benefits, 'deductible individual remaining')!.eb, 'EB*C*IND*30***29*100*****Y');
  assert.ok(out.explanation.obligation.some((s) => /\$100\.00 remains/.test(s)));
  const plain = await explain('deductible-plan-level-does-not-hold-office-copay');
  assert.match(entry(plain.explanation.benefits, 'deductible applies: no')!.rule, /less specific service type/);
});

test('rules without a single EB: QMB, Part B, not covered, carve-out', async () => {
  assert.ok((await explain('qmb-eb04-qm')).explanation.obligation[0]!.startsWith('QMB'));
  assert.ok((await explain('medicare-part-a-only')).explanation.benefits.some((e) => /Part B service/.test(e.rule)));
  assert.equal(entry((await explain('not-covered-in-network')).explanation.benefits, 'not covered')!.eb, 'EB*I**MH*********Y');
  const carve = await explain('carve-out-pr-payer');
  assert.equal(carve.estimate.status, 206);
  assert.ok(carve.explanation.benefits.some((e) => e.figure === 'carve-out'));
});

test('collecting the explanation never changes what is read', () => {
  for (const c of corpus()) {
    const plain = normalize271(c.text);
    const traced = normalize271(c.text, { trace: [] });
    assert.deepEqual(traced, plain, c.name);
  }
  assert.equal(readFileSync(new URL('specificity-a4-beats-98.271', CORPUS), 'latin1').includes('EB*B**A4'), true);
});

test('each benefit entry names the EB elements a reader checks: service type, coverage level, place of service, time period', async () => {
  const out = await explain('deductible-msg-applies-to-copay');
  const remaining = entry(out.explanation.benefits, 'deductible individual remaining')!;
  assert.deepEqual(
    {
      service_type: remaining.service_type,
      coverage_level: remaining.coverage_level,
      time_period: remaining.time_period,
      place_of_service: remaining.place_of_service,
    },
    { service_type: '30', coverage_level: 'IND', time_period: '29', place_of_service: null },
  );
  const rule = entry(out.explanation.benefits, 'insurance type: commercial') ?? out.explanation.benefits.find((e) => e.figure.startsWith('insurance type'))!;
  assert.equal(rule.segment, null);
  assert.equal(rule.service_type, null);
  const office = await explain('place-office-not-inpatient');
  assert.equal(entry(office.explanation.benefits, 'copayment')!.place_of_service, '11');
});

test('an ambiguous deductible keeps the other reading, with what the member would pay under it', async () => {
  // No MSG: the plan-level deductible does not hold the 98 copay ($25); read the other way the $150 session goes to the $2,000 deductible.
  const plain = await explain('deductible-plan-level-does-not-hold-office-copay');
  const applies = entry(plain.explanation.benefits, 'deductible applies: no')!;
  assert.match(applies.alternative!, /member would pay \$150\.00 instead of \$25\.00$/);
  assert.ok(plain.explanation.obligation.some((s) => /read the other way, the member would pay \$150\.00/.test(s)));
  // No MSG either, but the deductible is stated for the copay's own service type: applies, and the other reading is the copay alone.
  const same = await explain('deductible-same-service-type-as-copay');
  assert.match(entry(same.explanation.benefits, 'deductible applies: yes')!.alternative!, /instead of/);
  // The payer's own MSG in the benefit is not ambiguous.
  const said = await explain('deductible-msg-applies-to-copay');
  assert.equal(entry(said.explanation.benefits, 'deductible applies: yes')!.alternative, undefined);
});

test('a cost share from the office visit (98) or the plan (30) is named as the fallback, with its order', async () => {
  const office = await explain('specificity-office-98-beats-plan-30');
  assert.match(
    entry(office.explanation.benefits, 'copayment')!.rule,
    /fallback: no behavioral-health cost share; order MH, then CF\/A4\/A6\/A8\/AI, then the office visit 98, then the plan 30/,
  );
  const mh = await explain('specificity-mh-copay-beats-plan-coinsurance');
  assert.doesNotMatch(entry(mh.explanation.benefits, 'copayment')!.rule, /fallback/);
});

test("the payer directory's fallback order (30-then-98) puts the plan's cost share before the office visit's, and says so", () => {
  const text = readFileSync(new URL('specificity-office-98-beats-plan-30.271', CORPUS), 'latin1');
  const read = (fallback?: '30-then-98') => {
    const trace: TraceEntry[] = [];
    const r = normalize271(text, {
      trace,
      encounter: { date_of_service: '2026-06-15', procedure_code: null, place_of_service: '11' },
      ...(fallback ? { fallback } : {}),
    });
    assert.ok(r.ok && r.value.kind === 'coverage');
    return { network: r.value.coverage.in_network!, trace };
  };
  const usual = read();
  assert.deepEqual([usual.network.copayment, usual.network.coinsurance], [2500, null]);
  const planFirst = read('30-then-98');
  assert.deepEqual([planFirst.network.copayment, planFirst.network.coinsurance], [null, 20]);
  assert.match(
    planFirst.trace.find((e) => e.figure === 'coinsurance' && e.network === 'in')!.rule,
    /the plan 30, then the office visit 98 \(the payer directory's order\)/,
  );
});
