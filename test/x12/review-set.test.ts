/**
 * The review set (test/fixtures/271-review/README.md): 271s written without reading our rules, each
 * with the answer a careful biller derives from the standard. Every unambiguous case is priced as the
 * reviewer expected, through the path /v1/estimate takes when no carve-out administrator can be asked.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { el, normalize271, tokenize } from '../../src/x12/index.ts';

/** Each set: its folder, how many cases it holds and how many of them are unambiguous (their READMEs). */
const SETS = [
  { dir: '271-review', cases: 40, unambiguous: 38 },
  { dir: '271-review-2', cases: 40, unambiguous: 34 },
  { dir: '271-review-3', cases: 40, unambiguous: 37 },
  { dir: '271-review-4', cases: 40, unambiguous: 38 },
];

interface ReviewCase {
  today: string;
  encounter: { date_of_service: string; procedure_code: string | null; place_of_service: string };
  inputs: { provider_session_cost: number; in_network: boolean };
  expected: Record<string, unknown> & { unambiguous: boolean; rejected?: string; alerts_include?: string[] };
}

/** The patient as the front desk would type them: the 271's own member (2100C, or 2100D for a dependent), read with its own delimiters. */
function memberOf(text: string): Pick<EstimateRequest, 'member_id' | 'member_first_name' | 'member_last_name' | 'member_dob'> {
  const t = tokenize(text);
  const segments = t.ok ? t.value.segments : [];
  const named = segments.filter((s) => s.id === 'NM1' && (el(s, 1) === 'IL' || el(s, 1) === '03'));
  const nm1 = named[named.length - 1];
  const dmgs = segments.filter((s) => s.id === 'DMG' && el(s, 1) === 'D8');
  const dob = dmgs.length > 0 ? el(dmgs[dmgs.length - 1]!, 2) : '19800101';
  return {
    member_id: (nm1 && el(nm1, 9)) || 'X1',
    member_first_name: nm1 ? el(nm1, 4) : '',
    member_last_name: nm1 ? el(nm1, 3) : '',
    member_dob: `${dob.slice(0, 4)}-${dob.slice(4, 6)}-${dob.slice(6, 8)}`,
  };
}

function casesOf(dir: URL) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.271'))
    .sort()
    .map((f) => ({
      name: f.slice(0, -4),
      text: readFileSync(new URL(f, dir), 'latin1'),
      meta: JSON.parse(readFileSync(new URL(`${f.slice(0, -4)}.json`, dir), 'utf8')) as ReviewCase,
    }));
}

const cases = SETS.flatMap((set) => {
  const dir = new URL(`../fixtures/${set.dir}/`, import.meta.url);
  const list = casesOf(dir);
  test(`review set ${set.dir} holds its ${set.cases} cases, ${set.unambiguous} of them unambiguous`, () => {
    assert.equal(list.length, set.cases);
    assert.equal(list.filter((c) => c.meta.expected.unambiguous).length, set.unambiguous);
  });
  return list.map((c) => ({ ...c, name: `${set.dir}/${c.name}` }));
});

for (const { name, text, meta } of cases.filter((c) => c.meta.expected.unambiguous)) {
  test(`review ${name}`, () => {
    const { encounter, expected } = meta;
    const member = memberOf(text);
    // As /v1/estimate reads it: for the member ID asked about.
    const r = normalize271(text, { encounter, memberId: member.member_id });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    if (expected.rejected !== undefined) {
      assert.equal(r.value.kind, 'rejected');
      assert.equal(r.value.kind === 'rejected' ? r.value.error_code : null, expected.rejected);
      return;
    }
    assert.equal(r.value.kind, 'coverage');
    if (r.value.kind !== 'coverage') return;
    const request = { ...member, ...meta.inputs, ...encounter } as EstimateRequest;
    const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), request, meta.today, encounter.date_of_service);
    const actual: Record<string, unknown> = { ...body, status, error_code: 'error_code' in body ? body.error_code : null };
    for (const [field, value] of Object.entries(expected)) {
      if (field === 'unambiguous') continue;
      if (field === 'alerts_include') {
        const codes = body.alerts.map((a) => a.code);
        for (const code of value as string[]) assert.ok(codes.includes(code as (typeof codes)[number]), `${name}: alert ${code} in ${JSON.stringify(codes)}`);
        continue;
      }
      assert.deepEqual(actual[field] ?? null, value, `${name}: ${field}`);
    }
  });
}
