import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build270, build999, detectTransactionSet, parse999 } from '../../src/x12/index.ts';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { interchange, SAMPLE, sample } from './x12-fixtures.ts';

const inquiry: Inquiry = {
  trace_number: 'T-1',
  payer: { id: '60054', name: 'AETNA' },
  provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'NORTH CLINIC' },
  subscriber: { member_id: 'W123', first_name: 'JANE', last_name: 'DOE', dob: '1980-02-03', zip: null },
  dependent: null,
  service_types: ['MH'],
  date: '2025-03-04',
};

test('build999 rejects a 270 and parse999 reads the errors back', () => {
  const request = build270(inquiry, { control_number: 4321 });
  const ack = build999(
    request,
    [
      { segment_id: 'NM1', position: 8, code: '8', description: 'ignored: X12 carries codes only' },
      { segment_id: 'DTP', position: 10, code: 'I6', description: '' },
      { segment_id: null, position: null, code: '4', description: '' },
    ],
    { sender_id: '60054', receiver_id: 'COVERAGE', control_number: 77 },
  );
  assert.equal(detectTransactionSet(ack), '999');
  const r = parse999(ack);
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.value, {
    accepted: false,
    transaction_set_control_number: '4321',
    errors: [
      { segment_id: 'NM1', position: 8, code: '8', description: 'segment has data element errors' },
      { segment_id: 'DTP', position: 10, code: 'I6', description: 'implementation dependent segment missing' },
      { segment_id: null, position: null, code: '4', description: 'number of included segments does not match actual count' },
    ],
  });
  assert.match(ack, /AK1\*HS\*4321\*005010X279A1~/);
  assert.match(ack, /IK5\*R\*5\*4~/);
  assert.match(ack, /AK9\*R\*1\*1\*0~/);
});

test('build999 without errors accepts', () => {
  const r = parse999(build999(sample(SAMPLE.subscriber270), []));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { accepted: true, transaction_set_control_number: '1234', errors: [] });
});

test('build999 of an unreadable 270 still yields a readable reject', () => {
  const r = parse999(build999('garbage', [{ segment_id: null, position: null, code: '1', description: '' }]));
  assert.ok(r.ok);
  assert.equal(r.value.accepted, false);
  assert.equal(r.value.errors[0]!.description, 'transaction set not supported');
});

test('parse999 reads IK4 element errors and AK9-only acknowledgments', () => {
  const withIk4 = interchange('999', [
    'AK1*HS*17*005010X279A1',
    'AK2*270*0009*005010X279A1',
    'IK3*DMG*6*2100C*8',
    'IK4*2*1251*8*19801302',
    'IK5*R*5',
    'AK9*R*1*1*0',
  ]);
  const r = parse999(withIk4);
  assert.ok(r.ok);
  assert.deepEqual(r.value.errors, [
    { segment_id: 'DMG', position: 6, code: '8', description: 'segment has data element errors' },
    { segment_id: 'DMG', position: 6, code: '8', description: 'element 2: invalid date ("19801302")' },
  ]);
  const partial = parse999(interchange('999', ['AK1*HS*17*005010X279A1', 'AK9*P*2*2*1']));
  assert.ok(partial.ok);
  assert.equal(partial.value.accepted, true);
  assert.equal(partial.value.transaction_set_control_number, null);
  const accepted = parse999(interchange('999', ['AK1*HS*17*005010X279A1', 'AK2*270*0009', 'IK5*E', 'AK9*E*1*1*1']));
  assert.ok(accepted.ok && accepted.value.accepted);
});

test('parse999 errors: not a 999, no status', () => {
  const a = parse999(sample(SAMPLE.subscriber271));
  assert.ok(!a.ok && /expected a 999/.test(a.error.message));
  const b = parse999(interchange('999', ['AK1*HS*17*005010X279A1']));
  assert.ok(!b.ok && /neither IK5 nor AK9/.test(b.error.message) && b.error.segment_id === 'SE');
});
