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

const PLAIN = { providerNamed: false, network: null } as const;
const NAMED = { providerNamed: true, network: null } as const;

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
  assert.deepEqual(undecidedWords('DESIGNATED BEHAVIORAL HEALTH PROVIDER', NAMED), []);
  assert.deepEqual(undecidedWords('TIER 1 PROVIDER', NAMED), []);
  assert.deepEqual(undecidedWords('OTHERWISE COINSURANCE APPLIES', NAMED), ['OTHERWISE']);
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
const CONDITIONS = [
  'WHEN RENDERED BY A TIER 1 PROVIDER',
  'OTHERWISE',
  'UNLESS DESIGNATED',
  'VARIES BY SPECIALTY',
  'IF ELECTED BY THE GROUP',
  'MEMBER PAYS 35%',
  'AND DEDUCTIBLE MAY APPLY',
];
/** Informational text: classes only. */
const INFORMATIONAL = [
  'OUTPATIENT MENTAL HEALTH OFFICE VISIT',
  'PRIOR AUTHORIZATION REQUIRED',
  'CALL 800-555-0100',
  'IN-NETWORK PROVIDERS',
  'NOT A GUARANTEE OF PAYMENT',
  'NON-PARTICIPATING PROVIDERS MAY BALANCE BILL THE MEMBER',
  'SUBMIT CLAIMS TO PO BOX 1200 DAYTON OH 45401',
  'MEMBER MAY SELF-REFER',
  'DEPENDENTS COVERED TO AGE 26',
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

test('271-review-9: general notices payers send on a cost-share row are read; conditions beside them are not', () => {
  const read = [
    // balance billing (05)
    'NON-PARTICIPATING PROVIDERS MAY BILL THE MEMBER FOR AMOUNTS ABOVE THE ALLOWED AMOUNT',
    'OUT OF NETWORK PROVIDERS MAY BALANCE BILL',
    // frequency and the service named (06, 55)
    'CRISIS PSYCHOTHERAPY COPAY APPLIES ONCE PER 24 HOURS',
    'NO COPAY AT COMMUNITY MENTAL HEALTH CENTERS',
    // program and category names (10, 15, 41's kind)
    'NETWORK PROVIDER COPAYMENT ACTIVE DUTY FAMILY MEMBER',
    'DEDUCTIBLE DOES NOT APPLY TO TELEHEALTH SERVICES (HSA SAFE HARBOR)',
    'BLUECARD PROGRAM MEMBER. SUBMIT CLAIMS TO THE LOCAL BLUE PLAN',
    // referral and review (12, 18, 41)
    'MEMBER MAY SELF-REFER TO NETWORK BEHAVIORAL HEALTH PROVIDERS',
    'REFERRAL ON FILE',
    'SERVICES ARE SUBJECT TO MEDICAL NECESSITY REVIEW',
    // claims address (18) and dependent eligibility (24)
    'SUBMIT CLAIMS TO PO BOX 4471 SPRINGFIELD IL 62705',
    'DEPENDENT CHILD COVERED TO AGE 26',
  ];
  for (const t of read) assert.deepEqual(undecidedWords(t), [], t);
  const unread: [string, string[]][] = [
    // "may" conditions what follows unless a notice's own phrase reads it (50)
    ['DEDUCTIBLE MAY APPLY', ['MAY']],
    ['COPAY MAY VARY', ['MAY', 'VARY']],
    // a condition beside a notice stays undecided
    ['MEMBER MAY SELF-REFER WHEN TIER 1 PROVIDER', ['WHEN', 'TIER']],
    ['SUBMIT CLAIMS TO PO BOX 4471 UNLESS OTHERWISE NOTED', ['PO', 'BOX', 'UNLESS', 'OTHERWISE', 'NOTED']],
  ];
  for (const [t, words] of unread) assert.deepEqual(undecidedWords(t), words, t);
});

test("271-review-9 17: a figure in the words that contradicts the rows' is undecided, never read as a figure", () => {
  const own = { amounts: [30], percents: [20] };
  assert.deepEqual(undecidedWords('MEMBER PAYS 30% AFTER DEDUCTIBLE', PLAIN, own), ['30%']);
  assert.deepEqual(undecidedWords('MEMBER PAYS 20% AFTER DEDUCTIBLE', PLAIN, own), []);
  assert.deepEqual(undecidedWords('PLAN PAYS 80% AFTER DEDUCTIBLE', PLAIN, own), []);
  assert.deepEqual(undecidedWords('PLAN PAYS 70% AFTER DEDUCTIBLE', PLAIN, own), ['70%']);
  assert.deepEqual(undecidedWords('COPAY $40', PLAIN, own), ['$40']);
  assert.deepEqual(undecidedWords('COPAY $30', PLAIN, own), []);
  // The amount named before the copay (271-review-10 42, vendor-review-7 05), in the "after the copay" phrase too.
  assert.deepEqual(undecidedWords('THE $40 COPAY', PLAIN, own), ['$40']);
  assert.deepEqual(undecidedWords('20% COINSURANCE APPLIES TO THE BALANCE AFTER THE $40 COPAY', PLAIN, own), ['$40']);
  assert.deepEqual(undecidedWords('20% COINSURANCE APPLIES TO THE BALANCE AFTER THE $30 COPAY', PLAIN, own), []);
  // An amount that is not the member's share (an accumulator) stays a figure.
  assert.deepEqual(undecidedWords('DEDUCTIBLE $500 COUNTS TOWARD OUT OF POCKET', PLAIN, own), []);
  const e = priced(['EB*A*IND*MH***27**.2****Y', 'MSG*MEMBER PAYS 30% AFTER DEDUCTIBLE']);
  assert.equal(e.fields.member_obligation, null);
  assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
  assert.equal(priced(['EB*A*IND*MH***27**.2****Y', 'MSG*PLAN PAYS 80% AFTER DEDUCTIBLE']).fields.member_obligation, 3000);
});

test('271-review-9 50: "DEDUCTIBLE MAY APPLY" on a copay row: unknown, never the copay alone', () => {
  const e = priced(['EB*B*IND*MH***27*30*****Y', 'MSG*DEDUCTIBLE MAY APPLY', 'EB*C*IND*30***23*1500*****Y', 'EB*C*IND*30***29*400*****Y']);
  assert.equal(e.fields.member_obligation, null);
  assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
});

test('payer shorthand is read as the words it stands for (msg-abbreviations.json; 271-review-12, vendor-review-8)', () => {
  for (const text of [
    'BH OV COPAY AFTER DED',
    'MH/SA OP - 20% AFTER MH DED',
    'SPEC OV CO-PAY',
    'OP MENTAL HEALTH INDIV/GROUP',
    'BH OP svcs incl telehealth',
    'E/M VISIT',
  ])
    assert.deepEqual(undecidedWords(text), [], text);
  // "IN NETWORK ONLY" is what EB12 Y codes; on a row for both networks it limits the share, which no rule reads there.
  assert.deepEqual(undecidedWords('Ov Copay - Inn only', { providerNamed: false, network: 'in' }), []);
  assert.deepEqual(undecidedWords('Ov Copay - Inn only', PLAIN), ['ONLY']);
  assert.deepEqual(undecidedWords('Ov Copay - Inn only', { providerNamed: false, network: 'out' }), ['ONLY']);
  assert.deepEqual(undecidedWords('NON-PPO PROVIDER - 35% OF PLAN ALLOWANCE', PLAIN, { amounts: [], percents: [35] }), []);
  // A typo or a brand is no abbreviation: still undecided.
  assert.deepEqual(undecidedWords('COPAYMNET'), ['COPAYMNET']);
});

test('"AFTER DED" is the deductible applying, as "AFTER DEDUCTIBLE" (the share waits for it)', () => {
  const withDeductible = (msg: string) =>
    priced(['EB*A*IND*MH***27**.2****Y', `MSG*${msg}`, 'EB*C*IND*30***23*1000*****Y', 'EB*C*IND*30***29*50*****Y']).fields.member_obligation;
  assert.equal(withDeductible('COINS AFTER DED'), withDeductible('COINSURANCE AFTER DEDUCTIBLE'));
  assert.equal(withDeductible('COINS AFTER DED'), 7000);
});

test('words relating a copay to a coinsurance the group does not state leave the share unknown (271-review-9 58)', () => {
  const e = priced(['EB*B*IND*MH***27*50*****Y', 'MSG*PLUS COINSURANCE AFTER DEDUCTIBLE', 'EB*C*IND*30***29*0*****Y']);
  assert.equal(e.fields.member_obligation, null);
  assert.equal(e.partial, 'UNKNOWN_COSTSHARE');
});
