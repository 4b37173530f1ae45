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
 *                           APPLIES when deductible_applies differs from "a deductible is reported"
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
 * - a telehealth cost share equal to in-person (or empty) reads as null
 * - next_plan_year needs a plan_begin_date and a begin after the plan's begin and end dates
 * - additional_policies[].insurance_type managed_medicaid / marketplace read as medicaid / commercial
 * - relationship self writes the member; subscriber then reads back equal to it
 * - PayerAnswer reject's message: X12 has no free text beside an AAA outside 2110; not written
 */
import type { AdditionalPolicy, Coverage, CostShare, NetworkBenefits, OtherEntity, Person } from '../domain/coverage.ts';
import type { Inquiry, InquiryPerson } from '../domain/inquiry.ts';
import { traceOriginator, X279_VERSION } from './build-270.ts';
import { CODE_BY_PLAN_TYPE, CODE_BY_PROGRAM, INS_BY_RELATIONSHIP, otherPayerCode } from './codes.ts';
import { HINT } from './hints.ts';
import { cleanText, digitsOnly } from './sanitize.ts';
import { centsToDollars, isoToD8, percentToShare } from './values.ts';
import { dateTimeStamp, SegmentList, wrapInterchange, type EnvelopeOptions } from './writer.ts';

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

interface Entity {
  code: string;
  person?: { first: string | null; last: string | null };
  org?: string | null;
  idQualifier?: string;
  id?: string | null;
  phone?: string | null;
}

interface Eb {
  info: string;
  level?: string;
  services: string[];
  ins?: string;
  plan?: string | null;
  period?: string;
  amount?: number | null;
  share?: number | null;
  visits?: number | null;
  net?: 'Y' | 'N';
  refs?: [string, string][];
  benefitBegin?: string;
  msgs?: string[];
  telehealth?: boolean;
  related?: Entity[];
}

class Body extends SegmentList {
  text(v: string | null | undefined, max: number): string {
    return cleanText(v, this.d, max);
  }

  eb(b: Eb): void {
    this.add(
      'EB',
      b.info,
      b.level,
      this.repeat(b.services),
      b.ins,
      this.text(b.plan, 50),
      b.period,
      b.amount === null || b.amount === undefined ? '' : centsToDollars(b.amount),
      b.share === null || b.share === undefined ? '' : percentToShare(b.share),
      b.visits === null || b.visits === undefined ? '' : 'VS',
      b.visits === null || b.visits === undefined ? '' : String(b.visits),
      '',
      b.net,
    );
    for (const [q, v] of b.refs ?? []) this.add('REF', q, this.text(v, 50));
    if (b.benefitBegin) this.add('DTP', '348', 'D8', isoToD8(b.benefitBegin));
    for (const m of b.msgs ?? []) {
      const t = this.text(m, 264);
      if (t) this.add('MSG', t);
    }
    if (b.telehealth) this.add('III', 'ZZ', '02');
    if (b.related && b.related.length > 0) {
      this.add('LS', '2120');
      for (const e of b.related) this.entity(e);
      this.add('LE', '2120');
    }
  }

  entity(e: Entity): void {
    const id = e.id ? this.text(e.id, 80) : '';
    const q = id ? (e.idQualifier ?? 'PI') : '';
    if (e.person) this.add('NM1', e.code, '1', this.text(e.person.last, 60), this.text(e.person.first, 35), '', '', '', q, id);
    else this.add('NM1', e.code, '2', this.text(e.org, 60), '', '', '', '', q, id);
    const phone = digitsOnly(e.phone, 80);
    if (phone) this.add('PER', 'IC', '', 'TE', phone);
  }
}

const STATUS_CODE = { active: '1', active_pending_investigation: '5', inactive: '6' } as const;

function planTypeCode(c: Coverage): string {
  return c.plan_type ? CODE_BY_PLAN_TYPE[c.plan_type] : 'C1';
}

function isProgram(c: Coverage): boolean {
  return c.insurance_type !== 'commercial' && c.insurance_type !== 'marketplace';
}

function planLevel(c: Coverage): Eb[] {
  const status = STATUS_CODE[c.coverage_status];
  const msgs: string[] = [];
  if (c.is_marketplace) msgs.push(HINT.marketplace);
  if (c.is_bluecard) msgs.push(HINT.bluecard);
  if (c.is_hdhp) msgs.push(HINT.hdhp);
  msgs.push(...c.messages);
  const out: Eb[] = [{ info: status, services: ['30'], ins: isProgram(c) ? CODE_BY_PROGRAM[c.insurance_type] : planTypeCode(c), plan: c.plan_name, msgs }];
  const impliedByProgram = c.insurance_type === 'medicare_advantage' && c.plan_type === 'HMO';
  if (isProgram(c) && c.plan_type && !impliedByProgram) out.push({ info: status, services: ['30'], ins: CODE_BY_PLAN_TYPE[c.plan_type] });
  if (c.insurance_type === 'managed_medicaid') out.push({ info: 'MC', services: ['30'] });
  return out;
}

function deductibleMessage(nb: NetworkBenefits): string[] {
  const byDefault = nb.deductible !== null;
  if (nb.deductible_applies === byDefault) return [];
  return [nb.deductible_applies ? HINT.deductibleApplies : HINT.deductibleWaived];
}

function accumulatorEbs(info: 'C' | 'G', acc: NetworkBenefits['deductible'], services: string[], net: 'Y' | 'N'): Eb[] {
  if (!acc) return [];
  const out: Eb[] = [];
  for (const [level, a] of [
    ['IND', acc.individual],
    ['FAM', acc.family],
  ] as const) {
    if (a.total !== null) out.push({ info, level, services, period: '23', amount: a.total, net });
    if (a.remaining !== null) out.push({ info, level, services, period: '29', amount: a.remaining, net });
  }
  if (out.length === 0) out.push({ info, services, net });
  return out;
}

