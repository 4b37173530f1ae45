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
import { normalize271 } from '../../src/x12/index.ts';

const DIR = new URL('../fixtures/271-review/', import.meta.url);

interface ReviewCase {
  today: string;
  encounter: { date_of_service: string; procedure_code: string | null; place_of_service: string };
  inputs: { provider_session_cost: number; in_network: boolean };
  expected: Record<string, unknown> & { unambiguous: boolean; rejected?: string; alerts_include?: string[] };
}

/** The patient as the front desk would type them: the 271's own member (2100C, or 2100D for a dependent). */
function memberOf(text: string): Pick<EstimateRequest, 'member_id' | 'member_first_name' | 'member_last_name' | 'member_dob'> {
  const segments = text.split(/~\s*/);
  const sep = segments[0]![3]!;
  const named = (s: string) => s.startsWith(`NM1${sep}IL${sep}`) || s.startsWith(`NM1${sep}03${sep}`);
  const nm1 = [...segments].reverse().find(named)?.split(sep) ?? [];
  const dob =
    [...segments]
      .reverse()
      .find((s) => s.startsWith(`DMG${sep}D8`))
      ?.split(sep)[2] ?? '19800101';
  return {
    member_id: nm1[9] || 'X1',
    member_first_name: nm1[4] ?? '',
    member_last_name: nm1[3] ?? '',
    member_dob: `${dob.slice(0, 4)}-${dob.slice(4, 6)}-${dob.slice(6, 8)}`,
  };
}

const cases = readdirSync(DIR)
  .filter((f) => f.endsWith('.271'))
  .sort()
  .map((f) => ({
    name: f.slice(0, -4),
    text: readFileSync(new URL(f, DIR), 'latin1'),
    meta: JSON.parse(readFileSync(new URL(`${f.slice(0, -4)}.json`, DIR), 'utf8')) as ReviewCase,
  }));

test('the review set holds its 40 cases, 38 of them unambiguous', () => {
  assert.equal(cases.length, 40);
  assert.equal(cases.filter((c) => c.meta.expected.unambiguous).length, 38);
});

for (const { name, text, meta } of cases.filter((c) => c.meta.expected.unambiguous)) {
  test(`review ${name}`, () => {
    const { encounter, expected } = meta;
    const r = normalize271(text, { encounter });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    if (expected.rejected !== undefined) {
      assert.equal(r.value.kind, 'rejected');
      assert.equal(r.value.kind === 'rejected' ? r.value.error_code : null, expected.rejected);
      return;
    }
    assert.equal(r.value.kind, 'coverage');
    if (r.value.kind !== 'coverage') return;
    const request = { ...memberOf(text), ...meta.inputs, ...encounter } as EstimateRequest;
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
