/**
 * Writes a 005010X279A1 271 from a payer's answer. It is the inverse of normalize-271.ts: the
 * sandbox answers with it and the normalizer must read every Coverage field back unchanged.
 *
 * Coverage field            271 encoding (S = MH, or 30 when mental_health_coverage is unknown;
 *                           net = EB12 Y in network / N out of network)
 * ------------------------  ---------------------------------------------------------------------
 * payer_id, payer_name      2100A NM1*PR*2*name*****PI*id
 * member, subscriber        self: 2100C NM1*IL*1*last*first****MI*id, N3*line1*line2,
 *                           N4*city*state*zip, DMG*D8*dob*gender (no N3/N4: address null).
 *                           Otherwise 2100C is the subscriber and 2000D/2100D the member:
 *                           NM1*03*1*last*first, REF*1W*member id (2100D NM109 is not used), ...
 * relationship_to_subscriber 2100D INS*N*01 spouse / 19 child / G8 other; no 2000D: self
 * payer_corrected_demographics INS*Y*18*001*25 (2100C) or INS*N*rel*001*25 (2100D)
 * group_id, group_name      REF*6P*group id*group name (member's 2100 loop)
 * plan_begin/end_date       DTP*346 / DTP*347 (member's 2100 loop)
 * eligibility_end_date      DTP*357
 * coverage_status           plan-level EB*1|5|6**30*EB04*plan name (active / pending / inactive)
 * plan_name                 EB05 of the plan-level EB
 * insurance_type, plan_type plan-level EB04: commercial HM/PR/EP/PS/IN/C1 (HMO/PPO/EPO/POS/
 *                           INDEMNITY/none); medicare MB; medicare_advantage HN (HMO unless a
 *                           plan-type EB says otherwise); medicaid MC; qmb QM; managed_medicaid MC
 *                           plus EB*MC**30; marketplace = commercial + MSG QUALIFIED HEALTH PLAN.
 *                           A government program with a plan type adds EB*status**30*planTypeCode.
 *                           plan_type HDHP: commercial C1 with the HDHP hint (is_hdhp)
 * is_marketplace/bluecard/hdhp MSG QUALIFIED HEALTH PLAN / BLUECARD / HIGH DEDUCTIBLE HEALTH PLAN
 * messages                  MSG under the plan-level EB, after the hints
 * mental_health_coverage    EB*1**MH active, EB*6**MH inactive, carved_out: EB*1**MH + third
 *                           party below, unknown: no MH status EB (benefits then under 30)
 * in_/out_of_network        a status EB per network, EB*st**S*********net (st: the MH status, or
 *                           the plan's when S is 30); its MSG says DEDUCTIBLE WAIVED or DEDUCTIBLE
 *                           APPLIES when deductible_applies differs from "a deductible is reported
 *                           beside a copay or coinsurance"
 *   copayment               EB*B**S***27*dollars****net
 *   coinsurance             EB*A**S*****share****net (EB08 0.2 = 20 %)
 *   deductible              EB*C*IND|FAM*S***23*dollars****net (total), EB06 29 (remaining);
 *                           all four amounts unknown: EB*C**S*********net
 *   oop_max                 the same with EB*G
 *   visit_limit             EB*F**S***23***VS*visits**net (total), EB06 29 (remaining)
 * telehealth                EB*B / EB*A as above followed by 2115 III*ZZ*02 (place of service 02)
 * pcp                       EB*L, LS*2120, NM1*P3*1*last*first****XX*npi (person), NM1*P3*2*org
 *                           (organization; it carries the NPI when no person is named), LE*2120
 * third_party_payer         EB*U**MH, LS*2120, NM1*PR*2*name*****PI*id, PER*IC**TE*phone, LE*2120
 * utilization_manager       EB*U**MH, LS*2120, NM1*X3*2*name*****PI*id, PER*IC**TE*phone, LE*2120
 * additional_policies       EB*R**30*EB04, REF*IG*policy number, LS*2120,
 *                           NM1*PRP|SEP|TTP|PR*2*name*****PI*id (primary/secondary/tertiary/unknown), LE*2120
 * next_plan_year            EBs with DTP*348*D8*begin (after the current plan begin and end):
 *                           EB*1**30 + REF*1W*new member id; in network: EB*1**S*********Y and
 *                           EB*B / EB*A / EB*C*IND (23) / EB*G*IND (23) as above
 *
 * What does not come back as written (test/x12/coverage-arbitrary.ts generates only the rest):
 * - text is upper-cased, transliterated and cleaned of delimiters (cleanText), within X12 lengths
 * - a visit limit with neither a total nor a remaining count (EB09/EB10 go together): null
 * - on a plan not inactive, a plan end that is no anniversary of the plan begin (and no next plan
 *   year begins the day after) reads as a termination: eligibility_end_date, plan_end_date null
 * - medicare_advantage without a plan type reads as HMO (HN is an HMO code); HDHP as the plan
 *   type of a government program reads as null; on a commercial plan, plan_type HDHP needs
 *   is_hdhp, is_hdhp without a plan type reads as plan_type HDHP, and is_marketplace reads as
 *   insurance_type marketplace
 * - a third_party_payer makes mental_health_coverage carved_out, and carved_out needs one
 * - an inactive coverage beside mental health active or carved out reads as active (a behavioral-health-only
 *   program: docs/estimates.md 1.1, "Status rows cover their own service types")
 * - a telehealth cost share equal to in-person (or empty) reads as null
 * - next_plan_year needs a plan_begin_date and a plan_end_date, and a begin after both (without a
 *   plan end, a later begin in force on the date of service is a change within the year)
 * - additional_policies[].insurance_type managed_medicaid / marketplace read as medicaid / commercial
 * - relationship self writes the member; subscriber then reads back equal to it
 * - PayerAnswer reject's message: X12 has no free text beside an AAA outside 2110; not written
 */
