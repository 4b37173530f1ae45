/** Codes from the document are looked up in tables: one named like an Object.prototype property is an unknown code like any other. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalize271, parse999 } from '../../src/x12/index.ts';
import { aaaPayerErrors } from '../../src/x12/payer-errors.ts';
import { body271, interchange } from './x12-fixtures.ts';

const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf'];
/** Some code no table lists, lower case like the names (an AAA text echoes only well-formed codes); it appears nowhere else below. */
const UNKNOWN = 'zqz';

/** JSON of f(name), and of f(UNKNOWN) with UNKNOWN written back as name: equal when the name reads as unknown. */
function same(f: (code: string) => unknown): void {
  for (const name of NAMES) {
    const got = JSON.stringify(f(name));
    const want = JSON.stringify(f(UNKNOWN)).replaceAll(UNKNOWN, name);
    assert.equal(got, want, name);
  }
}

const doc271 = (code: string) =>
  interchange(
    '271',
    body271([
      `EB*1**30*${code}*PLAN`,
      'EB*B*IND*MH***27*25*****Y',
      'III*ZZ*11',
      `III*ZZ*${code}`,
      `EB*R**30*${code}`,
      'NM1*PRP*2*OTHER PAYER',
      `EB*C*IND*MH***${code}*100*****Y`,
      `EB*A*IND*${code}*****.2****Y`,
    ]),
  );

test('EB04 plan and program codes, EB06, EB03 and III place codes named like Object.prototype properties read as unknown', () => {
  same((code) => {
    const trace: unknown[] = [];
    const r = normalize271(doc271(code), { trace: trace as never, encounter: { date_of_service: '2025-01-15', procedure_code: null, place_of_service: '11' } });
    return [r, trace];
  });
  const r = normalize271(doc271('constructor'));
  assert.ok(r.ok && r.value.kind === 'coverage');
  assert.equal(r.value.coverage.insurance_type, 'commercial');
  assert.equal(r.value.coverage.plan_type, null);
});

test('AAA reject and follow-up codes named like Object.prototype properties read as unlisted', () => {
  same((code) => normalize271(interchange('271', body271([`AAA*N**${code}*${code}`]))));
  same((code) => normalize271(interchange('271', body271(['EB*1**30', `AAA*N**${code}*C`]))));
});

test('HL level codes and 999 error codes named like Object.prototype properties read as unknown', () => {
  same((code) => aaaPayerErrors(interchange('271', [`HL*1**${code}*1`, 'AAA*N**75*C'])));
  same((code) =>
    parse999(interchange('999', ['AK1*HS*17*005010X279A1', 'AK2*270*0001', `IK3*NM1*3**${code}`, `IK4*1**${code}`, `IK5*R*${code}`, 'AK9*R*1*1*0'])),
  );
});
