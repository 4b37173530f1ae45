/**
 * Reads a 271 into the normalized Coverage, or into the rejection its AAA segments state.
 * The encoding table is in build-271.ts; this reader accepts it and what payers commonly send:
 *
 * - dates: 2100 DTP 346 plan begin, 347 plan end, 357 eligibility end; fallbacks 291 (plan,
 *   RD8 gives begin and end), 356/307 (eligibility begin / range), member's loop before subscriber's
 * - benefits are taken from EBs whose EB03 holds a behavioral-health code, best tier first:
 *   MH, then CF/A4/A6/A7/A8/AI, then 98/30 (an empty EB03 is plan level, i.e. 30)
 * - EB12 Y in network, N out of network; W, U or absent: both. A status EB (EB01 1-8) only makes a
 *   network's benefits known when EB12 names it explicitly
 * - EB06 23/21/22/25/26/32 (or absent) totals, 29/33 remaining, 24 year-to-date met (remaining =
 *   total - met when no remaining is sent); EB02 IND/EMP/absent individual, FAM and the other
 *   multi-person levels family
 * - telehealth: an EB followed by III*ZZ*02 or III*ZZ*10; kept only when it differs from in-person
 * - next plan year: an EB with DTP*348 later than the current plan begin (or, without one, than
 *   the BHT04 date) and than the current plan end
 * - carve-out: EB*U or EB*R on a behavioral code naming a 2120 entity other than X3/P3/PRP/SEP/TTP,
 *   or an MH status EB with a 2120 NM1*PR|VN and no MH cost share
 * - messages: every MSG except the canonical hint texts the builder writes (hints.ts)
 * - AAA at the payer, receiver, subscriber or dependent level (2000 or 2100) rejects the answer;
 *   AAA inside a 2110 benefit loop only does when the answer carries no benefit at all
 */
import type {
  AdditionalPolicy, Accumulator, Coverage, CostShare, CoverageStatus, InsuranceType, IsoDate, MentalHealthCoverage,
  NetworkBenefits, NextPlanYear, OtherEntity, Pcp, Person, PlanType,
} from '../domain/coverage.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { aaaReason, errorCodeForAaa } from './aaa.ts';
import {
  bhTier, otherPayerInsuranceType, periodKind, PLAN_TYPE_BY_CODE, PROGRAM_BY_CODE, relationshipFromIns, STRONG_BH_TIER,
  TELEHEALTH_PLACES,
} from './codes.ts';
import type { Delimiters } from './delimiters.ts';
import { allTransactions, findTransaction, readInterchange } from './envelope.ts';
import { deductibleHint, isBluecardHint, isCanonicalHint, isHdhpHint, isMarketplaceHint } from './hints.ts';
import { buildLoopTree, levelAaa, type BenefitLoop, type HlLevel, type NameLoop, type RelatedEntity } from './loops.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { el, repetitions, type Segment } from './tokenizer.ts';
import { d8ToIso, dollarsToCents, readDtpDate, readNumber, shareToPercent, type DateRange } from './values.ts';

export type RejectLevel = 'payer' | 'provider' | 'subscriber' | 'dependent';

export type Eligibility =
  | { kind: 'coverage'; coverage: Coverage; trace_number: string | null }
  | {
      kind: 'rejected';
      error_code: ErrorCode;
      level: RejectLevel;
      reason_code: string;
      followup: string;
      /** Operator text, e.g. "AAA 75: subscriber/insured not found (please correct and resubmit)". */
      reason: string;
    };

type Net = 'in' | 'out';

interface Benefit {
  loop: BenefitLoop;
  info: string;
  level: string;
  services: string[];
  tier: number;
  ins: string;
  plan: string;
  period: string;
  amount: string;
  percent: string;
  qtyQual: string;
  qty: string;
  net: string;
  telehealth: boolean;
  /** DTP*348 benefit begin, when sent. */
  begin: IsoDate | null;
}