import type { Coverage, Person } from '../domain/coverage.ts';
import type { Inquiry, InquiryPerson } from '../domain/inquiry.ts';
import { traceOriginator, X279_VERSION } from './build-270.ts';
import { benefitEbs, Body } from './build-271-benefits.ts';
import { INS_BY_RELATIONSHIP } from './codes.ts';
import { digitsOnly } from './sanitize.ts';
import { isoToD8 } from './values.ts';
import { dateTimeStamp, wrapInterchange, type EnvelopeOptions } from './writer.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export type PayerAnswer =
  | {
      kind: 'coverage';
      coverage: Coverage;
      /** The coverage's EB loops as benefitSegments(coverage) wrote them, kept by a caller that answers with the same Coverage again (the sandbox). */
      benefits?: readonly string[];
    }
  | {
      kind: 'reject';
      level: 'payer' | 'provider' | 'subscriber' | 'dependent';
      reason_code: string;
      followup: 'C' | 'N' | 'R' | 'W' | 'X' | 'Y';
      /** Not written: X12 has no free text beside an AAA outside the 2110 loop. */
      message?: string;
    };

type Ref = [qualifier: string, id: string, description: string];

function writePerson(b: Body, entity: 'IL' | '03', p: Person, extra: { refs: Ref[]; ins: string[] | null; dates: [string, string | null][] }): void {
  const id = entity === 'IL' ? b.text(p.member_id, 80) : '';
  b.add('NM1', entity, '1', b.text(p.last_name, 60), b.text(p.first_name, 35), '', '', '', id ? 'MI' : '', id);
  const refs: Ref[] = entity === '03' ? [['1W', b.text(p.member_id, 50), ''], ...extra.refs] : extra.refs;
  for (const [q, v, desc] of refs) if (v || desc) b.add('REF', q, v, desc);
  if (p.address) {
    const a = p.address;
    b.add('N3', b.text(a.street_line_1, 55), b.text(a.street_line_2, 55));
    b.add('N4', b.text(a.city, 30), b.text(a.state, 2), b.text(a.zip, 15));
  }
  if (p.dob || p.gender) b.add('DMG', p.dob ? 'D8' : '', p.dob ? isoToD8(p.dob) : '', p.gender ?? '');
  if (extra.ins) b.addAll('INS', extra.ins);
  for (const [q, v] of extra.dates) if (v) b.add('DTP', q, 'D8', isoToD8(v));
}

function echoPerson(b: Body, entity: 'IL' | '03', p: InquiryPerson | null): void {
  const id = entity === 'IL' && p ? b.text(p.member_id, 80) : '';
  b.add('NM1', entity, '1', b.text(p?.last_name, 60), b.text(p?.first_name, 35), '', '', '', id ? 'MI' : '', id);
}

