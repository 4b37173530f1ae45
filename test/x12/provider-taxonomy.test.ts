/** 2100B PRV*PE*PXC: the provider's NUCC taxonomy goes out in the 270 when known, and our own 270 reader takes it back. */
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
  service_types: ['30'],
  date: '2026-11-26',
};
const segments = (x12: string) => x12.split('~').map((s) => s.trim());

test('a provider with a taxonomy: PRV*PE*PXC right after the 2100B NM1, read back without warnings', () => {
  const x12 = build270({ ...inquiry, provider: { ...inquiry.provider, taxonomy: '103T00000X' } });
  const segs = segments(x12);
  const nm1 = segs.findIndex((s) => s.startsWith('NM1*1P*'));
  assert.equal(segs[nm1 + 1], 'PRV*PE*PXC*103T00000X');
  assert.equal(segs.filter((s) => s.startsWith('PRV')).length, 1);
  const r = parse270(x12);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.value.provider.taxonomy, '103T00000X');
  assert.equal(r.value.provider.last_name, 'FREUD');
});

test('no taxonomy, a null one or one that is no NUCC code: no PRV at all', () => {
  for (const taxonomy of [undefined, null, '', 'BAD~CODE*1', '103T']) {
    const x12 = build270({ ...inquiry, provider: { ...inquiry.provider, taxonomy } });
    assert.ok(!segments(x12).some((s) => s.startsWith('PRV')), String(taxonomy));
    const r = parse270(x12);
    assert.ok(r.ok);
    assert.equal(r.value.provider.taxonomy, undefined);
  }
});

test('an organization provider carries its taxonomy too, and any inquiry with one round-trips', () => {
  const org = build270({
    ...inquiry,
    provider: { npi: '1234567893', first_name: null, last_name: null, organization_name: 'HAPPY MIND CLINIC', taxonomy: '261QM0801X' },
  });
  assert.ok(segments(org).includes('PRV*PE*PXC*261QM0801X'));
  const taxonomy = fc.stringMatching(/^[0-9A-Z]{10}$/);
  fc.assert(
    fc.property(inquiryArbitrary, taxonomy, (base, code) => {
      const withCode = { ...base, provider: { ...base.provider, taxonomy: code } };
      const r = parse270(build270(withCode));
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.warnings, []);
      assert.deepEqual(r.value, withCode);
    }),
    { numRuns: 100 },
  );
});
