import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Inquiry } from '../../src/domain/inquiry.ts';
import { aaaReason, build271, errorCodeForAaa, normalize271, type PayerAnswer } from '../../src/x12/index.ts';
import { inquiryArbitrary } from './coverage-arbitrary.ts';
import { body271, interchange } from './x12-fixtures.ts';

test('AAA reject reasons map to the service error codes (docs/interface.md section 6)', () => {
  const expected: Record<string, string[]> = {
    MEMBER_NOT_FOUND: ['72', '73', '75', '76', '67', '58', '71', '64', '65', '68', '77', '78'],
    PROVIDER_NOT_RECOGNIZED: ['43', '44', '45', '50', '51', '52', '46', '47', '48', '97'],
    PAYER_NOT_SUPPORTED: ['79', 'T4', '41'],
    PAYER_FAILURE: ['42', '80', '15', '53', '56', '57', '62', '63', 'ZZ', '', 'constructor', '__proto__'],
    TOO_MANY_REQUESTS: ['04'],
  };
  for (const [code, reasons] of Object.entries(expected)) {
    for (const r of reasons) assert.equal(errorCodeForAaa(r), code, `AAA03 ${r}`);
  }
});

test('reason text names the code, its meaning and the follow-up', () => {
  assert.equal(aaaReason('75', 'C'), 'AAA 75: subscriber/insured not found (please correct and resubmit)');
  assert.equal(aaaReason('42', 'R'), 'AAA 42: unable to respond at current time (resubmission allowed)');
  assert.equal(aaaReason('Q9', ''), 'AAA Q9: unlisted reject reason');
});

test('AAA at every level, Y or N in AAA01, reads as a rejection of that level', () => {
  const head = ['BHT*0022*11*T*20250101*1200', 'HL*1**20*1'];
  const cases: [string, string[], string, string][] = [
    ['2000A', [...head, 'AAA*Y**42*R', 'NM1*PR*2*P*****PI*1'], 'payer', 'PAYER_FAILURE'],
    ['2100A', [...head, 'NM1*PR*2*P*****PI*1', 'AAA*N**T4*C'], 'payer', 'PAYER_NOT_SUPPORTED'],
    ['2100B', [...head, 'NM1*PR*2*P*****PI*1', 'HL*2*1*21*0', 'NM1*1P*2*C*****XX*1', 'AAA*N**43*C'], 'provider', 'PROVIDER_NOT_RECOGNIZED'],
    ['2100C', body271(['AAA*Y**75*C']), 'subscriber', 'MEMBER_NOT_FOUND'],
    ['2100D', body271([], ['AAA*Y**67*C']), 'dependent', 'MEMBER_NOT_FOUND'],
  ];
  for (const [loop, body, level, code] of cases) {
    const r = normalize271(interchange('271', body));
    assert.ok(r.ok, loop);
    assert.equal(r.value.kind, 'rejected', loop);
    assert.ok(r.value.kind === 'rejected');
    assert.equal(r.value.level, level, loop);
    assert.equal(r.value.error_code, code, loop);
  }
});

test('the first AAA in payer, provider, subscriber, dependent order wins', () => {
  const r = normalize271(interchange('271', body271(['AAA*Y**72*C'], ['AAA*Y**42*R'])));
  assert.ok(r.ok && r.value.kind === 'rejected');
  assert.equal(r.value.reason_code, '72');
});

test('build271 rejections read back to the same level, code and follow-up', () => {
  const levels = ['payer', 'provider', 'subscriber', 'dependent'] as const;
  const codes = ['42', '43', '50', '58', '72', '75', '79', 'T4', '80', 'AF'];
  fc.assert(
    fc.property(
      inquiryArbitrary,
      fc.constantFrom(...levels),
      fc.constantFrom(...codes),
      fc.constantFrom('C' as const, 'N' as const, 'R' as const, 'W' as const, 'X' as const, 'Y' as const),
      (inquiry: Inquiry, level, reason_code, followup) => {
        const answer: PayerAnswer = { kind: 'reject', level, reason_code, followup, message: 'not written' };
        const r = normalize271(build271(inquiry, answer));
        assert.ok(r.ok);
        assert.deepEqual(r.warnings, []);
        assert.deepEqual(r.value, {
          kind: 'rejected',
          error_code: errorCodeForAaa(reason_code),
          level,
          reason_code,
          followup,
          reason: aaaReason(reason_code, followup),
        });
      },
    ),
    { numRuns: 150 },
  );
});
