/**
 * The 835 reader (src/x12/remittance): the read-back property with our writer, its code tables
 * against the TR3's code lists (005010X221A1), pyx12's public sample (test/fixtures/pyx12-835, BSD), the member's
 * share by kind, balancing warnings and errors that name the segment.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { LISTED } from '../../src/x12/remittance/codes.ts';
import { readRemittances } from '../../src/x12/remittance/read-835.ts';
import { lineDate, memberShareOf } from '../../src/x12/remittance/shares.ts';
import type { Adjustment, Claim, Person, Procedure, Remittance, ServiceLine } from '../../src/x12/remittance/types.ts';
import { write835 } from '../../src/x12/remittance/write-835.ts';
import { claimStatusOf } from '../../src/x12/remittance/codes.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pyx12-835/${name}`, import.meta.url), 'utf8');

/**
 * The code values the TR3 (ASC X12N 005010X221A1) lists for these elements: CLP02 (Claim Status Code),
 * CAS01 (Claim Adjustment Group Code) and PLB03-1 (Adjustment Reason Code of the provider adjustment).
 */
const TR3_CODES = {
  CLP02: ['1', '2', '3', '4', '19', '20', '21', '22', '23', '25'],
  CAS01: ['CO', 'OA', 'PI', 'PR'],
  'PLB03-1': [
    ...['50', '51', '72', '90', 'AH', 'AM', 'AP', 'B2', 'B3', 'BD', 'BN', 'C5', 'CR', 'CS', 'CT', 'CV', 'CW', 'DM'],
    ...['E3', 'FB', 'FC', 'GO', 'HM', 'IP', 'IR', 'IS', 'J1', 'L3', 'L6', 'LE', 'LS', 'OA', 'OB', 'PI', 'PL', 'RA'],
    ...['RE', 'SL', 'TL', 'WO', 'WU'],
  ],
} as const;

test('our 835 tables list every code the TR3 (005010X221A1) gives CLP02, CAS01 and PLB03-1', () => {
  for (const [element, listed] of [
    ['CLP02', LISTED.clp02],
    ['CAS01', LISTED.cas01],
    ['PLB03-1', LISTED.plb],
  ] as const) {
    const missing = TR3_CODES[element].filter((c) => !listed.includes(c));
    assert.deepEqual(missing, [], `${element} values our tables do not decide`);
  }
  // A CLP02 outside the list is read as unknown, never as primary.
  assert.equal(claimStatusOf('99'), 'unknown');
});

test("pyx12's 835 sample (a denied Medicaid claim of three lines, notification only) reads as sent", () => {
  const r = readRemittances(fixture('835_mult_loops.txt'));
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.warnings, []);
  const [rem] = r.value;
  assert.equal(r.value.length, 1);
  assert.equal(rem!.handling, 'H');
  assert.equal(rem!.total_paid_cents, 0);
  assert.equal(rem!.payment_method, 'NON');
  assert.equal(rem!.payment_date, '2004-10-28');
  assert.equal(rem!.production_date, '2013-09-01');
  assert.equal(rem!.payer.name, 'PAYER');
  assert.deepEqual(rem!.payee, { name: 'UNKNOWN', id_qualifier: 'FI', id: '444313000' });
  const [claim] = rem!.claims;
  assert.equal(claim!.status, 'denied');
  assert.equal(claim!.charge_cents, 91539);
  assert.equal(claim!.filing_indicator, 'MC');
  assert.equal(claim!.patient?.id_qualifier, 'MR');
  assert.equal(claim!.lines.length, 3);
  assert.deepEqual(
    claim!.lines.map((l) => [
      l.procedure.code,
      l.charge_cents,
      l.units,
      l.date_of_service,
      l.service_end,
      l.adjustments.map((a) => `${a.group}${a.reason}`),
      l.remarks,
    ]),
    [
      ['T1005', 50004, 68, '2003-11-29', '2003-11-29', ['CO16'], ['N14']],
      ['T1005', 12780, 16, '2003-10-30', '2003-10-30', ['OAA7'], ['N14']],
      ['T1005', 28755, 36, '2003-10-31', '2003-10-31', ['OAA7'], ['N14']],
    ],
  );
  // A denial the provider writes off (CO) or another adjustment (OA): the member owes nothing of it.
  assert.equal(memberShareOf(claim!.lines[0]!.adjustments).total, 0);
});

const ENVELOPE = (body: string) =>
  `ISA*00*          *00*          *ZZ*PAYER          *ZZ*PRACTICE       *261206*1200*^*00501*000000001*0*T*:~GS*HP*PAYER*PRACTICE*20261206*1200*1*X*005010X221A1~ST*835*0001~${body}SE*${body.split('~').length + 1}*0001~GE*1*1~IEA*1*000000001~`;

