/**
 * Payer search over an imported catalog of 20,000 payers (issue 23, finding 3): CPU time per query
 * of the indexed search (src/operations/payer-search.ts) beside the search it replaced
 * (test/support/reference-payer-search.ts), for everyday queries, typos, and the costliest queries
 * the route still takes (8 words, one-letter words, 100 characters). The catalog is generated from a
 * fixed seed: insurer words and made-up place and company names, 2 to 7 words each.
 * Prints the figures; bench/RESULTS.md's "Payer search over 20,000 payers" section is written by hand from them.
 * Run: node --import tsx bench/payer-search.ts [--payers N]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_QUERY_WORDS, payerQueryProblem, preparePayerSearch } from '../src/operations/payer-search.ts';
import type { PayerInfo } from '../src/payers/network.ts';
import { referenceSearchPayers } from '../test/support/reference-payer-search.ts';

const { values } = parseArgs({ options: { payers: { type: 'string', default: '20000' } } });
const PAYERS = Number(values.payers);

let seed = 23;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const INSURER = [
  'health',
  'healthcare',
  'insurance',
  'plan',
  'plans',
  'care',
  'medical',
  'benefits',
  'mutual',
  'life',
  'group',
  'network',
  'services',
  'administrators',
];
const KIND = ['blue', 'cross', 'shield', 'united', 'first', 'choice', 'community', 'family', 'senior', 'advantage', 'medicaid', 'medicare', 'dental', 'vision'];
const SYLLABLES = [
  'am',
  'ber',
  'cal',
  'den',
  'el',
  'for',
  'gan',
  'hur',
  'is',
  'jo',
  'kel',
  'lan',
  'mor',
  'nor',
  'ot',
  'pen',
  'quin',
  'ros',
  'sel',
  'ton',
  'vi',
  'wes',
  'yar',
  'zen',
];
const madeUp = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join('');
const PLACES = Array.from({ length: 1_500 }, madeUp);
const COMPANIES = Array.from({ length: 3_000 }, madeUp);

function catalog(n: number): PayerInfo[] {
  return Array.from({ length: n }, (_, i) => {
    const words = [pick(COMPANIES), ...Array.from({ length: Math.floor(random() * 4) }, () => pick(random() < 0.5 ? KIND : INSURER))];
    if (random() < 0.5) words.push('of', pick(PLACES));
    const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
    return {
      payer_id: `P${String(10_000 + i)}`,
      name,
      supports_search: false,
      medicaid_state: null,
      aliases: random() < 0.3 ? [`${pick(COMPANIES).toUpperCase()}${i}`] : [],
    };
  });
}

const payers = catalog(PAYERS);
// A payer of two words or more, the first long enough to forgive a typo in.
const sample = payers.slice(PAYERS >> 1).find((p) => p.name.split(' ').length > 1 && p.name.split(' ')[0]!.length >= 6)!;
const [w1, w2] = sample.name.toLowerCase().split(' ');
const typo = (w: string) => (w.length > 5 ? w.slice(0, 2) + w[3]! + w[2]! + w.slice(4) : `${w}x`);
const QUERIES: [string, string][] = [
  ['a payer ID', sample.payer_id],
  ['a name', sample.name],
  ['a word of a name, cut short', w1!.slice(0, 4)],
  ['two words, one mistyped', `${typo(w1!)} ${w2 ?? 'health'}`],
  ['an insurer word found everywhere', 'health'],
  ['a word found nowhere', 'zzzzzzzz'],
  ['one letter, in almost every name', 'e'],
  ['three insurer words, each in thousands of names', 'health care plan'],
  [`${MAX_QUERY_WORDS} words, mistyped`, 'blue crss shield of unitd healthcare insurence compny'],
  [`${MAX_QUERY_WORDS} one-letter words`, 'a b c d e f g h'],
  ['100 characters in one word', 'x'.repeat(100)],
  ['100 characters, 8 long words', Array.from({ length: 8 }, (_, i) => `${pick(COMPANIES)}${'abcdefgh'[i]!}`.padEnd(11, 'e')).join(' ')],
];

/** CPU milliseconds of one call, the median of `runs`. */
function cpuMs(run: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    run();
    const used = process.cpuUsage(t);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[runs >> 1]!;
}

console.log(`${PAYERS} payers, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; CPU time per query, median`);
const search = preparePayerSearch(payers);
const build = cpuMs(() => preparePayerSearch(payers)('warm'), 3);
console.log(`index built at the first search: ${build.toFixed(1)} ms of CPU\n`);
console.log('| query | answers | old search | indexed search |');
console.log('|---|---|---|---|');
let worst = 0;
for (const [label, query] of QUERIES) {
  if (payerQueryProblem(query)) throw new Error(`${label}: refused by the route (${payerQueryProblem(query)})`);
  const answers = search(query);
  const same = JSON.stringify(answers) === JSON.stringify(referenceSearchPayers(payers, query));
  if (!same) throw new Error(`${label}: the indexed search answers differently from the old one`);
  for (let i = 0; i < 20; i++) search(query);
  const now = cpuMs(() => search(query), 51);
  const old = cpuMs(() => referenceSearchPayers(payers, query), 3);
  worst = Math.max(worst, now);
  console.log(`| ${label} | ${answers.length} | ${old.toFixed(1)} ms | ${now.toFixed(2)} ms |`);
}
console.log(`\nslowest indexed query: ${worst.toFixed(2)} ms of CPU (target: under 5 ms)`);
