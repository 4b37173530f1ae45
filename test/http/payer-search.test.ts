/**
 * Payer search through its index (issue 23, finding 3): the same ranked answers as the search it
 * replaced (test/support/reference-payer-search.ts) on random catalogs and queries of up to
 * MAX_QUERY_WORDS words; longer queries refused; searches rate-limited per key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_QUERY_WORDS, payerQueryProblem, preparePayerSearch } from '../../src/operations/payer-search.ts';
import { PAYER_SEARCHES_PER_MINUTE } from '../../src/http/routes/payers.ts';
import type { PayerInfo } from '../../src/payers/network.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { referenceSearchPayers } from '../support/reference-payer-search.ts';

const WORDS = [
  'blue',
  'cross',
  'shield',
  'united',
  'unitedhealthcare',
  'healthcare',
  'health',
  'aetna',
  'cigna',
  'humana',
  'medicaid',
  'medicare',
  'of',
  'new',
  'york',
  'california',
  'plan',
  'plans',
  'insurance',
  'company',
  'care',
  'first',
  'choice',
  'anthem',
  'permanente',
  'molina',
  'wellcare',
  'ambetter',
  'tricare',
  'mh',
  'a',
  'ab',
  'ba',
  'abc',
  'acb',
  '8',
  '87726',
];

/** A word as a person might type it: a letter changed, dropped, added, or two swapped; or cut short. */
const typed = (word: string) =>
  fc.tuple(fc.nat(), fc.constantFrom('same', 'change', 'drop', 'add', 'swap', 'cut', 'upper'), fc.constantFrom('a', 'e', 'x', '1')).map(([at, how, ch]) => {
    const i = word.length === 0 ? 0 : at % word.length;
    switch (how) {
      case 'change':
        return word.slice(0, i) + ch + word.slice(i + 1);
      case 'drop':
        return word.slice(0, i) + word.slice(i + 1);
      case 'add':
        return word.slice(0, i) + ch + word.slice(i);
      case 'swap':
        return i + 1 < word.length ? word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2) : word;
      case 'cut':
        return word.slice(0, Math.max(1, i));
      case 'upper':
        return word.toUpperCase();
      default:
        return word;
    }
  });

const separator = fc.constantFrom(' ', ' ', '-', ' & ', ', ', '/', '.');
const phrase = (words: fc.Arbitrary<string>, max: number) =>
  fc
    .tuple(fc.array(words, { minLength: 1, maxLength: max }), fc.array(separator, { minLength: max, maxLength: max }))
    .map(([ws, seps]) => ws.map((w, i) => (i === 0 ? w : `${seps[i]!}${w}`)).join(''));

const payerArb = fc.record({
  name: fc.oneof(phrase(fc.constantFrom(...WORDS), 6), fc.string({ maxLength: 12 })),
  payer_id: fc.oneof(fc.stringMatching(/^[A-Z0-9]{1,6}$/), fc.constantFrom('87726', 'SBX-BLUE', '60054', 'BCBS-NY')),
  aliases: fc.array(fc.oneof(fc.stringMatching(/^[A-Z0-9-]{1,8}$/), fc.constantFrom('blue', 'AETNA', 'uhc')), { maxLength: 2 }),
});

const catalogArb = fc
  .array(payerArb, { minLength: 0, maxLength: 30 })
  .map((list) => list.map((p): PayerInfo => ({ payer_id: p.payer_id, name: p.name, supports_search: false, medicaid_state: null, aliases: p.aliases })));

const queryArb = (catalog: PayerInfo[]) => {
  const catalogWords = [...new Set(catalog.flatMap((p) => `${p.name} ${p.payer_id} ${(p.aliases ?? []).join(' ')}`.split(/[^A-Za-z0-9]+/)).filter(Boolean))];
  const words = catalogWords.length > 0 ? fc.oneof(fc.constantFrom(...catalogWords), fc.constantFrom(...WORDS)) : fc.constantFrom(...WORDS);
  return fc.oneof(
    phrase(words.chain(typed), MAX_QUERY_WORDS),
    phrase(words, 3),
    fc.string({ maxLength: 10 }),
    fc.constantFrom('', ' ', '---', 'a', 'blue cross blue shield', 'unitedhealthcare', 'untiedhealthcare', 'medicad', 'BLUE-cross'),
  );
};