const orNull = (s: string) => (s === '' ? null : s);
const isStatus = (b: Benefit) => b.info.length === 1 && b.info >= '1' && b.info <= '8';
const COST_INFO = new Set(['A', 'B', 'C', 'G']);
const isCost = (b: Benefit) => COST_INFO.has(b.info) || (b.info === 'F' && b.qtyQual === 'VS');
const FAMILY_LEVELS = new Set(['FAM', 'ESP', 'ECH', 'DEP', 'CHD', 'TWO', 'E1D', 'E2D', 'E3D', 'E5D', 'E6D', 'E7D', 'E8D', 'E9D']);

/** Cost EBs without EB12 (or with W/U) apply to both networks. */
function costApplies(b: Benefit, n: Net): boolean {
  if (b.net === 'Y') return n === 'in';
  if (b.net === 'N') return n === 'out';
  return true;
}

/** Status EBs only speak for a network they name. */
function statusApplies(b: Benefit, n: Net): boolean {
  if (b.net === 'Y') return n === 'in';
  if (b.net === 'N') return n === 'out';
  return b.net === 'W';
}

function byTier(list: Benefit[]): Benefit[] {
  return list.slice().sort((a, b) => a.tier - b.tier);
}

function readBenefit(loop: BenefitLoop, d: Delimiters): Benefit {
  const s = loop.seg;
  const services = repetitions(el(s, 3), d);
  let begin: IsoDate | null = null;
  for (const dtp of loop.dtp) {
    if (el(dtp, 1) === '348') {
      begin = readDtpDate(el(dtp, 2), el(dtp, 3))?.start ?? null;
      if (begin) break;
    }
  }
  let telehealth = false;
  for (const iii of loop.iii) if (el(iii, 1) === 'ZZ' && TELEHEALTH_PLACES.has(el(iii, 2))) telehealth = true;
  return {
    loop,
    info: el(s, 1),
    level: el(s, 2),
    services,
    tier: bhTier(services),
    ins: el(s, 4),
    plan: el(s, 5),
    period: el(s, 6),
    amount: el(s, 7),
    percent: el(s, 8),
    qtyQual: el(s, 9),
    qty: el(s, 10),
    net: el(s, 12),
    telehealth,
    begin,
  };
}

function dtpIn(names: (NameLoop | undefined)[], qualifier: string): DateRange | null {
  for (const n of names) {
    if (!n) continue;
    for (const dtp of n.dtp) {
      if (el(dtp, 1) !== qualifier) continue;
      const r = readDtpDate(el(dtp, 2), el(dtp, 3));
      if (r) return r;
    }
  }
  return null;
}

function refIn(names: (NameLoop | undefined)[], qualifier: string): Segment | null {
  for (const n of names) {
    if (!n) continue;
    for (const ref of n.ref) if (el(ref, 1) === qualifier) return ref;
  }
  return null;
}

function readPerson(name: NameLoop | undefined): Person {
  if (!name) return { first_name: null, last_name: null, member_id: null, gender: null, dob: null, address: null };
  const nm1 = name.nm1;
  const dmg = name.dmg;
  const gender = dmg ? el(dmg, 3) : '';
  const ref1w = name.ref.find((r) => el(r, 1) === '1W');
  const idFromNm1 = el(nm1, 8) !== '' ? orNull(el(nm1, 9)) : null;
  return {
    first_name: orNull(el(nm1, 4)),
    last_name: orNull(el(nm1, 3)),
    member_id: idFromNm1 ?? (ref1w ? orNull(el(ref1w, 2)) : null),
    gender: gender === 'M' || gender === 'F' || gender === 'U' ? gender : null,
    dob: dmg && el(dmg, 1) === 'D8' ? d8ToIso(el(dmg, 2)) : null,
    address:
      name.n3 || name.n4
        ? {
            street_line_1: name.n3 ? el(name.n3, 1) : '',
            street_line_2: name.n3 ? orNull(el(name.n3, 2)) : null,
            city: name.n4 ? el(name.n4, 1) : '',
            state: name.n4 ? el(name.n4, 2) : '',
            zip: name.n4 ? el(name.n4, 3) : '',
          }
        : null,
  };
}

