/**
 * Finding 9: names are transliterated to the X12 basic character set (José -> JOSE), and a name
 * with a letter that has no Latin spelling is refused with the field named, never sent with the
 * letter dropped (a scan for "李 王" once went out as a DOB-only search).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createCheckValidator } from '../../src/http/check-validator.ts';
import { buildInquiry } from '../../src/operations/inquiry.ts';
import { build270, parse270 } from '../../src/x12/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const validate = createCheckValidator();
const scanBody = (first: string, last: string) => ({ member_first_name: first, member_last_name: last, member_dob: '1988-03-14', zip: '10001' });

/** The NM1 names of the 270 a scan request is sent as. */
function sentNames(first: string, last: string): { first: string | null; last: string | null } {
  const inquiry = buildInquiry({ payer_id: 'SBX-EVERGREEN', first_name: first, last_name: last, dob: '1988-03-14', zip: '10001' }, '2026-06-15');
  const parsed = parse270(build270(inquiry));
  assert.ok(parsed.ok);
  return { first: parsed.value.subscriber.first_name, last: parsed.value.subscriber.last_name };
}

/** Letters with the spelling a US payer expects: the model the service is checked against. */
const SPELLINGS: [string, string][] = [
  ...[...'abcdefghijklmnopqrstuvwxyz'].map((c): [string, string] => [c, c.toUpperCase()]),
  ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c): [string, string] => [c, c]),
  ['é', 'E'],
  ['É', 'E'],
  ['è', 'E'],
  ['ü', 'U'],
  ['Ü', 'U'],
  ['ö', 'O'],
  ['ñ', 'N'],
  ['ç', 'C'],
  ['å', 'A'],
  ['ã', 'A'],
  ['í', 'I'],
  ['ő', 'O'],
  ['š', 'S'],
  ['ž', 'Z'],
  ['ř', 'R'],
  ['ğ', 'G'],
  ['ș', 'S'],
  ['ễ', 'E'],
  ['ą', 'A'],
  ['ß', 'SS'],
  ['Ø', 'O'],
  ['ø', 'O'],
  ['Æ', 'AE'],
  ['æ', 'AE'],
  ['Œ', 'OE'],
  ['Ł', 'L'],
  ['ł', 'L'],
  ['Đ', 'D'],
  ['Þ', 'TH'],
  ['ı', 'I'],
  ['ﬁ', 'FI'],
  ['Ａ', 'A'],
  ['ｚ', 'Z'],
  ['e\u0301', 'E'],
];
const PUNCT: [string, string][] = [
  ["'", "'"],
  ['-', '-'],
  ['.', '.'],
];

const spelled = fc.constantFrom(...SPELLINGS);
const word = fc
  .tuple(spelled, fc.array(fc.oneof({ weight: 6, arbitrary: spelled }, { weight: 1, arbitrary: fc.constantFrom(...PUNCT) }), { maxLength: 7 }))
  .map(([head, rest]) => [head, ...rest]);
/** A name of 1-2 words and what the 270 must carry for it. */
const latinName = fc.array(word, { minLength: 1, maxLength: 2 }).chain((words) =>
  fc.constantFrom(' ', '  ').map((gap) => ({
    name: words.map((w) => w.map(([c]) => c).join('')).join(gap),
    x12: words.map((w) => w.map(([, s]) => s).join('')).join(' '),
  })),
);

/** Letters with no Latin spelling: CJK, Cyrillic, Greek, Arabic, Hebrew, Hangul, Devanagari. */
const RANGES: [number, number][] = [
  [0x4e00, 0x9fff],
  [0x0410, 0x044f],
  [0x0391, 0x03a1],
  [0x03b1, 0x03c9],
  [0x0627, 0x063a],
  [0x05d0, 0x05ea],
  [0xac00, 0xd7a3],
  [0x0915, 0x0939],
];
const foreignLetter = fc
  .constantFrom(...RANGES)
  .chain(([lo, hi]) => fc.integer({ min: lo, max: hi }))
  .map((cp) => String.fromCodePoint(cp));

test('any accepted Latin name is sent as its transliteration, never empty', () => {
  fc.assert(
    fc.property(latinName, latinName, (first, last) => {
      assert.deepEqual(validate('scan', scanBody(first.name, last.name)), []);
      assert.deepEqual(sentNames(first.name, last.name), { first: first.x12, last: last.x12 });
      assert.notEqual(first.x12, '');
    }),
    { numRuns: 400 },
  );
});

test('a name with a letter that has no Latin spelling is refused, naming the field', () => {
  fc.assert(
    fc.property(latinName, foreignLetter, fc.nat(), fc.constantFrom('member_first_name', 'member_last_name'), (base, letter, at, field) => {
      const i = at % (base.name.length + 1);
      const name = base.name.slice(0, i) + letter + base.name.slice(i);
      const body = { ...scanBody('Avery', 'Walsh'), [field]: name };
      const errors = validate('scan', body);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0]!.field, field);
      assert.match(errors[0]!.message, /Latin letters/);
      assert.ok(!errors[0]!.message.includes(name), 'the message does not repeat the name');
    }),
    { numRuns: 300 },
  );
});

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('HTTP: a scan for "李 王" is a 400 naming both fields, on every endpoint that takes names', async () => {
  const bodies: [string, Record<string, unknown>][] = [
    ['/v1/scan', scanBody('李', '王')],
    ['/v1/discover', { ...scanBody('李', '王'), payer_id: 'SBX-EVERGREEN' }],
    ['/v1/medicaid', { member_id: '10070MHOMCD', member_first_name: '李', member_last_name: '王', member_dob: '1999-11-11', patient_state: 'NY' }],
    ['/v1/estimate', { member_id: '10010MHNA', member_first_name: '李', member_last_name: '王', member_dob: '1988-03-14' }],
  ];
  for (const [path, body] of bodies) {
    const res = await server.post(path, body);
    assert.equal(res.status, 400, path);
    assert.equal(res.body.error_code, 'INVALID_REQUEST');
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    assert.deepEqual(fields, ['member_first_name', 'member_last_name'], path);
  }
  const provider = await server.post('/v1/estimate', {
    member_id: '10010MHNA',
    member_first_name: 'Avery',
    member_last_name: 'Walsh',
    member_dob: '1988-03-14',
    provider_last_name: 'Иванов',
  });
  assert.equal(provider.status, 400);
  assert.deepEqual(
    (provider.body.errors as { field: string }[]).map((e) => e.field),
    ['provider_last_name'],
  );
});

test('HTTP: a diacritic name still matches its member ("Avéry Wälsh" finds Avery Walsh)', async () => {
  const res = await server.post('/v1/scan', scanBody('Avéry', 'Wälsh'));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.payer_id, 'SBX-EVERGREEN');
  assert.equal(res.body.demographics.member_id, '10010MHNA');
});
