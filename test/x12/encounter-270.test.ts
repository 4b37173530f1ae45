/**
 * The encounter in the 270 (005010X279A1): DTP*291 the date of service; a procedure as its own 2110
 * inquiry loop, EQ with EQ02 = HC:code and no EQ01; the place of service as 2110 III*ZZ*code in
 * each loop. Our 270 reader (the simulator's and the JSON connectors') takes them back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { build270, parse270 } from '../../src/x12/index.ts';
import { inquiryArbitrary } from './coverage-arbitrary.ts';

const inquiry: Inquiry = {
  trace_number: 'T1',
  payer: { id: '60054', name: 'AETNA' },
  provider: { npi: '1999999984', first_name: 'ANNA', last_name: 'FREUD', organization_name: null },
  subscriber: { member_id: 'AETNA12345', first_name: 'JANE', last_name: 'DOE', dob: '2004-04-04', zip: null },
  dependent: null,
  service_types: ['MH', '30'],
  date: '2026-12-03',
};
const segments = (x12: string) => x12.split('~').map((s) => s.trim());
/** The segments after the inquired person's 2100 loop: DTP*291 and the 2110 loops. */
const request = (x12: string) => {
  const segs = segments(x12);
  const at = segs.findIndex((s) => s.startsWith('DTP*291'));
  return segs.slice(
    at,
    segs.findIndex((s) => s.startsWith('SE*')),
  );
};

test('telehealth 90837 on a date: DTP*291, the service-type EQ and the procedure EQ, each with III*ZZ*10', () => {
  const x12 = build270({ ...inquiry, procedure_code: '90837', place_of_service: '10' });
  assert.deepEqual(request(x12), ['DTP*291*D8*20261203', 'EQ*MH^30', 'III*ZZ*10', 'EQ**HC:90837', 'III*ZZ*10']);
  const r = parse270(x12);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.value.date, '2026-12-03');
  assert.equal(r.value.procedure_code, '90837');
  assert.equal(r.value.place_of_service, '10');
  assert.deepEqual(r.value.service_types, ['MH', '30'], 'the procedure loop adds no service type');
});

test('no procedure: one EQ; an office visit adds III*ZZ*11; neither: the 270 is as before', () => {
  assert.deepEqual(request(build270({ ...inquiry, procedure_code: null, place_of_service: '11' })), ['DTP*291*D8*20261203', 'EQ*MH^30', 'III*ZZ*11']);
  const plain = build270(inquiry);
  assert.deepEqual(request(plain), ['DTP*291*D8*20261203', 'EQ*MH^30']);
  assert.equal(build270({ ...inquiry, procedure_code: null, place_of_service: null }), plain);
  const r = parse270(plain);
  assert.ok(r.ok);
  assert.equal('procedure_code' in r.value, false);
  assert.equal('place_of_service' in r.value, false);
});

test('a dependent inquiry carries the encounter in 2110D', () => {
  const x12 = build270({
    ...inquiry,
    dependent: { member_id: null, first_name: 'TIM', last_name: 'DOE', dob: '2015-05-05', zip: null },
    procedure_code: 'H0031',
    place_of_service: '02',
  });
  const segs = segments(x12);
  assert.ok(segs.indexOf('EQ**HC:H0031') > segs.findIndex((s) => s.startsWith('NM1*03*')));
  const r = parse270(x12);
  assert.ok(r.ok);
  assert.equal(r.value.procedure_code, 'H0031');
  assert.equal(r.value.place_of_service, '02');
});

const procedure = fc.oneof(fc.stringMatching(/^[0-9]{4}[0-9FTU]$/), fc.stringMatching(/^[A-Z][0-9]{4}$/));
const place = fc.stringMatching(/^[0-9]{2}$/);

test('any inquiry with any encounter: build270 -> parse270 gives it back, and no EQ sends both EQ01 and EQ02', () => {
  fc.assert(
    fc.property(inquiryArbitrary, fc.option(procedure, { nil: null }), fc.option(place, { nil: null }), (base, code, pos) => {
      const asked: Inquiry = { ...base, procedure_code: code, place_of_service: pos };
      const x12 = build270(asked);
      const r = parse270(x12);
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.warnings, []);
      // The reader leaves out what the 270 does not carry; null and absent say the same.
      assert.deepEqual({ procedure_code: null, place_of_service: null, ...r.value }, asked);
      const eqs = segments(x12).filter((s) => s.startsWith('EQ*'));
      assert.equal(eqs.length, code === null ? 1 : 2);
      for (const eq of eqs) {
        const [, eq01 = '', eq02 = ''] = eq.split('*');
        assert.ok((eq01 === '') !== (eq02 === ''), `${eq}: EQ01 or EQ02, not both`);
      }
      assert.equal(segments(x12).filter((s) => s.startsWith('III*')).length, pos === null ? 0 : eqs.length);
    }),
    { numRuns: 200 },
  );
});