function phoneOf(pers: Segment[]): string | null {
  for (const per of pers) {
    for (let i = 3; i <= 7; i += 2) if (el(per, i) === 'TE' && el(per, i + 1) !== '') return el(per, i + 1);
  }
  return null;
}

function entityName(nm1: Segment): string {
  if (el(nm1, 2) === '1') return [el(nm1, 4), el(nm1, 3)].filter((s) => s !== '').join(' ');
  return el(nm1, 3);
}

function otherEntity(r: RelatedEntity): OtherEntity | null {
  const name = entityName(r.nm1);
  if (!name) return null;
  return { name, payer_id: orNull(el(r.nm1, 9)), phone: phoneOf(r.per) };
}

const npiOf = (nm1: Segment | undefined) => (nm1 && el(nm1, 8) === 'XX' ? orNull(el(nm1, 9)) : null);

/** Picks the EB of the best behavioral-health tier that carries the value; document order breaks ties. */
function pick<T>(list: Benefit[], info: string, read: (b: Benefit) => T | null): T | null {
  let best: T | null = null;
  let bestTier = Infinity;
  for (const b of list) {
    if (b.info !== info || b.tier >= bestTier) continue;
    const v = read(b);
    if (v !== null) {
      best = v;
      bestTier = b.tier;
    }
  }
  return best;
}

const readAmount = (b: Benefit) => (b.amount === '' ? null : dollarsToCents(b.amount));
const readShare = (b: Benefit) => (b.percent === '' ? null : shareToPercent(b.percent));

function accumulators(list: Benefit[], info: 'C' | 'G'): { individual: Accumulator; family: Accumulator } | null {
  const own = byTier(list.filter((b) => b.info === info));
  if (own.length === 0) return null;
  const slots = { individual: { total: null, remaining: null, met: null }, family: { total: null, remaining: null, met: null } } as Record<
    'individual' | 'family',
    { total: number | null; remaining: number | null; met: number | null }
  >;
  for (const b of own) {
    const cents = readAmount(b);
    if (cents === null) continue;
    const kind = periodKind(b.period);
    if (kind === 'other') continue;
    const slot = slots[FAMILY_LEVELS.has(b.level) ? 'family' : 'individual'];
    if (slot[kind] === null) slot[kind] = cents;
  }
  const finish = (s: { total: number | null; remaining: number | null; met: number | null }): Accumulator => ({
    total: s.total,
    remaining: s.remaining ?? (s.total !== null && s.met !== null ? Math.max(0, s.total - s.met) : null),
  });
  return { individual: finish(slots.individual), family: finish(slots.family) };
}

function visitLimit(list: Benefit[]): NetworkBenefits['visit_limit'] {
  const own = byTier(list.filter((b) => b.info === 'F' && b.qtyQual === 'VS'));
  if (own.length === 0) return null;
  let total: number | null = null;
  let remaining: number | null = null;
  for (const b of own) {
    const n = readNumber(b.qty);
    if (n === null) continue;
    const kind = periodKind(b.period);
    if (kind === 'remaining') remaining ??= n;
    else if (kind === 'total') total ??= n;
  }
  return { total, remaining };
}

function deductibleHintFor(list: Benefit[], n: Net): boolean | null {
  for (const b of list) {
    if (!costApplies(b, n)) continue;
    for (const m of b.loop.msg) {
      const h = deductibleHint(el(m, 1));
      if (h !== null) return h;
    }
  }
  return null;
}

