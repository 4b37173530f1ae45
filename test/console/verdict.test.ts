/**
 * The verdict (src/http/console/verdict.js) every surface shows: unknown is never a price, a
 * carve-out is priced only from its administrator's answer and then always names it, an ended plan
 * never shows the plan's share, and a refusal never carries an amount.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { verdict } from '../../src/http/console/verdict.js';

const mindful = { name: 'MINDFUL BEHAVIORAL HEALTH', payer_id: 'SBX-MINDFUL', phone: '8005550142' };
const cents = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null });

const answer = fc.record({
  status: fc.constantFrom(200, 206),
  plan_status: fc.constantFrom('ACTIVE', 'ACTIVE_AT_RISK', 'INACTIVE'),
  mental_health_coverage: fc.constantFrom('active', 'carved_out', 'unknown'),
  third_party_payer: fc.option(fc.constant(mindful), { nil: null }),
  priced_by: fc.option(fc.constant(mindful), { nil: undefined }),
  member_obligation: cents,
  provider_session_cost: cents,
  error_code: fc.option(fc.constantFrom('UNKNOWN_COSTSHARE', 'UNKNOWN_REMAININGS'), { nil: undefined }),
});

test('a price is said only when it is the answer, with its source when an administrator gave it', () => {
  fc.assert(
    fc.property(answer, (a) => {
      const { status, ...body } = a;
      const v = verdict('estimate', status, body, '2026-06-15');
      const carved = body.mental_health_coverage === 'carved_out' && body.third_party_payer !== null;
      if (body.plan_status === 'INACTIVE') {
        assert.equal(v.price, body.provider_session_cost, 'an ended plan: the whole session, never the plan share');
      } else if (carved) {
        if (v.price !== null) {
          assert.equal(v.price, body.member_obligation, "the administrator's price");
          assert.match(v.text, /per Mindful Behavioral Health$/);
        } else assert.match(v.text, /^Call Mindful Behavioral Health \(800\) 555-0142$/);
      } else {
        assert.equal(v.price, body.member_obligation, 'the patient share, or none when unknown');
      }
      if (v.price === null) assert.doesNotMatch(v.text, /\$/, 'no amount without a price');
      else assert.ok(v.text.includes(`$${(v.price / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`), v.text);
      assert.ok(v.next.length > 0);
    }),
  );
});

test('a refusal is words and a next step, never an amount or a code', () => {
  for (const [status, code, text] of [
    [404, 'MEMBER_NOT_FOUND', 'Not found: check the member ID'],
    [502, 'PAYER_FAILURE', 'No answer from the payer: try again'],
    [500, 'SOMETHING_NEW', 'Not checked: try again'],
  ] as const) {
    const v = verdict('estimate', status, { error_code: code, member_obligation: 100 }, null);
    assert.equal(v.text, text);
    assert.equal(v.price, null);
    assert.doesNotMatch(`${v.text} ${v.next}`, /[A-Z]+_[A-Z]+|\b\d{3}\b/);
  }
});

test('coverage not started yet is told apart from ended, by the day given', () => {
  const body = { plan_status: 'INACTIVE', plan_begin_date: '2026-07-01', provider_session_cost: 15000 };
  assert.equal(verdict('estimate', 200, body, '2026-06-15').text, 'Coverage not started: full $150.00');
  assert.equal(
    verdict('estimate', 200, { ...body, plan_begin_date: '2026-01-01', plan_end_date: '2026-05-31' }, '2026-06-15').text,
    'Coverage ended: full $150.00',
  );
});
