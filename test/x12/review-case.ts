/**
 * One case of a set of 271s written outside the service's rules (review-set.test.ts, public-samples-2.test.ts):
 * the 271 read for its own member, as /v1/estimate reads it when no carve-out administrator can be asked,
 * and held to the answer the set expects.
 */
import assert from 'node:assert/strict';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { el, normalize271, tokenize } from '../../src/x12/index.ts';
import type { AskedPerson } from '../../src/x12/patient.ts';
import type { Segment } from '../../src/x12/tokenizer.ts';

export interface ReviewCase {
  today: string;
  encounter: { date_of_service: string; procedure_code: string | null; place_of_service: string };
  inputs: { provider_session_cost: number; in_network: boolean };
  expected: Record<string, unknown> & { unambiguous: boolean; rejected?: string; alerts_include?: string[] };
}

/**
 * The request the case implies, as the front desk would type it into /v1/estimate: the patient is the 271's
 * last person (the last NM1*IL or NM1*03, the 2100C or 2100D the case names as patient), with that loop's
 * names and date of birth (its own DMG, not another person's); the member ID is the patient's own NM109 when
 * the loop sends one, else the subscriber's (the 2100C above the patient: the ID on the card).
 */
export function memberOf(text: string): Pick<EstimateRequest, 'member_id' | 'member_first_name' | 'member_last_name' | 'member_dob'> {
  const t = tokenize(text);
  const segments = t.ok ? t.value.segments : [];
  const isPerson = (s: Segment) => s.id === 'NM1' && (el(s, 1) === 'IL' || el(s, 1) === '03');
  const at = segments.length - 1 - [...segments].reverse().findIndex(isPerson);
  const nm1 = at < segments.length ? segments[at] : undefined;
  const subscriber = segments
    .slice(0, at + 1)
    .filter((s) => s.id === 'NM1' && el(s, 1) === 'IL')
    .pop();
  // The patient's own DMG: the first after the NM1, before the next HL (the loop's end).
  const loopEnd = segments.findIndex((s, i) => i > at && s.id === 'HL');
  const dmg = segments.slice(at + 1, loopEnd < 0 ? undefined : loopEnd).find((s) => s.id === 'DMG' && el(s, 1) === 'D8');
  const dob = dmg ? el(dmg, 2) : '19800101';
  return {
    member_id: (nm1 && el(nm1, 9)) || (subscriber && el(subscriber, 9)) || 'X1',
    member_first_name: nm1 ? el(nm1, 4) : '',
    member_last_name: nm1 ? el(nm1, 3) : '',
    member_dob: `${dob.slice(0, 4)}-${dob.slice(4, 6)}-${dob.slice(6, 8)}`,
  };
}

/** The person normalize271 is told about, as /v1/estimate tells it (operations/payer-answer.ts `decodeAnswer`). */
export function askedOf(member: ReturnType<typeof memberOf>): AskedPerson {
  return { member_id: member.member_id, first_name: member.member_first_name ?? null, last_name: member.member_last_name ?? null, dob: member.member_dob };
}

/** Reads `text` for its member and asserts every field `meta.expected` names (a failed read is itself a finding). */
export function assertReviewCase(name: string, text: string, meta: ReviewCase): void {
  const { encounter, expected } = meta;
  const member = memberOf(text);
  const r = normalize271(text, { encounter, memberId: member.member_id, person: askedOf(member) });
  assert.ok(r.ok, r.ok ? '' : `${name}: read failed: ${r.error.message}`);
  if (expected.rejected !== undefined) {
    assert.equal(r.value.kind, 'rejected', `${name}: kind`);
    assert.equal(r.value.kind === 'rejected' ? r.value.error_code : null, expected.rejected, `${name}: rejection`);
    return;
  }
  assert.equal(r.value.kind, 'coverage', `${name}: kind`);
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
}