test('a psychotherapy claim: the member share by kind (deductible, coinsurance, copay), the allowed amount, the line date', () => {
  const r = readRemittances(
    ENVELOPE(
      'BPR*I*62.50*C*ACH************20261210~TRN*1*EFT123*1512345678~N1*PR*EVERGREEN HEALTH*XV*SBX-EVERGREEN~N1*PE*NORTH CLINIC*XX*1234567893~LX*1~' +
        'CLP*C-1*1*150*62.5*50**12*PCN-1*11*1~NM1*QC*1*DOE*JANE****MI*W123~DTM*232*20261201~' +
        'SVC*HC:90837:95*150*62.5**1~DTM*472*20261201~CAS*CO*45*25~CAS*PR*1*40*1*2*12.5*1*3*10~AMT*B6*125~LQ*HE*M86~',
    ),
  );
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.warnings, []);
  const claim = r.value[0]!.claims[0]!;
  const line = claim.lines[0]!;
  assert.deepEqual(line.procedure, { qualifier: 'HC', code: '90837', modifiers: ['95'] });
  assert.equal(line.allowed_cents, 12500);
  assert.equal(lineDate(claim, line), '2026-12-01');
  assert.deepEqual(memberShareOf(line.adjustments), { deductible: 4000, coinsurance: 1250, copay: 1000, other: 0, total: 6250 });
  assert.equal(claim.patient_responsibility_cents, 5000, 'CLP05 as sent, even where it disagrees with the lines');
});