function networkBenefits(bh: Benefit[], n: Net): NetworkBenefits | null {
  const costs = bh.filter((b) => isCost(b) && costApplies(b, n));
  if (costs.length === 0 && !bh.some((b) => isStatus(b) && statusApplies(b, n))) return null;
  const deductible = accumulators(costs, 'C');
  return {
    copayment: pick(costs, 'B', readAmount),
    coinsurance: pick(costs, 'A', readShare),
    deductible_applies: deductibleHintFor(bh, n) ?? deductible !== null,
    deductible,
    oop_max: accumulators(costs, 'G'),
    visit_limit: visitLimit(costs),
  };
}

function telehealthFor(list: Benefit[], n: Net, inPerson: NetworkBenefits | null): CostShare | null {
  const own = list.filter((b) => costApplies(b, n));
  const copayment = pick(own, 'B', readAmount);
  const coinsurance = pick(own, 'A', readShare);
  if (copayment === null && coinsurance === null) return null;
  if (copayment === (inPerson?.copayment ?? null) && coinsurance === (inPerson?.coinsurance ?? null)) return null;
  return { copayment, coinsurance };
}

function statusOf(code: string): CoverageStatus {
  if (code === '5') return 'active_pending_investigation';
  return code >= '6' ? 'inactive' : 'active';
}

const NOT_ADMINISTRATOR = new Set(['X3', 'P3', 'PRP', 'SEP', 'TTP']);
const COORDINATION: Record<string, AdditionalPolicy['coordination']> = { PRP: 'primary', SEP: 'secondary', TTP: 'tertiary' };

function thirdParty(current: Benefit[]): OtherEntity | null {
  for (const b of current) {
    if ((b.info !== 'U' && b.info !== 'R') || b.tier < 0 || b.tier > STRONG_BH_TIER) continue;
    for (const r of b.loop.related) {
      if (NOT_ADMINISTRATOR.has(el(r.nm1, 1))) continue;
      const e = otherEntity(r);
      if (e) return e;
    }
  }
  const strong = current.filter((b) => b.tier >= 0 && b.tier <= STRONG_BH_TIER && !b.telehealth);
  if (strong.some(isCost)) return null;
  for (const b of strong) {
    if (!isStatus(b)) continue;
    for (const r of b.loop.related) {
      const code = el(r.nm1, 1);
      if (code !== 'PR' && code !== 'VN') continue;
      const e = otherEntity(r);
      if (e) return e;
    }
  }
  return null;
}

function utilizationManager(current: Benefit[]): OtherEntity | null {
  for (const b of current) {
    if (b.info !== 'U') continue;
    for (const r of b.loop.related) {
      if (el(r.nm1, 1) !== 'X3') continue;
      const e = otherEntity(r);
      if (e) return e;
    }
  }
  return null;
}

function primaryCareProvider(current: Benefit[]): Pcp | null {
  let related = current.filter((b) => b.info === 'L').flatMap((b) => b.loop.related);
  if (related.length === 0) related = current.flatMap((b) => b.loop.related).filter((r) => el(r.nm1, 1) === 'P3');
  if (related.length === 0) return null;
  const person = related.find((r) => el(r.nm1, 2) === '1')?.nm1;
  const org = related.find((r) => el(r.nm1, 2) !== '1')?.nm1;
  return {
    first_name: person ? orNull(el(person, 4)) : null,
    last_name: person ? orNull(el(person, 3)) : null,
    npi: person ? (npiOf(person) ?? npiOf(org)) : npiOf(org),
    organization_name: org ? orNull(el(org, 3)) : null,
  };
}

function additionalPolicies(current: Benefit[], warnings: string[]): AdditionalPolicy[] {
  const out: AdditionalPolicy[] = [];
  for (const b of current) {
    if (b.info !== 'R') continue;
    const r = b.loop.related[0];
    const code = r ? el(r.nm1, 1) : '';
    const coordination = COORDINATION[code] ?? null;
    if (b.tier >= 0 && b.tier <= STRONG_BH_TIER && coordination === null && r) continue;
    const name = r ? entityName(r.nm1) : '';
    if (!name) {
      warnings.push(`EB*R at segment ${b.loop.seg.index} names no other payer; ignored`);
      continue;
    }
    const ig = b.loop.ref.find((ref) => el(ref, 1) === 'IG');
    out.push({
      payer_name: name,
      payer_id: orNull(el(r!.nm1, 9)),
      policy_number: ig ? orNull(el(ig, 2)) : null,
      insurance_type: otherPayerInsuranceType(b.ins),
      coordination,
    });
  }
  return out;
}

