/** The Good Faith Estimate's rules by example (docs/good-faith-estimate.md): holidays, due dates, totals, required elements, the $400 check. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addBusinessDays,
  assembleGfe,
  billedCheck,
  businessDaysAhead,
  dueDate,
  federalHolidays,
  isBusinessDay,
  isOverdue,
  missingSentence,
  REQUIRED_ELEMENTS,
} from '../../src/domain/gfe/index.ts';
import { completeGfe, CO_PROVIDER_NPI } from '../helpers/gfe-request.ts';
import { VALID_NPI } from '../helpers/requests.ts';

const noFees = () => null;

test('the federal holidays of 2026 as observed: Independence Day on a Saturday is observed Friday July 3rd', () => {
  assert.deepEqual(
    federalHolidays(2026).map((h) => h.date),
    ['2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25'],
  );
  // New Year's Day 2028 is a Saturday: observed Friday December 31st, 2027.
  assert.equal(isBusinessDay('2027-12-31'), false);
  assert.equal(federalHolidays(2028)[0]!.date, '2027-12-31');
  // Christmas 2022 on a Sunday: observed Monday the 26th.
  assert.equal(isBusinessDay('2022-12-26'), false);
  assert.equal(isBusinessDay('2026-07-02'), true);
});

test('business days skip weekends and holidays', () => {
  // Thursday July 2nd, 2026 + 1 business day: Friday the 3rd is the observed holiday, so Monday the 6th.
  assert.equal(addBusinessDays('2026-07-02', 1), '2026-07-06');
  assert.equal(addBusinessDays('2026-06-12', 3), '2026-06-17'); // Fri -> Wed
  assert.equal(businessDaysAhead('2026-06-15', '2026-06-18'), 3); // Mon -> Thu
  assert.equal(businessDaysAhead('2026-06-15', '2026-06-15'), 0);
});

test('due dates: 1 business day when scheduled 3 to 9 ahead, 3 when 10 or more, 3 after a request, 1 before the service for a new version', () => {
  // Monday June 15th for Thursday June 18th: 3 business days ahead, due Tuesday the 16th.
  assert.deepEqual(dueDate({ scheduled_on: '2026-06-15', requested_on: null, service_date: '2026-06-18', version: 1 }), {
    date: '2026-06-16',
    rule: 'scheduled_3_to_9_business_days',
    lead_business_days: 3,
  });
  // Monday June 15th for Monday July 6th: 13 business days (June 19th and July 3rd are holidays), due Thursday the 18th.
  assert.deepEqual(dueDate({ scheduled_on: '2026-06-15', requested_on: null, service_date: '2026-07-06', version: 1 }), {
    date: '2026-06-18',
    rule: 'scheduled_10_or_more_business_days',
    lead_business_days: 13,
  });
  // Scheduled Wednesday June 17th for Monday June 29th: 7 business days ahead (the 19th is Juneteenth), due Thursday the 18th.
  assert.equal(dueDate({ scheduled_on: '2026-06-17', requested_on: null, service_date: '2026-06-29', version: 1 }).date, '2026-06-18');
  // Scheduled Thursday June 18th for Monday the 22nd: 1 business day ahead: no deadline.
  assert.deepEqual(dueDate({ scheduled_on: '2026-06-18', requested_on: null, service_date: '2026-06-22', version: 1 }), {
    date: null,
    rule: 'scheduled_under_3_business_days',
    lead_business_days: 1,
  });
  // Asked for on Thursday June 18th: Friday is Juneteenth, so Monday, Tuesday, Wednesday the 24th.
  assert.equal(dueDate({ scheduled_on: null, requested_on: '2026-06-18', service_date: null, version: 1 }).date, '2026-06-24');
  // Version 2 of an estimate for Monday July 6th: Thursday July 2nd (Friday the 3rd is observed Independence Day).
  assert.deepEqual(dueDate({ scheduled_on: '2026-06-15', requested_on: null, service_date: '2026-07-06', version: 2 }), {
    date: '2026-07-02',
    rule: 'changed_before_service',
    lead_business_days: 13,
  });
  assert.equal(isOverdue('draft', '2026-06-16', '2026-06-17'), true);
  assert.equal(isOverdue('draft', '2026-06-16', '2026-06-16'), false);
  assert.equal(isOverdue('given', '2026-06-16', '2026-06-30'), false);
});

test('a complete request is assembled with totals per provider and overall', () => {
  const r = assembleGfe(completeGfe(), noFees);
  assert.ok(r.ok);
  const [north, lee] = r.content.providers;
  assert.equal(north!.total_cents, 20000 + 24 * 15000);
  assert.equal(lee!.total_cents, 2 * 18000);
  assert.equal(r.content.total_cents, 20000 + 24 * 15000 + 36000);
  assert.deepEqual(
    r.content.providers.map((p) => p.role),
    ['convening', 'co_provider'],
  );
});

test('a service without a charge takes the fee schedule (the modifier first), and is refused when the schedule has none', () => {
  const req = completeGfe();
  req.convening_provider!.services = [
    { code: '90837', modifier: '95', quantity: 2 },
    { code: '90791', quantity: 1 },
  ];
  const fees = (code: string, modifier: string | null) => (code === '90837' && modifier === '95' ? 14000 : code === '90837' && !modifier ? 15000 : null);
  const r = assembleGfe(req, fees);
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.deepEqual(r.missing, [
    {
      element: 'service_codes_and_charges',
      field: 'convening_provider.services[1].charge_cents',
      message: `missing ${REQUIRED_ELEMENTS.service_codes_and_charges.what}`,
    },
  ]);
  req.convening_provider!.services = [
    { code: '90837', modifier: '95', quantity: 2 },
    { code: '90837', modifier: 'HO', quantity: 1 },
  ];
  const ok = assembleGfe(req, fees);
  assert.ok(ok.ok);
  assert.deepEqual(
    ok.content.providers[0]!.services.map((s) => [s.charge_cents, s.charge_source, s.total_cents]),
    [
      [14000, 'fee_schedule', 28000],
      [15000, 'fee_schedule', 15000],
    ],
  );
});

test('an empty request is refused naming every required element', () => {
  const r = assembleGfe({}, noFees);
  assert.ok(!r.ok);
  const named = new Set(r.missing.map((m) => m.element));
  assert.deepEqual(
    [...named].sort(),
    Object.keys(REQUIRED_ELEMENTS)
      .filter((e) => e !== 'itemized_services' && e !== 'service_codes_and_charges' && e !== 'provider_locations')
      .sort(),
  );
  const sentence = missingSentence(r.missing);
  assert.match(sentence, /^The Good Faith Estimate lacks what 45 CFR 149.610 requires: the client's name and date of birth \(client_name_and_dob\); /);
  assert.match(sentence, /notice_dispute_rights/);
});

test('inconsistent dates are refused as invalid', () => {
  const req = completeGfe();
  req.scheduled_on = '2026-07-07';
  req.period_of_care = { start: '2026-07-06', end: '2027-07-06' };
  const r = assembleGfe(req, noFees);
  assert.ok(!r.ok);
  assert.deepEqual(
    r.invalid.map((i) => i.field),
    ['scheduled_on', 'period_of_care.end'],
  );
});

test('the billed check flags a provider $400 or more above, and a provider the estimate did not name', () => {
  const providers = [
    { npi: VALID_NPI, name: 'North', total_cents: 380000 },
    { npi: CO_PROVIDER_NPI, name: 'Lee', total_cents: 36000 },
  ];
  const r = billedCheck(providers, [
    { npi: VALID_NPI, billed_cents: 419999 },
    { npi: CO_PROVIDER_NPI, billed_cents: 76000 },
    { npi: '1122334455', billed_cents: 40000 },
  ]);
  assert.deepEqual(
    r.providers.map((p) => [p.npi, p.over_cents, p.disputable]),
    [
      [VALID_NPI, 39999, false],
      [CO_PROVIDER_NPI, 40000, true],
      ['1122334455', 40000, true],
    ],
  );
  assert.equal(r.any_disputable, true);
  const none = billedCheck(providers, [{ npi: VALID_NPI, billed_cents: 100 }]);
  assert.equal(none.any_disputable, false);
  assert.equal(none.providers[1]!.billed_cents, null);
});