function writeCoverage(b: Body, inquiry: Inquiry, c: Coverage, benefits: readonly string[] | undefined): void {
  const dependent = c.relationship_to_subscriber !== 'self';
  const group: Ref = ['6P', b.text(c.group_id, 50), b.text(c.group_name, 80)];
  const dates: [string, string | null][] = [
    ['346', c.plan_begin_date],
    ['347', c.plan_end_date],
    ['357', c.eligibility_end_date],
  ];
  const corrected = c.payer_corrected_demographics;
  b.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) writeTrn(b, inquiry, c.payer_id);
  writePerson(b, 'IL', dependent ? c.subscriber : c.member, {
    refs: dependent ? [] : [group],
    ins: !dependent && corrected ? ['Y', '18', '001', '25'] : null,
    dates: dependent ? [] : dates,
  });
  if (dependent) {
    b.add('HL', '4', '3', '23', '0');
    writeTrn(b, inquiry, c.payer_id);
    const rel = INS_BY_RELATIONSHIP[c.relationship_to_subscriber];
    writePerson(b, '03', c.member, { refs: [group], ins: corrected ? ['N', rel, '001', '25'] : ['N', rel], dates });
  }
  if (benefits) for (const line of benefits) b.lines.push(line);
  else for (const eb of benefitEbs(c)) b.eb(eb);
}

function writeProvider(b: Body, inquiry: Inquiry): void {
  const prov = inquiry.provider;
  const npi = digitsOnly(prov.npi, 80);
  const last = b.text(prov.last_name, 60);
  const first = b.text(prov.first_name, 35);
  if (first || last) {
    b.add('NM1', '1P', '1', last, first, '', '', '', npi ? 'XX' : '', npi);
  } else {
    b.add('NM1', '1P', '2', b.text(prov.organization_name, 60), '', '', '', '', npi ? 'XX' : '', npi);
  }
}

function writeTrn(b: Body, inquiry: Inquiry, payerId: string): void {
  b.add('TRN', '2', b.text(inquiry.trace_number, 50), traceOriginator(payerId, b));
}

function writeAaa(b: Body, reject: Extract<PayerAnswer, { kind: 'reject' }>): void {
  b.add('AAA', reject.followup === 'C' ? 'N' : 'Y', '', b.text(reject.reason_code, 2), reject.followup);
}

export function build271(inquiry: Inquiry, answer: PayerAnswer, env?: EnvelopeOptions): string {
  const b = new Body();
  const { date8, time4 } = dateTimeStamp(env?.now ?? dateOf(systemClock));
  const payerId = answer.kind === 'coverage' ? answer.coverage.payer_id : inquiry.payer.id;
  const payerName = answer.kind === 'coverage' ? answer.coverage.payer_name : inquiry.payer.name;
  const reject = answer.kind === 'reject' ? answer : null;
  b.add('BHT', '0022', '11', b.text(inquiry.trace_number, 50) || '1', date8, time4);
  b.add('HL', '1', '', '20', reject?.level === 'payer' ? '0' : '1');
  const pid = b.text(payerId, 80);
  b.add('NM1', 'PR', '2', b.text(payerName, 60), '', '', '', '', pid ? 'PI' : '', pid);
  if (reject?.level === 'payer') writeAaa(b, reject);
  else {
    b.add('HL', '2', '1', '21', reject?.level === 'provider' ? '0' : '1');
    writeProvider(b, inquiry);
    if (reject?.level === 'provider') writeAaa(b, reject);
    else if (reject) {
      const dependent = reject.level === 'dependent';
      b.add('HL', '3', '2', '22', dependent ? '1' : '0');
      if (!dependent) writeTrn(b, inquiry, payerId);
      echoPerson(b, 'IL', inquiry.subscriber);
      if (dependent) {
        b.add('HL', '4', '3', '23', '0');
        writeTrn(b, inquiry, payerId);
        echoPerson(b, '03', inquiry.dependent);
      }
      writeAaa(b, reject);
    } else if (answer.kind === 'coverage') {
      writeCoverage(b, inquiry, answer.coverage, answer.benefits);
    }
  }
  return wrapInterchange({
    functional_id: 'HB',
    set_id: '271',
    version: X279_VERSION,
    body: b,
    sender: payerId,
    receiver: env?.receiver_id ?? 'COVERAGE',
    env,
  });
}
