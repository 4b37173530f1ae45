/**
 * The EB loops (2110C/D) a Coverage is written as in a 271, and the segment writer build271 uses;
 * the encoding table is in build-271.ts, and normalize-271.ts reads every field back unchanged.
 */
import type { AdditionalPolicy, Coverage, CostShare, NetworkBenefits, OtherEntity } from '../domain/coverage.ts';
import { CODE_BY_PLAN_TYPE, CODE_BY_PROGRAM, otherPayerCode } from './codes.ts';
import { HINT } from './hints.ts';
import { cleanText, digitsOnly } from './sanitize.ts';
import { centsToDollars, isoToD8, percentToShare } from './values.ts';
import { SegmentList } from './writer.ts';

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

export class Body extends SegmentList {
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

export const STATUS_CODE = { active: '1', active_pending_investigation: '5', inactive: '6', unknown: '' } as const;

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
  // An unknown status is written as none (docs/estimates.md 1.1): no plan-level status row.
  if (status === '') return c.insurance_type === 'managed_medicaid' ? [{ info: 'MC', services: ['30'] }] : [];
  const out: Eb[] = [{ info: status, services: ['30'], ins: isProgram(c) ? CODE_BY_PROGRAM[c.insurance_type] : planTypeCode(c), plan: c.plan_name, msgs }];
  const impliedByProgram = c.insurance_type === 'medicare_advantage' && c.plan_type === 'HMO';
  if (isProgram(c) && c.plan_type && !impliedByProgram) out.push({ info: status, services: ['30'], ins: CODE_BY_PLAN_TYPE[c.plan_type] });
  if (c.insurance_type === 'managed_medicaid') out.push({ info: 'MC', services: ['30'] });
  return out;
}

function deductibleMessage(nb: NetworkBenefits, hdhp: boolean): string[] {
  // What the reader takes when no MSG says (benefit-selection.ts): a reported deductible holds the cost
  // share written here (copay and coinsurance at one service type), or anything on a high-deductible
  // plan; without a cost share, nothing.
  const byDefault = nb.deductible !== null && (hdhp || nb.copayment !== null || nb.coinsurance !== null);
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

function networkEbs(nb: NetworkBenefits | null, net: 'Y' | 'N', services: string[], status: string, hdhp: boolean): Eb[] {
  if (!nb) return [];
  const out: Eb[] = status === '' ? [] : [{ info: status, services, net, msgs: deductibleMessage(nb, hdhp) }];
  if (nb.copayment !== null)
    out.push({ info: 'B', services, period: '27', amount: nb.copayment, net, ...(status === '' ? { msgs: deductibleMessage(nb, hdhp) } : {}) });
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

export function benefitEbs(c: Coverage): Eb[] {
  const unknown = c.mental_health_coverage === 'unknown';
  const services = unknown ? ['30'] : ['MH'];
  const status = unknown ? STATUS_CODE[c.coverage_status] : c.mental_health_coverage === 'inactive' ? '6' : '1';
  const ebs: Eb[] = planLevel(c);
  const networks = [...networkEbs(c.in_network, 'Y', services, status, c.is_hdhp), ...networkEbs(c.out_of_network, 'N', services, status, c.is_hdhp)];
  // Behavioral health inactive is stated for the plan as a whole (no EB12): a network's own status row speaks for that network only.
  if (!unknown && (networks.length === 0 || status === STATUS_CODE.inactive)) ebs.push({ info: status, services });
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