test('an 835 that does not balance is read with a warning per defect, naming positions and never the claim ID', () => {
  const r = readRemittances(
    ENVELOPE('BPR*I*100*C*CHK************20261210~N1*PR*P~N1*PE*Q~CLP*SECRET-ID*1*150*60**12~SVC*HC:90834*150*60~CAS*PR*3*30~PLB*1234567893*20261231*WO:X*5~'),
  );
  assert.ok(r.ok);
  assert.equal(r.warnings.length, 3, r.warnings.join('\n'));
  assert.match(r.warnings[0]!, /claim 1 \(segment \d+\), line 1: charge \$150 is not payment \$60 plus adjustments \(off by \$60\)/);
  assert.match(r.warnings[2]!, /BPR02 \$100 is not the claims' payments less provider adjustments \(\$55\)/);
  for (const w of r.warnings) assert.doesNotMatch(w, /SECRET/);
});

test('a malformed 835 fails naming the segment and its position; no input throws', () => {
  const cases: [string, RegExp, string][] = [
    ['BPR*I*1O.00*C~N1*PR*P~', /BPR02 total payment "1O.00" is not an amount \(segment 4, BPR\)/, 'BPR'],
    ['BPR*I*0*C~SVC*HC:90837*150*0~', /SVC before any claim \(CLP\) \(segment 5, SVC\)/, 'SVC'],
    ['BPR*I*0*C~CLP*A*1*150*0~CAS*XX*1*150~', /CAS01 "XX" is not an adjustment group/, 'CAS'],
    ['BPR*I*0*C~CLP*A*1*150*0~SVC*HC:90837*150*0~DTM*472*20261331~', /^DTM02 is not a date \(CCYYMMDD\) \(segment 7, DTM\)$/, 'DTM'],
    ['N1*PR*P~', /the 835 has no BPR/, 'ST'],
  ];
  for (const [body, message, id] of cases) {
    const r = readRemittances(ENVELOPE(body));
    assert.ok(!r.ok, body);
    assert.match(r.error.message, message);
    assert.equal(r.error.segment_id, id);
    assert.notEqual(r.error.offset, null);
  }
  const notRemit = readRemittances(ENVELOPE('BPR*I*0*C~').replace('ST*835', 'ST*271'));
  assert.ok(!notRemit.ok);
  assert.match(notRemit.error.message, /expected an 835 transaction set, found 271/);
  fc.assert(
    fc.property(fc.string({ maxLength: 400 }), fc.nat(), (junk, at) => {
      const good = ENVELOPE('BPR*I*0*C~CLP*A*1*150*0~SVC*HC:90837*150*0~');
      const mixed = good.slice(0, at % good.length) + junk + good.slice(at % good.length);
      const r = readRemittances(mixed);
      if (!r.ok) assert.doesNotMatch(r.error.message, /^internal error/);
    }),
    { numRuns: 300 },
  );
});

// --- The read-back property: write with our writer, read it back, the same remittance. ---

const word = fc.stringMatching(/^[A-Z][A-Z0-9]{0,11}$/);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const money = fc.integer({ min: -500_000, max: 5_000_000 });
const iso = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const adjustment: fc.Arbitrary<Adjustment> = fc.record({
  group: fc.constantFrom('PR', 'CO', 'OA', 'PI'),
  reason: fc.constantFrom('1', '2', '3', '45', '96', '23', 'A7', '253', '119'),
  amount_cents: money,
  quantity: maybe(fc.integer({ min: 1, max: 99 })),
});
const procedure: fc.Arbitrary<Procedure> = fc.record({
  qualifier: fc.constantFrom('HC', 'HP', 'AD', 'NU'),
  code: fc.stringMatching(/^[0-9A-Z]{5}$/),
  modifiers: fc.array(fc.stringMatching(/^[0-9A-Z]{2}$/), { maxLength: 4 }),
});
const person: fc.Arbitrary<Person | null> = maybe(
  fc.record({ last_name: maybe(word), first_name: maybe(word), id_qualifier: maybe(fc.constantFrom('MI', '34', 'II')), id: maybe(word) }),
);
const serviceLine: fc.Arbitrary<Omit<ServiceLine, 'segment_index'>> = fc
  .record({
    procedure,
    charge_cents: money,
    paid_cents: money,
    revenue_code: maybe(fc.stringMatching(/^0[0-9]{3}$/)),
    units: maybe(fc.integer({ min: 1, max: 40 })),
    original_procedure: maybe(procedure),
    dates: fc.oneof(
      fc.constant([null, null] as const),
      iso.map((d) => [d, d] as const),
      fc.tuple(iso, iso),
      fc.tuple(iso, fc.constant(null)),
    ),
    allowed_cents: maybe(money),
    adjustments: fc.array(adjustment, { maxLength: 8 }),
    remarks: fc.array(fc.stringMatching(/^[MN][0-9]{1,3}$/), { maxLength: 3 }),
    line_control: maybe(word),
  })
  .map(({ dates, ...l }) => ({ ...l, date_of_service: dates[0], service_end: dates[1] }));
const claim = fc.record({
  claim_id: word,
  status_code: fc.constantFrom('1', '2', '3', '4', '19', '22', '23', '25'),
  charge_cents: money,
  paid_cents: money,
  patient_responsibility_cents: maybe(money),
  filing_indicator: maybe(fc.constantFrom('12', 'CI', 'HM', 'MC', 'MB')),
  payer_claim_id: maybe(word),
  facility_code: maybe(fc.constantFrom('11', '02', '10')),
  frequency: maybe(fc.constantFrom('1', '7', '8')),
  patient: person,
  subscriber: person,
  corrected_insured: person,
  rendering_provider: person,
  statement_start: maybe(iso),
  statement_end: maybe(iso),
  adjustments: fc.array(adjustment, { maxLength: 4 }),
  lines: fc.array(serviceLine, { maxLength: 4 }),
});
const remittance = fc.record({
  handling: fc.constantFrom('I', 'H', 'C', 'P'),
  total_paid_cents: money,
  credit_debit: maybe(fc.constantFrom('C', 'D')),
  payment_method: maybe(fc.constantFrom('ACH', 'CHK', 'NON')),
  payment_date: maybe(iso),
  trace: maybe(word),
  production_date: maybe(iso),
  payer: fc.record({ name: maybe(word), id_qualifier: maybe(fc.constant('XV')), id: maybe(word), additional_id: maybe(word) }),
  payee: fc.record({ name: maybe(word), id_qualifier: maybe(fc.constantFrom('XX', 'FI')), id: maybe(word) }),
  claims: fc.array(fc.tuple(claim, fc.integer({ min: 1, max: 3 })), { maxLength: 5 }),
  provider_adjustments: fc.array(
    fc.record({ provider_id: word, date: iso, reason: fc.constantFrom('WO', 'L6', 'FB', '72'), reference: maybe(word), amount_cents: money }),
    { maxLength: 3 },
  ),
});

/** The remittance as the reader gives it back: claims numbered by their LX, positions left out of the comparison. */
function comparable(r: Remittance): unknown {
  // Through JSON: fast-check builds records without a prototype, the reader plain objects.
  return JSON.parse(
    JSON.stringify({
      ...r,
      claims: r.claims.map(({ segment_index: _s, lines, ...c }: Claim) => ({ ...c, lines: lines.map(({ segment_index: _l, ...l }) => l) })),
    }),
  );
}

test('property: an 835 written by our writer reads back as the same remittance (claims, lines, adjustments, persons, dates)', () => {
  fc.assert(
    fc.property(remittance, (gen) => {
      // LX numbers rise, as the TR3 writes them; a claim keeps the header number of its loop.
      let lx = 0;
      const claims = gen.claims.map(([c, step]) => ({
        ...c,
        status: claimStatusOf(c.status_code),
        header_number: String((lx += step)),
        segment_index: 0,
        lines: c.lines.map((l) => ({ ...l, segment_index: 0 })),
      }));
      const want: Remittance = { ...gen, control_number: '0001', claims };
      const text = write835(want, 'PAYER', 'PRACTICE', { control_number: 1, now: new Date('2026-12-06T12:00:00Z') });
      const r = readRemittances(text);
      assert.ok(r.ok, r.ok ? '' : `${r.error.message}\n${text}`);
      assert.deepEqual(comparable(r.value[0]!), comparable(want));
    }),
    { numRuns: 300 },
  );
});