function nextPlanYear(next: Benefit[]): NextPlanYear | null {
  const first = next[0];
  if (!first || !first.begin) return null;
  let memberId: string | null = null;
  for (const b of next) {
    const ref = b.loop.ref.find((r) => el(r, 1) === '1W' && el(r, 2) !== '');
    if (ref) {
      memberId = el(ref, 2);
      break;
    }
  }
  const bh = next.filter((b) => b.tier >= 0 && !b.telehealth);
  const inNet = bh.filter((b) => (isCost(b) && costApplies(b, 'in')) || (isStatus(b) && statusApplies(b, 'in')));
  const individualTotal = (info: 'C' | 'G') =>
    pick(inNet, info, (b) => (FAMILY_LEVELS.has(b.level) || periodKind(b.period) !== 'total' ? null : readAmount(b)));
  return {
    begin_date: first.begin,
    member_id: memberId,
    in_network:
      inNet.length === 0
        ? null
        : {
            copayment: pick(inNet, 'B', readAmount),
            coinsurance: pick(inNet, 'A', readShare),
            deductible: individualTotal('C'),
            oop_max: individualTotal('G'),
          },
  };
}

function insuranceAndPlanType(
  planLevel: Benefit | undefined,
  typed: Benefit[],
  current: Benefit[],
  flags: { is_hdhp: boolean; is_marketplace: boolean },
): { insurance_type: InsuranceType; plan_type: PlanType } {
  const codes = [planLevel?.ins ?? '', ...typed.map((b) => b.ins)].filter((c) => c !== '');
  let program: (typeof PROGRAM_BY_CODE)[string] | undefined;
  let planType: PlanType = null;
  for (const c of codes) {
    program ??= PROGRAM_BY_CODE[c];
    planType ??= PLAN_TYPE_BY_CODE[c] ?? null;
  }
  let insurance: InsuranceType = program ?? 'commercial';
  if (program === 'medicaid' && current.some((b) => b.info === 'MC' || b.loop.related.some((r) => el(r.nm1, 1) === 'Y2'))) {
    insurance = 'managed_medicaid';
  }
  if (planType === null && program === 'medicare_advantage') planType = 'HMO';
  if (!program) {
    if (planType === null && flags.is_hdhp) planType = 'HDHP';
    if (flags.is_marketplace) insurance = 'marketplace';
  }
  return { insurance_type: insurance, plan_type: planType };
}

function rejection(seg: Segment, level: RejectLevel): Eligibility {
  const code = el(seg, 3);
  const followup = el(seg, 4);
  return { kind: 'rejected', error_code: errorCodeForAaa(code), level, reason_code: code, followup, reason: aaaReason(code, followup) };
}

const REJECT_LEVEL: Record<HlLevel['kind'], RejectLevel> = {
  payer: 'payer',
  receiver: 'provider',
  subscriber: 'subscriber',
  dependent: 'dependent',
  other: 'payer',
};