function networkEbs(nb: NetworkBenefits | null, net: 'Y' | 'N', services: string[], status: string): Eb[] {
  if (!nb) return [];
  const out: Eb[] = [{ info: status, services, net, msgs: deductibleMessage(nb) }];
  if (nb.copayment !== null) out.push({ info: 'B', services, period: '27', amount: nb.copayment, net });
  if (nb.coinsurance !== null) out.push({ info: 'A', services, share: nb.coinsurance, net });
  out.push(...accumulatorEbs('C', nb.deductible, services, net), ...accumulatorEbs('G', nb.oop_max, services, net));
  const v = nb.visit_limit;
  if (v) {
    if (v.total !== null) out.push({ info: 'F', services, period: '23', visits: v.total, net });
    if (v.remaining !== null) out.push({ info: 'F', services, period: '29', visits: v.remaining, net });
  }
  return out;
}

function telehealthEbs(cs: CostShare | null | undefined, net: 'Y' | 'N', services: string[]): Eb[] {
  if (!cs) return [];
  const out: Eb[] = [];
  if (cs.copayment !== null) out.push({ info: 'B', services, period: '27', amount: cs.copayment, net, telehealth: true });
  if (cs.coinsurance !== null) out.push({ info: 'A', services, share: cs.coinsurance, net, telehealth: true });
  return out;
}

function pcpEb(c: Coverage): Eb[] {
  const p = c.pcp;
  if (!p) return [];
  const related: Entity[] = [];
  const hasPerson = p.first_name !== null || p.last_name !== null;
  if (hasPerson) related.push({ code: 'P3', person: { first: p.first_name, last: p.last_name }, idQualifier: 'XX', id: p.npi });
  if (p.organization_name !== null || !hasPerson) {
    related.push({ code: 'P3', org: p.organization_name, idQualifier: 'XX', id: hasPerson ? null : p.npi });
  }
  return [{ info: 'L', services: [], related }];
}

function otherEntityEb(e: OtherEntity | null, code: 'PR' | 'X3'): Eb[] {
  if (!e) return [];
  return [{ info: 'U', services: ['MH'], related: [{ code, org: e.name, id: e.payer_id, phone: e.phone }] }];
}

const COORDINATION_CODE = { primary: 'PRP', secondary: 'SEP', tertiary: 'TTP' } as const;

function policyEb(p: AdditionalPolicy): Eb {
  return {
    info: 'R',
    services: ['30'],
    ins: otherPayerCode(p.insurance_type),
    refs: p.policy_number ? [['IG', p.policy_number]] : [],
    related: [{ code: p.coordination ? COORDINATION_CODE[p.coordination] : 'PR', org: p.payer_name, id: p.payer_id }],
  };
}

function nextYearEbs(c: Coverage, services: string[]): Eb[] {
  const n = c.next_plan_year;
  if (!n) return [];
  const begin = n.begin_date;
  const out: Eb[] = [{ info: '1', services: ['30'], refs: n.member_id ? [['1W', n.member_id]] : [], benefitBegin: begin }];
  const nb = n.in_network;
  if (nb) {
    out.push({ info: '1', services, net: 'Y', benefitBegin: begin });
    if (nb.copayment !== null) out.push({ info: 'B', services, period: '27', amount: nb.copayment, net: 'Y', benefitBegin: begin });
    if (nb.coinsurance !== null) out.push({ info: 'A', services, share: nb.coinsurance, net: 'Y', benefitBegin: begin });
    if (nb.deductible !== null) out.push({ info: 'C', level: 'IND', services, period: '23', amount: nb.deductible, net: 'Y', benefitBegin: begin });
    if (nb.oop_max !== null) out.push({ info: 'G', level: 'IND', services, period: '23', amount: nb.oop_max, net: 'Y', benefitBegin: begin });
  }
  return out;
}

function benefitEbs(c: Coverage): Eb[] {
  const unknown = c.mental_health_coverage === 'unknown';
  const services = unknown ? ['30'] : ['MH'];
  const status = unknown ? STATUS_CODE[c.coverage_status] : c.mental_health_coverage === 'inactive' ? '6' : '1';
  const ebs: Eb[] = planLevel(c);
  const networks = [...networkEbs(c.in_network, 'Y', services, status), ...networkEbs(c.out_of_network, 'N', services, status)];
  if (!unknown && networks.length === 0) ebs.push({ info: status, services });
  ebs.push(
    ...networks,
    ...telehealthEbs(c.telehealth?.in_network, 'Y', services),
    ...telehealthEbs(c.telehealth?.out_of_network, 'N', services),
    ...pcpEb(c),
    ...otherEntityEb(c.third_party_payer, 'PR'),
    ...otherEntityEb(c.utilization_manager, 'X3'),
    ...c.additional_policies.map(policyEb),
    ...nextYearEbs(c, services),
  );
  return ebs;
}

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

/** The EB loops build271 writes for a coverage: they depend on the coverage alone. */
export function benefitSegments(c: Coverage): string[] {
  const b = new Body();
  for (const eb of benefitEbs(c)) b.eb(eb);
  if (b.lines.length === 0) return b.lines;
  // Each line was built by a dozen concatenations, a tree V8 walks on every join into an answer;
  // the caller keeps these lines for many answers, so they are copied flat once (no line holds the terminator).
  const t = b.d.segment;
  return b.lines.join(t).split(t);
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
  const { date8, time4 } = dateTimeStamp(env?.now ?? new Date());
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
