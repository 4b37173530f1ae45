/**
 * Scores the 271 review sets (test/fixtures/271-review*): per set, the unambiguous cases answered
 * right, those answered unknown (206 or a null figure where a price was expected) and the confident
 * wrong ones (200 with a member share other than the expected, or where none, unknown, was). Run with
 * `node --import tsx scripts/review-score.ts [set ...]`; the READMEs record its first-run lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { EstimateRequest } from '../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../src/operations/carve-out.ts';
import { estimateBody } from '../src/operations/estimate.ts';
import { normalize271 } from '../src/x12/index.ts';
import { askedOf, memberOf, type ReviewCase } from '../test/x12/review-case.ts';

const root = new URL('../test/fixtures/', import.meta.url);
const sets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : readdirSync(root).filter((d) => d.startsWith('271-review'));

for (const set of sets) {
  const dir = new URL(`${set}/`, root);
  const tally = { right: 0, unknown: 0, wrong: 0, other: 0 };
  const notes: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.271'))
    .sort()) {
    const meta = JSON.parse(readFileSync(new URL(f.replace(/\.271$/, '.json'), dir), 'utf8')) as ReviewCase;
    if (!meta.expected.unambiguous) continue;
    const text = readFileSync(new URL(f, dir), 'latin1');
    const member = memberOf(text);
    const r = normalize271(text, { encounter: meta.encounter, memberId: member.member_id, person: askedOf(member) });
    let verdict: keyof typeof tally = 'other';
    let seen = '';
    if (r.ok && r.value.kind === 'coverage') {
      const request = { ...member, ...meta.inputs, ...meta.encounter } as EstimateRequest;
      const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, meta.today, meta.encounter.date_of_service);
      const actual: Record<string, unknown> = { ...body, status, error_code: 'error_code' in body ? body.error_code : null };
      const mismatched = Object.entries(meta.expected).filter(
        ([k, v]) => !['unambiguous', 'alerts_include', 'rejected'].includes(k) && JSON.stringify(actual[k] ?? null) !== JSON.stringify(v),
      );
      const expectedMember = meta.expected.member_obligation;
      if (mismatched.length === 0) verdict = 'right';
      // A price where another price, or none (unknown), was expected: answered with confidence, wrongly.
      else if (status === 200 && body.member_obligation !== null && body.member_obligation !== expectedMember) verdict = 'wrong';
      else if (status === 206 || mismatched.some(([k]) => actual[k] === null || actual[k] === undefined)) verdict = 'unknown';
      seen = mismatched.map(([k, v]) => `${k} ${JSON.stringify(actual[k] ?? null)} (expected ${JSON.stringify(v)})`).join('; ');
    } else {
      verdict =
        meta.expected.rejected !== undefined && r.ok && r.value.kind === 'rejected' && r.value.error_code === meta.expected.rejected ? 'right' : 'other';
      seen = r.ok ? r.value.kind : r.error.message;
    }
    tally[verdict]++;
    if (verdict !== 'right') notes.push(`  ${verdict.padEnd(7)} ${f.replace(/\.271$/, '')}: ${seen}`);
  }
  const total = tally.right + tally.unknown + tally.wrong + tally.other;
  console.log(`${set}: ${tally.right} of ${total} right, ${tally.unknown} unknown, ${tally.wrong} confidently wrong, ${tally.other} other`);
  for (const n of notes) console.log(n);
}
