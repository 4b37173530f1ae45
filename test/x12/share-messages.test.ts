/**
 * The closed world for MSG on the cost-share rows that compete for the session's figure (share-messages.json;
 * docs/estimates.md 1.1, "Closed world for MSG on cost shares"): an MSG whose every word a rule reads or an
 * informational class holds leaves the share as stated; a word relating or conditioning the share that no rule
 * decides ("WHEN ... TIER 1 PROVIDER", "OTHERWISE") leaves it unknown (206), never stacked or charged as stated.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimate } from '../../src/domain/estimate/index.ts';
import { undecidedWords } from '../../src/x12/benefits/share-messages.ts';
import TABLE from '../../src/x12/benefits/share-messages.json' with { type: 'json' };
import { normalize271 } from '../../src/x12/index.ts';
import { body271, interchange } from './x12-fixtures.ts';

const C = 15000;
const DOS = '2025-03-03';

function priced(rows: string[]) {
  const r = normalize271(interchange('271', body271(['DTP*346*D8*20250101', 'EB*1**30', ...rows])), {
    encounter: { date_of_service: DOS, procedure_code: '90837', place_of_service: '11' },
  });
  assert.ok(r.ok && r.value.kind === 'coverage');
  return estimate(r.value.coverage, { session_cost: C, in_network: true, date_of_service: DOS });
}

test('every informational class and statement has its rule', () => {
  for (const c of [...TABLE.classes, ...TABLE.statements]) assert.ok(c.rule.length > 30, c.id);
});

test('words of informational classes and of statements a rule decides are read; conditions no rule decides are not', () => {
  const read = [
    'OUTPATIENT BEHAVIORAL HEALTH OFFICE VISIT',
    'COINSURANCE SHOWN APPLIES TO IN-NETWORK PROVIDERS',
    'DEDUCTIBLE AND OUT OF POCKET AMOUNTS ARE AS OF 11/01/2026',
    'COPAYS AND COINSURANCE ACCUMULATE TOWARD THE OUT OF POCKET MAXIMUM',
    'ONE COPAY PER DAY REGARDLESS OF NUMBER OF SERVICES',
    'TELEHEALTH FROM A FACILITY ORIGINATING SITE',
    'DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY',
    'COPAY OR COINSURANCE, WHICHEVER IS GREATER',
    'COINSURANCE APPLIES AFTER COPAY',
    'PRIOR AUTHORIZATION REQUIRED AFTER 6 VISITS',
    'FOR BENEFIT QUESTIONS CALL 800-555-0142',
  ];
  for (const t of read) assert.deepEqual(undecidedWords(t), [], t);
  const unread: [string, string[]][] = [
    ['COPAY APPLIES WHEN SERVICES ARE RENDERED BY A TIER 1 PROVIDER', ['WHEN', 'RENDERED', 'TIER']],
    ['OTHERWISE COINSURANCE APPLIES', ['OTHERWISE']],
    ['COPAY VARIES BY PROVIDER SPECIALTY', ['VARIES', 'SPECIALTY']],
    ['DESIGNATED BEHAVIORAL HEALTH PROVIDER', ['DESIGNATED']],
  ];
  for (const [t, words] of unread) assert.deepEqual(undecidedWords(t), words, t);
  // On a row naming its provider in 2120C, the provider's kind or tier is what the loop codes (271-review-6 19, 20, 35).
  assert.deepEqual(undecidedWords('DESIGNATED BEHAVIORAL HEALTH PROVIDER', true), []);
  assert.deepEqual(undecidedWords('TIER 1 PROVIDER', true), []);
  assert.deepEqual(undecidedWords('OTHERWISE COINSURANCE APPLIES', true), ['OTHERWISE']);
});

test('271-review-8/41: a copay for tier 1 providers, otherwise coinsurance: unknown, never stacked', () => {
  const e = priced([
    'EB*B*IND*MH***27*25*****Y',
    'MSG*COPAY APPLIES WHEN SERVICES ARE RENDERED BY A TIER 1 PROVIDER',
    'EB*A*IND*MH*****.3****Y',
    'MSG*OTHERWISE COINSURANCE APPLIES',
  ]);
  assert.equal(e.fields.member_obligation, null);
  assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
});

/** Words that condition or relate a share, none of them in a class or a statement with a rule. */
const CONDITIONS = ['WHEN RENDERED BY A TIER 1 PROVIDER', 'OTHERWISE', 'UNLESS DESIGNATED', 'VARIES BY SPECIALTY', 'IF ELECTED BY THE GROUP'];
/** Informational text: classes only. */
const INFORMATIONAL = [
  'OUTPATIENT MENTAL HEALTH OFFICE VISIT',
  'PRIOR AUTHORIZATION REQUIRED',
  'CALL 800-555-0100',
  'IN-NETWORK PROVIDERS',
  'NOT A GUARANTEE OF PAYMENT',
];

test('on a competing copay or coinsurance row, informational MSG never changes the price; a condition no rule decides makes it unknown', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('copay', 'coinsurance', 'both'),
      fc.integer({ min: 5, max: 60 }),
      fc.constantFrom(...INFORMATIONAL),
      fc.constantFrom(...CONDITIONS),
      fc.boolean(),
      (shares, copay, info, condition, onFirst) => {
        const rows = [
          ...(shares !== 'coinsurance' ? [[`EB*B*IND*MH***27*${copay}*****Y`]] : []),
          ...(shares !== 'copay' ? [['EB*A*IND*MH*****.2****Y']] : []),
          ['EB*B*IND*98***27*99*****Y', 'MSG*WHEN RENDERED BY A TIER 2 PROVIDER'],
        ];
        const base = priced(rows.flat());
        assert.notEqual(base.fields.member_obligation, null);
        const at = onFirst ? 0 : rows.length - 2;
        const withMsg = (text: string) => rows.map((r, i) => (i === at ? [...r, `MSG*${text}`] : r)).flat();
        assert.equal(priced(withMsg(info)).fields.member_obligation, base.fields.member_obligation, info);
        const e = priced(withMsg(`COPAY APPLIES ${condition}`));
        assert.equal(e.fields.member_obligation, null, condition);
        assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
      },
    ),
    { numRuns: 120 },
  );
});