const ids = (list: PayerInfo[]) => list.map((p) => p.payer_id);

test('the indexed search answers as the old one did: same payers, same ranks, same order', () => {
  fc.assert(
    fc.property(
      catalogArb.chain((catalog) =>
        fc.tuple(fc.constant(catalog), fc.array(queryArb(catalog), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 })),
      ),
      ([catalog, queries, limit]) => {
        const search = preparePayerSearch(catalog);
        for (const query of queries) {
          fc.pre(payerQueryProblem(query) === null);
          const got = search(query, limit);
          const want = referenceSearchPayers(catalog, query, limit);
          assert.deepEqual(ids(got), ids(want), `query ${JSON.stringify(query)}`);
          assert.deepEqual(got, want);
        }
      },
    ),
    { numRuns: 3_000 },
  );
});

test('the same on a catalog of real-looking names with typed queries', () => {
  const catalog: PayerInfo[] = [
    ['87726', 'UnitedHealthcare', ['UHC']],
    ['60054', 'Aetna', []],
    ['62308', 'Cigna Health and Life Insurance Company', ['CIGNA']],
    ['SBX-BLUE', 'Blue Cross Blue Shield of New York', ['BCBSNY', 'EMPIRE']],
    ['BCBS-CA', 'Blue Shield of California', []],
    ['MCD-NY', 'New York State Medicaid', []],
    ['61101', 'Humana', []],
    ['MOLNA', 'Molina Healthcare of California', []],
    ['94135', 'Kaiser Permanente', ['KP']],
    ['TRI', 'TRICARE East', []],
  ].map(([payer_id, name, aliases]) => ({
    payer_id: payer_id as string,
    name: name as string,
    supports_search: false,
    medicaid_state: null,
    aliases: aliases as string[],
  }));
  const search = preparePayerSearch(catalog);
  for (const query of [
    'untied',
    'unitedhealhtcare',
    'blue shield',
    'sheild blue',
    'blu',
    'cal',
    'permanete kaiser',
    'medicaid ny',
    'uhc',
    '87726',
    '8',
    'health',
    'xyz',
    'molina calfornia',
  ]) {
    assert.deepEqual(ids(search(query)), ids(referenceSearchPayers(catalog, query)), query);
  }
  assert.deepEqual(ids(search('unitedhealhtcare')), ['87726'], 'a swap of two letters is forgiven');
  assert.deepEqual(ids(search('blue')), ['SBX-BLUE', 'BCBS-CA']);
});

test(`a query of more than ${MAX_QUERY_WORDS} different words is refused; repeated words count once`, () => {
  assert.equal(payerQueryProblem('one two three four five six seven eight'), null);
  assert.equal(payerQueryProblem('blue blue blue blue blue blue blue blue blue blue'), null);
  assert.equal(payerQueryProblem('one two three four five six seven eight nine'), `query has 9 different words; at most ${MAX_QUERY_WORDS}`);
});

describe('GET /v1/payers?query=', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a query of too many words is a 400 naming the limit', async () => {
    const res = await server.get(`/v1/payers?query=${encodeURIComponent('a b c d e f g h i j k l m n o p')}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error_code, 'INVALID_REQUEST');
    assert.match(res.body.message, /at most 8/);
  });

  test(`a key may search ${PAYER_SEARCHES_PER_MINUTE} times a minute; listing is not counted, and another key keeps its own`, async () => {
    const key = { apikey: (await server.runtime.keys.create({ name: 'searcher', env: 'sandbox' })).secret };
    for (let i = 0; i < PAYER_SEARCHES_PER_MINUTE; i++) {
      const res = await server.get(`/v1/payers?query=sbx${i}`, key);
      assert.equal(res.status, 200);
    }
    const refused = await server.get('/v1/payers?query=harbor', key);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'TOO_MANY_REQUESTS');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await server.get('/v1/payers', key)).status, 200, 'the list itself is not a search');
    assert.equal((await server.get('/v1/payers?query=harbor')).status, 200, 'another key');
  });
});