export function normalize271(text: string): ParseResult<Eligibility> {
  return guarded(() => {
    const ic = readInterchange(text);
    if (!ic.ok) return ic;
    const found = findTransaction(ic.value, '271');
    if (!found) {
      const first = allTransactions(ic.value)[0];
      return fail(`expected a 271 transaction set, found ${first ? first.set_id : 'none'}`, {
        index: first?.st.index ?? null,
        id: 'ST',
        offset: first?.st.offset ?? null,
      });
    }
    const { tx } = found;
    const d = ic.value.delimiters;
    const warnings = [...ic.warnings];
    const count271 = allTransactions(ic.value).filter((t) => t.set_id === '271').length;
    if (count271 > 1) warnings.push(`the interchange holds ${count271} 271 transaction sets; only the first is read`);
    const { tree, warnings: loopWarnings } = buildLoopTree(tx.body);
    warnings.push(...loopWarnings);

    const payerLevel = tree.levels.find((l) => l.kind === 'payer');
    const receiverLevel = tree.levels.find((l) => l.kind === 'receiver');
    const subscriberLevels = tree.levels.filter((l) => l.kind === 'subscriber');
    const subscriberLevel = subscriberLevels[0];
    if (subscriberLevels.length > 1) warnings.push(`${subscriberLevels.length} subscriber levels (2000C); only the first is read`);
    const dependentLevel = subscriberLevel?.children.find((c) => c.kind === 'dependent');

    for (const level of [payerLevel, receiverLevel, subscriberLevel, dependentLevel]) {
      if (!level) continue;
      const hit = levelAaa(level).find((a) => a.loop !== '2110');
      if (hit) return ok(rejection(hit.seg, REJECT_LEVEL[level.kind]), warnings);
    }
    const at = { index: tx.st.index, id: 'ST', offset: tx.st.offset };
    if (!subscriberLevel) {
      const hit = tree.levels.flatMap(levelAaa)[0];
      if (hit) return ok(rejection(hit.seg, 'subscriber'), warnings);
      return fail('the 271 has no subscriber level (2000C, HL03=22) and no AAA rejection', at);
    }

    const memberLevel = dependentLevel ?? subscriberLevel;
    const benefitLevel = memberLevel.benefits.length > 0 || !dependentLevel ? memberLevel : subscriberLevel;
    const memberName = memberLevel.names[0];
    const subscriberName = subscriberLevel.names[0];
    const names = [memberName, subscriberName];

    const benefitAaa = levelAaa(benefitLevel).filter((a) => a.loop === '2110');
    const all = benefitLevel.benefits.filter((b) => b.seg.id === 'EB').map((b) => readBenefit(b, d));
    if (benefitAaa.length > 0) {
      if (!all.some((b) => isStatus(b) || isCost(b))) return ok(rejection(benefitAaa[0]!.seg, REJECT_LEVEL[benefitLevel.kind]), warnings);
      for (const a of benefitAaa) warnings.push(`benefit-level ${aaaReason(el(a.seg, 3), el(a.seg, 4))} at segment ${a.seg.index}`);
    }

    const plan346 = dtpIn(names, '346');
    const plan291 = dtpIn(names, '291');
    const elig356 = dtpIn(names, '356');
    const elig307 = dtpIn(names, '307');
    const planBegin = plan346?.start ?? plan291?.start ?? elig356?.start ?? elig307?.start ?? null;
    const planEnd = dtpIn(names, '347')?.start ?? plan346?.end ?? plan291?.end ?? null;
    const eligibilityEnd = dtpIn(names, '357')?.start ?? elig307?.end ?? elig356?.end ?? null;
    const bht = tree.header.find((s) => s.id === 'BHT');
    const reference = planBegin ?? (bht ? d8ToIso(el(bht, 4)) : null);
    const isNext = (b: Benefit) => b.begin !== null && reference !== null && b.begin > reference && (planEnd === null || b.begin > planEnd);
    const current = all.filter((b) => !isNext(b));
    const next = all.filter(isNext);

    const bh = current.filter((b) => b.tier >= 0 && !b.telehealth);
    const statuses = current.filter(isStatus);
    const planLevel = statuses.find((b) => b.services.length === 0 || b.services.includes('30')) ?? statuses[0];
    let coverageStatus: CoverageStatus;
    if (planLevel) coverageStatus = statusOf(planLevel.info);
    else if (current.some((b) => COST_INFO.has(b.info))) {
      coverageStatus = 'active';
      warnings.push('no eligibility status EB (EB01 1-8); reading the plan as active because it reports cost shares');
    } else {
      coverageStatus = 'inactive';
      warnings.push('no eligibility status EB (EB01 1-8) and no benefits; reading the plan as inactive');
    }

    const msgs = benefitLevel.benefits.flatMap((b) => b.msg.map((m) => el(m, 1)));
    const flags = { is_marketplace: msgs.some(isMarketplaceHint), is_bluecard: msgs.some(isBluecardHint), is_hdhp: msgs.some(isHdhpHint) };
    const typed = current.filter((b) => isStatus(b) || isCost(b) || b.info === 'MC');
    const { insurance_type, plan_type } = insuranceAndPlanType(planLevel, typed, current, flags);

    const in_network = networkBenefits(bh, 'in');
    const out_of_network = networkBenefits(bh, 'out');
    const teleList = current.filter((b) => b.tier >= 0 && b.telehealth);
    const teleIn = telehealthFor(teleList, 'in', in_network);
    const teleOut = telehealthFor(teleList, 'out', out_of_network);

    const third = thirdParty(current);
    let mental: MentalHealthCoverage = 'unknown';
    const mhStatus = current.find((b) => isStatus(b) && b.tier >= 0 && b.tier <= STRONG_BH_TIER && !b.telehealth);
    if (third) mental = 'carved_out';
    else if (mhStatus) mental = statusOf(mhStatus.info) === 'inactive' ? 'inactive' : 'active';
    else if (bh.some((b) => isCost(b) && b.tier <= STRONG_BH_TIER)) mental = 'active';

    const planNameRef = refIn(names, '18');
    const group = refIn(names, '6P');
    const groupIdRef = group && el(group, 2) !== '' ? group : refIn(names, '1L');
    const payerNm1 = payerLevel?.names[0]?.nm1;
    if (!payerNm1) warnings.push('the 271 names no payer (2100A NM1*PR)');
    const member = readPerson(memberName);
    const subscriber = dependentLevel ? readPerson(subscriberName) : member;
    const ins = memberName?.ins ?? null;
    const trn = [...memberLevel.trn, ...subscriberLevel.trn].find((t) => el(t, 1) === '2') ?? null;

    const coverage: Coverage = {
      payer_id: payerNm1 ? el(payerNm1, 9) : '',
      payer_name: payerNm1 ? entityName(payerNm1) : '',
      plan_name: orNull(planLevel?.plan ?? '') ?? typed.find((b) => b.plan !== '')?.plan ?? (planNameRef ? orNull(el(planNameRef, 3)) : null),
      plan_type,
      insurance_type,
      group_name: group ? orNull(el(group, 3)) : null,
      group_id: groupIdRef ? orNull(el(groupIdRef, 2)) : null,
      plan_begin_date: planBegin,
      plan_end_date: planEnd,
      eligibility_end_date: eligibilityEnd,
      coverage_status: coverageStatus,
      mental_health_coverage: mental,
      in_network,
      out_of_network,
      telehealth: teleIn || teleOut ? { in_network: teleIn, out_of_network: teleOut } : null,
      pcp: primaryCareProvider(current),
      third_party_payer: third,
      utilization_manager: utilizationManager(current),
      additional_policies: additionalPolicies(current, warnings),
      ...flags,
      member,
      subscriber,
      relationship_to_subscriber: dependentLevel ? (ins ? relationshipFromIns(el(ins, 2)) : 'other') : 'self',
      payer_corrected_demographics: ins !== null && el(ins, 3) === '001' && el(ins, 4) === '25',
      next_plan_year: nextPlanYear(next),
      messages: msgs.filter((m) => m !== '' && !isCanonicalHint(m)),
    };
    return ok({ kind: 'coverage', coverage, trace_number: trn ? orNull(el(trn, 2)) : null }, warnings);
  });
}
