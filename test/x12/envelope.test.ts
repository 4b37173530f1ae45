import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readInterchange } from '../../src/x12/index.ts';
import { interchange, SAMPLE, sample } from './x12-fixtures.ts';

const lines = (text: string) => text.split('~\n').filter((s) => s !== '');
const join = (segs: string[]) => segs.map((s) => `${s}~\n`).join('');
const without = (text: string, id: string) => join(lines(text).filter((s) => !s.startsWith(`${id}*`)));

test('the error sample: SE02 differs from ST02, read with a warning', () => {
  const r = readInterchange(sample(SAMPLE.error271));
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, ['SE02 control number 4323 at segment 10 does not match ST02 4321']);
  const tx = r.value.groups[0]!.transactions[0]!;
  assert.equal(tx.set_id, '271');
  assert.equal(tx.body.length, 6);
});

test('well-formed samples read without warnings', () => {
  for (const name of [SAMPLE.subscriber270, SAMPLE.subscriber271, SAMPLE.dependent270, SAMPLE.dependent271]) {
    const r = readInterchange(sample(name));
    assert.ok(r.ok, name);
    assert.deepEqual(r.warnings, [], name);
  }
});

test('count and control-number mismatches are warnings naming the segment', () => {
  const text = sample(SAMPLE.subscriber271).replace('SE*22*4321', 'SE*21*4321').replace('GE*1*1', 'GE*2*7').replace('IEA*1*000000907', 'IEA*3*000000908');
  const r = readInterchange(text);
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, [
    'SE01 segment count 21 at segment 24 does not match the 22 segments of the transaction set',
    'GE01 transaction count 2 at segment 25 does not match the 1 transaction set(s)',
    'GE02 control number 7 at segment 25 does not match GS06 1',
    'IEA01 group count 3 at segment 26 does not match the 1 functional group(s)',
    'IEA02 control number 000000908 at segment 26 does not match ISA13 000000907',
  ]);
});

test('missing trailers, missing ST and misplaced segments are errors with positions', () => {
  const good = sample(SAMPLE.subscriber271);
  const cases: [string, string, RegExp, number, string][] = [
    ['no SE', without(good, 'SE'), /GE at segment 24 inside an open transaction set \(missing SE\)/, 24, 'GE'],
    ['truncated after ST body', join(lines(good).slice(0, 10)), /has no SE/, 11, 'SE'],
    ['no ST', join(lines(good).filter((_, i) => i < 2 || i > 23)), /no transaction set/, 4, 'IEA'],
    ['no GS', without(without(good, 'GS'), 'GE'), /ST at segment 2 outside a functional group/, 2, 'ST'],
    ['segment after SE', good.replace('GE*1*1', 'DTP*346*D8*20060101~\nGE*1*1'), /DTP at segment 25 is outside a transaction set/, 25, 'DTP'],
    ['second ISA inside', good.replace('GE*1*1', `${lines(good)[0]}~\nGE*1*1`), /ISA at segment 25 inside an open interchange/, 25, 'ISA'],
    ['ST inside ST', good.replace('BHT*', 'ST*271*9*005010X279A1~\nBHT*'), /ST at segment 4 inside an open transaction set/, 4, 'ST'],
  ];
  for (const [name, text, message, index, id] of cases) {
    const r = readInterchange(text);
    assert.equal(r.ok, false, name);
    if (r.ok) continue;
    assert.match(r.error.message, message, name);
    assert.equal(r.error.segment_index, index, name);
    assert.equal(r.error.segment_id, id, name);
    assert.ok(r.error.offset !== null && r.error.offset >= 0, name);
  }
});

test('a missing GE or IEA after complete transaction sets is read with a warning (issue 14: real 271s are messy)', () => {
  const good = sample(SAMPLE.subscriber271);
  const noGe = readInterchange(without(good, 'GE'));
  assert.ok(noGe.ok);
  assert.equal(noGe.value.groups[0]?.ge, null);
  assert.equal(noGe.value.groups[0]?.transactions.length, 1);
  assert.match(noGe.warnings.join('\n'), /has no GE; closed at the IEA at segment 25/);
  const noIea = readInterchange(without(good, 'IEA'));
  assert.ok(noIea.ok);
  assert.equal(noIea.value.iea, null);
  assert.match(noIea.warnings.join('\n'), /has no IEA/);
  const neither = readInterchange(without(without(good, 'GE'), 'IEA'));
  assert.ok(neither.ok);
  assert.equal(neither.warnings.length, 2);
});

test('segments after IEA are ignored with a warning; a second interchange too', () => {
  const one = interchange('271', ['BHT*0022*11*T*20250101*1200']);
  const junk = readInterchange(`${one}DTP*346*D8*20250101~\n`);
  assert.ok(junk.ok);
  assert.match(junk.warnings[0]!, /1 segment\(s\) after IEA ignored/);
  const two = readInterchange(one + one);
  assert.ok(two.ok);
  assert.match(two.warnings[0]!, /a second interchange starts at segment 8/);
});

test('several transaction sets and groups are kept in order', () => {
  const segs = lines(interchange('271', ['BHT*0022*11*A*20250101*1200']));
  const tx2 = ['ST*271*0002*005010X279A1', 'BHT*0022*11*B*20250101*1200', 'SE*3*0002'];
  const text = join([...segs.slice(0, 5), ...tx2, 'GE*2*42', ...segs.slice(6)]);
  const r = readInterchange(text);
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(
    r.value.groups[0]!.transactions.map((t) => t.control_number),
    ['0001', '0002'],
  );
});
