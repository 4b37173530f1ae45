/**
 * lacksBehavioralDetail (src/operations/service-types.ts) against its tokenizing version before, in one
 * process, alternating rounds, by CPU time: µs per call on the x12-parse corpus (build271, fixed seeds),
 * the same with every strong behavioral EB03 code made 30 (no early answer: every segment read), and
 * the sandbox catalog's subscriber answers as the simulator sends them.
 *
 *   node --import tsx bench/lacks-behavioral-detail.ts
 */
import type { Inquiry } from '../src/domain/inquiry.ts';
import fc from 'fast-check';
import { lacksBehavioralDetail } from '../src/operations/service-types.ts';
import { answerInquiry } from '../src/payers/simulator/answer.ts';
import { CATALOG } from '../src/sandbox/catalog.ts';
import { STRONG_BH_TIER, tierOf } from '../src/x12/codes.ts';
import { build271, el, repetitions, tokenize } from '../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from '../test/x12/coverage-arbitrary.ts';

function before(x12: string): boolean {
  const tokens = tokenize(x12);
  if (!tokens.ok) return false;
  let benefits = 0;
  for (const seg of tokens.value.segments) {
    if (seg.id !== 'EB') continue;
    benefits++;
    for (const code of repetitions(el(seg, 3), tokens.value.delimiters)) {
      const tier = tierOf(code);
      if (tier >= 0 && tier <= STRONG_BH_TIER) return false;
    }
  }
  return benefits > 0;
}

const size = 200;
const coverages = fc.sample(coverageArbitrary, { seed: 271, numRuns: size });
const inquiries = fc.sample(inquiryArbitrary, { seed: 270, numRuns: size });
const flat = (t: string) => Buffer.from(t, 'utf8').toString('utf8');
const corpus = coverages.map((coverage, i) => flat(build271(inquiries[i]!, { kind: 'coverage', coverage }, { control_number: i + 1 })));
// Worst case: no strong code anywhere, so both read every segment (answer true).
const noBh = corpus.map((d) =>
  flat(
    d.replace(
      /(EB\*[^*~]*\*[^*~]*\*)([^*~]*)/g,
      (_m, head: string, codes: string) =>
        head +
        codes
          .split('^')
          .map((c) => (tierOf(c) >= 0 && tierOf(c) <= 1 ? '30' : c))
          .join('^'),
    ),
  ),
);
const catalog: string[] = [];
for (const [i, m] of CATALOG.members.entries()) {
  if (m.subscriber) continue;
  const base = inquiries[i]!;
  const { first_name, last_name, dob } = m.person;
  const inq: Inquiry = {
    ...base,
    payer: { id: m.payer_id, name: null },
    subscriber: { member_id: m.member_id, first_name, last_name, dob, zip: null },
    dependent: null,
  };
  const a = answerInquiry(CATALOG, m.payer_id, inq, '2026-06-15');
  if (a.kind === 'x12') catalog.push(flat(a.x12));
}
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
for (const [name, docs] of [
  ['bench corpus', corpus],
  ['no BH codes', noBh],
  ['sandbox catalog answers', catalog],
] as const) {
  for (const d of docs) if (before(d) !== lacksBehavioralDetail(d)) throw new Error('mismatch');
  const trues = docs.filter(before).length;
  const bytes = docs.reduce((a, d) => a + d.length, 0) / docs.length;
  const fns = { before, after: lacksBehavioralDetail };
  const res: Record<string, number[]> = { before: [], after: [] };
  let sink = 0;
  for (let r = 0; r < 60; r++) {
    const order = r % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const);
    for (const k of order) {
      const fn = fns[k];
      const t0 = cpu();
      let n = 0;
      do {
        for (const d of docs) if (fn(d)) sink++;
        n += docs.length;
      } while (cpu() - t0 < 40_000);
      res[k]!.push((cpu() - t0) / n);
    }
  }
  const med = (xs: number[]) => {
    const s = xs.slice(10).sort((a, b) => a - b);
    return s[s.length >> 1]!;
  };
  console.log(
    `${name}: ${docs.length} docs, mean ${bytes.toFixed(0)} chars, ${trues} true; before ${med(res.before!).toFixed(2)} us/call, after ${med(res.after!).toFixed(2)} us/call, ratio ${(med(res.before!) / med(res.after!)).toFixed(1)}x (sink ${sink > 0})`,
  );
}
