/** Properties of the Good Faith Estimate's rules over random dates, requests and bills (fast-check). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addBusinessDays,
  addDays,
  assembleGfe,
  billedCheck,
  businessDaysAhead,
  DISPUTE_THRESHOLD_CENTS,
  dueDate,
  isBusinessDay,
  REQUIRED_ELEMENTS,
  subtractBusinessDays,
  type RequiredElement,
} from '../../src/domain/gfe/index.ts';
import type { GoodFaithEstimateRequest } from '../../src/domain/schemas/good-faith-estimates.ts';
import { completeGfe } from '../helpers/gfe-request.ts';

const DAY = 86_400_000;
const day = fc.integer({ min: Date.UTC(2000, 0, 1) / DAY, max: Date.UTC(2060, 11, 31) / DAY }).map((d) => new Date(d * DAY).toISOString().slice(0, 10));

test('the nth business day after a date is a business day, n business days ahead of it, and n back returns to the last business day on or before it', () => {
  fc.assert(
    fc.property(day, fc.integer({ min: 1, max: 40 }), (from, n) => {
      const to = addBusinessDays(from, n);
      assert.ok(isBusinessDay(to));
      assert.equal(businessDaysAhead(from, to), n);
      assert.equal(businessDaysAhead(from, addDays(to, -1)), n - 1);
      const back = subtractBusinessDays(to, n);
      assert.ok(back <= from);
      assert.equal(businessDaysAhead(back, from), 0);
    }),
  );
});

test('a first estimate is due 1 business day after scheduling 3 to 9 business days ahead, 3 at 10 or more; never before scheduling; a later service never makes it due sooner', () => {
  fc.assert(
    fc.property(day, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 30 }), (scheduled, ahead, more) => {
      const service = addDays(scheduled, ahead);
      const due = dueDate({ scheduled_on: scheduled, requested_on: null, service_date: service, version: 1 });
      const lead = businessDaysAhead(scheduled, service);
      assert.equal(due.lead_business_days, lead);
      if (lead < 3) return assert.equal(due.date, null);
      assert.equal(due.date, addBusinessDays(scheduled, lead >= 10 ? 3 : 1));
      assert.ok(due.date > scheduled && isBusinessDay(due.date));
      const later = dueDate({ scheduled_on: scheduled, requested_on: null, service_date: addDays(service, more), version: 1 });
      assert.ok(later.date! >= due.date);
    }),
  );
});

test('a new version is due the business day before the service', () => {
  fc.assert(
    fc.property(day, fc.integer({ min: 2, max: 9 }), (service, version) => {
      const due = dueDate({ scheduled_on: null, requested_on: null, service_date: service, version });
      assert.ok(due.date! < service && isBusinessDay(due.date!));
      assert.equal(businessDaysAhead(due.date!, service) <= 1 || !isBusinessDay(service), true);
      assert.equal(addBusinessDays(due.date!, 1) >= service, true);
    }),
  );
});

const service = fc.record({
  code: fc.constantFrom('90791', '90834', '90837', '90847', '99214', 'H0031'),
  quantity: fc.integer({ min: 1, max: 52 }),
  charge_cents: fc.integer({ min: 0, max: 500_000 }),
});

test('totals: each service is quantity × charge, each provider the sum of its services, the estimate the sum of its providers', () => {
  fc.assert(
    fc.property(
      fc.array(service, { minLength: 1, maxLength: 8 }),
      fc.array(fc.array(service, { minLength: 1, maxLength: 5 }), { maxLength: 3 }),
      (mine, others) => {
        const req = completeGfe();
        req.convening_provider!.services = mine;
        const template = req.co_providers![0]!;
        req.co_providers = others.map((services) => ({ ...template, services }));
        const r = assembleGfe(req, () => null);
        assert.ok(r.ok);
        const sum = (ss: typeof mine) => ss.reduce((s, x) => s + x.quantity * x.charge_cents, 0);
        assert.deepEqual(
          r.content.providers.map((p) => p.total_cents),
          [sum(mine), ...others.map(sum)],
        );
        assert.equal(r.content.total_cents, sum(mine) + others.reduce((s, o) => s + sum(o), 0));
        assert.ok(Number.isSafeInteger(r.content.total_cents));
      },
    ),
  );
});

/** Removes what carries one required element from a complete request. */
const WITHOUT: Record<Exclude<RequiredElement, 'itemized_services'>, (r: GoodFaithEstimateRequest) => void> = {
  client_name_and_dob: (r) => delete r.client!.dob,
  primary_service: (r) => delete r.primary_service!.description,
  service_codes_and_charges: (r) => delete r.co_providers![0]!.services[0]!.charge_cents,
  provider_identity: (r) => delete r.co_providers![0]!.tin,
  provider_locations: (r) => (r.convening_provider!.locations = []),
  separate_scheduling: (r) => delete r.separate_scheduling,
  notice_additional_services: (r) => delete r.notices!.additional_services,
  notice_estimate_only: (r) => (r.notices!.estimate_only = '   '),
  notice_dispute_rights: (r) => delete r.notices!.dispute_rights,
  notice_not_a_contract: (r) => delete r.notices!.not_a_contract,
  scheduled_or_requested_on: (r) => delete r.scheduled_on,
};

test('a request lacking any set of required elements is refused naming exactly those elements', () => {
  const keys = Object.keys(WITHOUT) as (keyof typeof WITHOUT)[];
  fc.assert(
    fc.property(fc.subarray(keys, { minLength: 1 }), (drop) => {
      const req = completeGfe();
      for (const k of drop) WITHOUT[k](req);
      const r = assembleGfe(req, () => null);
      assert.ok(!r.ok);
      assert.deepEqual([...new Set(r.missing.map((m) => m.element))].sort(), [...drop].sort());
    }),
  );
  // Every element but the itemized list (a provider with no services, below) has its removal above.
  assert.deepEqual([...keys, 'itemized_services'].sort(), Object.keys(REQUIRED_ELEMENTS).sort());
  const req = completeGfe();
  req.co_providers![0]!.services = [];
  const r = assembleGfe(req, () => null);
  assert.ok(!r.ok);
  assert.deepEqual(
    r.missing.map((m) => [m.element, m.field]),
    [['itemized_services', 'co_providers[0].services']],
  );
});

test('the billed check: a provider is disputable exactly when billed $400 or more above its estimate, whatever the order of the bills', () => {
  const npi = fc.constantFrom('1234567893', '1987654328', '1122334455');
  fc.assert(
    fc.property(
      fc.array(fc.record({ npi, total_cents: fc.integer({ min: 0, max: 1_000_000 }) }), { maxLength: 3 }),
      fc.array(fc.record({ npi, billed_cents: fc.integer({ min: 0, max: 1_000_000 }) }), { minLength: 1, maxLength: 6 }),
      (ps, bills) => {
        const providers = ps.map((p) => ({ ...p, name: `P ${p.npi}` }));
        const r = billedCheck(providers, bills);
        for (const line of r.providers) {
          const est = providers.filter((p) => p.npi === line.npi).reduce((s, p) => s + p.total_cents, 0);
          const billed = bills.filter((b) => b.npi === line.npi);
          const total = billed.reduce((s, b) => s + b.billed_cents, 0);
          assert.equal(line.estimated_cents, est);
          assert.equal(line.billed_cents, billed.length ? total : null);
          assert.equal(line.disputable, billed.length > 0 && total - est >= DISPUTE_THRESHOLD_CENTS);
        }
        assert.deepEqual(billedCheck(providers, [...bills].reverse()).providers, r.providers);
        assert.equal(
          r.any_disputable,
          r.providers.some((l) => l.disputable),
        );
      },
    ),
  );
});
