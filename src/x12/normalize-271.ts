/**
 * Reads a 271 into the normalized Coverage, or into the rejection its AAA segments state.
 * The encoding table is in build-271.ts; this reader accepts it and what payers commonly send:
 *
 * - dates: 2100 DTP 346 plan begin, 347 plan end, 357 eligibility end; fallbacks 291 (plan,
 *   RD8 gives begin and end), 356/307 (eligibility begin / range), member's loop before subscriber's
 * - benefits are taken from EBs whose EB03 holds a behavioral-health code, best tier first:
 *   MH, then CF/A4/A6/A7/A8/AI, then 98, then 30 (an empty EB03 is plan level, i.e. 30); the cost
 *   share is one group of them, place of service and "not covered" included (benefit-selection.ts)
 * - EB12 Y in network, N out of network; W, U or absent: both. A status EB (EB01 1-8) only makes a
 *   network's benefits known when EB12 names it explicitly
 * - EB06 23/21/22/25/26/32 (or absent) totals, 29/33 remaining, 24 year-to-date met (remaining =
 *   total - met when no remaining is sent); EB02 IND/EMP/absent individual, FAM and the other
 *   multi-person levels family
 * - telehealth: an EB followed by III*ZZ*02 or III*ZZ*10 (with 11 too: one price for both); kept
 *   only when it differs from in-person
 * - next plan year: an EB with DTP*348 later than the current plan begin (or, without one, than
 *   the BHT04 date) and than the current plan end
 * - carve-out: EB*U or EB*R on a behavioral code naming a 2120 entity other than X3/P3/PRP/SEP/TTP,
 *   or an MH status EB with a 2120 NM1*PR|VN and no MH cost share
 * - messages: every MSG except the canonical hint texts the builder writes (hints.ts)
 * - AAA at the payer, receiver, subscriber or dependent level (2000 or 2100) rejects the answer;
 *   AAA inside a 2110 benefit loop only does when the answer carries no benefit at all
 */
import type {
  AdditionalPolicy,
  Coverage,
  CoverageStatus,
  InsuranceType,
  IsoDate,
  MentalHealthCoverage,
  NextPlanYear,
  OtherEntity,
  Pcp,
  Person,
  PlanType,
} from '../domain/coverage.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { aaaReason, errorCodeForAaa } from './aaa.ts';
import {
  costApplies,
  hasVisitLimit,
  isFamilyLevel,
  networkBenefits,
  placeFit,
  pricesOffice,
  pricesTelehealth,
  readAmount,
  readShare,
  statusApplies,
  telehealthShare,
  traced,
  type PlaceFit,
  type TraceEntry,
} from './benefit-selection.ts';
import { bhTier, tierOf, otherPayerInsuranceType, periodKind, PLAN_TYPE_BY_CODE, PROGRAM_BY_CODE, relationshipFromIns, STRONG_BH_TIER } from './codes.ts';
import type { Delimiters } from './delimiters.ts';
import { allTransactions, findTransaction, readInterchange } from './envelope.ts';
import { administratorFromMessage } from './carve-out-message.ts';
import { isCanonicalHint, readHints } from './hints.ts';
import { terminationOf } from './plan-dates.ts';
import { medicareParts, notCovered, partBMissing, refineProgram } from './medicare.ts';
import {
  benefitAaa as benefitAaaOf,
  buildLoopTree,
  levelAaa,
  type BenefitLoop,
  type HlLevel,
  type LoopTree,
  type NameLoop,
  type RelatedEntity,
} from './loops.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { el, repetitions, type Segment } from './tokenizer.ts';
import { d8ToIso, readDtpDate, type DateRange } from './values.ts';

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

interface Benefit {
  loop: BenefitLoop;
  info: string;
  level: string;
  /** EB03 is empty or holds 30: the EB speaks for the whole plan. */
  planWide: boolean;
  tier: number;
  period: string;
  net: string;
  /** Where the benefit applies (2115C III*ZZ). */
  place: PlaceFit;
  /** Telehealth only (III*ZZ 02/10 without 11). */
  telehealth: boolean;
  /** DTP*348 benefit begin, when sent. */
  begin: IsoDate | null;
  /** EB01 1-8: an eligibility status. */
  status: boolean;
  /** A cost share or accumulator: EB01 A, B, C, G, or F with visits. */
  cost: boolean;
  /** Non-empty MSG texts of the loop. */
  messages: string[];
  /** What its MSGs say about the deductible (the first that says anything). */
  deductibleHint: boolean | null;
  marketplace: boolean;
  bluecard: boolean;
  hdhp: boolean;
}

const NO_MESSAGES: string[] = [];

const orNull = (s: string) => (s === '' ? null : s);
const isCostInfo = (info: string) => info === 'A' || info === 'B' || info === 'C' || info === 'G';
const isShareInfo = (info: string) => info === 'A' || info === 'B' || info === 'I';
const isStatus = (b: Benefit) => b.status;
const isCost = (b: Benefit) => b.cost;
const readShareQuiet = (b: Benefit) => readShare(b);

function readBenefit(loop: BenefitLoop, d: Delimiters): Benefit {
  const s = loop.seg;
  const eb03 = el(s, 3);
  const services = d.repetition !== null && eb03.includes(d.repetition) ? repetitions(eb03, d) : null;
  let begin: IsoDate | null = null;
  // Most EBs have none of these; the length checks skip setting up the loops.
  if (loop.dtp.length > 0) {
    for (const dtp of loop.dtp) {
      if (el(dtp, 1) === '348') {
        begin = readDtpDate(el(dtp, 2), el(dtp, 3))?.start ?? null;
        if (begin) break;
      }
    }
  }
  const place = placeFit(loop);
  const info = el(s, 1);
  let messages = NO_MESSAGES;
  let deductibleHint: boolean | null = null;
  let marketplace = false;
  let bluecard = false;
  let hdhp = false;
  if (loop.msg.length > 0) {
    for (const m of loop.msg) {
      const text = el(m, 1);
      if (text === '') continue;
      if (messages === NO_MESSAGES) messages = [];
      messages.push(text);
      const h = readHints(text);
      deductibleHint ??= h.deductible;
      marketplace ||= h.marketplace;
      bluecard ||= h.bluecard;
      hdhp ||= h.hdhp;
    }
  }
  return {
    loop,
    info,
    level: el(s, 2),
    planWide: services ? services.includes('30') : eb03 === '' || eb03 === '30',
    tier: services ? bhTier(services) : eb03 === '' ? 3 : tierOf(eb03),
    period: el(s, 6),
    net: el(s, 12),
    place,
    telehealth: place === 'telehealth',
    begin,
    status: info.length === 1 && info >= '1' && info <= '8',
    cost: isCostInfo(info) || (info === 'F' && hasVisitLimit(loop)),
    messages,
    deductibleHint,
    marketplace,
    bluecard,
    hdhp,
  };
}

interface PlanDates {
  plan346: DateRange | null;
  plan347: DateRange | null;
  plan291: DateRange | null;
  elig356: DateRange | null;
  elig357: DateRange | null;
  elig307: DateRange | null;
}

/**
 * The first readable date of each qualifier the plan dates come from, member's loop first, then
 * (346/347/356/357 only) the plan-level EB's 2110C DTPs.
 */
function planDates(names: (NameLoop | undefined)[], planEb: BenefitLoop | undefined): PlanDates {
  const out: PlanDates = { plan346: null, plan347: null, plan291: null, elig356: null, elig357: null, elig307: null };
  for (const n of [...names, planEb]) {
    if (!n) continue;
    const benefit = n === planEb;
    for (const dtp of n.dtp) {
      if (benefit && (el(dtp, 1) === '291' || el(dtp, 1) === '307')) continue;
      const q = el(dtp, 1);
      if (q === '346') out.plan346 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
      else if (q === '347') out.plan347 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
      else if (q === '291') out.plan291 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
      else if (q === '356') out.elig356 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
      else if (q === '357') out.elig357 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
      else if (q === '307') out.elig307 ??= readDtpDate(el(dtp, 2), el(dtp, 3));
    }
  }
  return out;
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

/** EB04, EB05, EB07 and EB08 are read when needed: most EBs are never asked for them. */
const insuranceCode = (b: Benefit) => el(b.loop.seg, 4);
const planDescription = (b: Benefit) => el(b.loop.seg, 5);
function statusOf(code: string): CoverageStatus {
  if (code === '5') return 'active_pending_investigation';
  return code >= '6' ? 'inactive' : 'active';
}

const NOT_ADMINISTRATOR = new Set(['X3', 'P3', 'PRP', 'SEP', 'TTP']);
/** 2120C entity codes that name who administers a benefit: PR payer, VN vendor, Y2 managed care organization, 2B third-party administrator, P5 plan sponsor. */
const CARVE_OUT_ENTITY = new Set(['PR', 'VN', 'Y2', '2B', 'P5']);
const COORDINATION: Record<string, AdditionalPolicy['coordination']> = { PRP: 'primary', SEP: 'secondary', TTP: 'tertiary' };

/** `entities`: the EBs that can name an entity (EB01 L/U/R or with a 2120 loop). */
function thirdParty(entities: Benefit[], strongCostShare: boolean): OtherEntity | null {
  for (const b of entities) {
    if ((b.info !== 'U' && b.info !== 'R') || b.tier < 0 || b.tier > STRONG_BH_TIER) continue;
    for (const r of b.loop.related) {
      if (NOT_ADMINISTRATOR.has(el(r.nm1, 1))) continue;
      const e = otherEntity(r);
      if (e) return e;
    }
  }
  // EB*U for the mental-health types naming the administrator only in its MSG.
  for (const b of entities) {
    if (b.info !== 'U' || b.tier < 0 || b.tier > STRONG_BH_TIER || b.loop.related.length > 0) continue;
    for (const text of b.messages) {
      const e = administratorFromMessage(text);
      if (e) return e;
    }
  }
  if (strongCostShare) return null;
  for (const b of entities) {
    if (!isStatus(b) || b.tier < 0 || b.tier > STRONG_BH_TIER || b.telehealth) continue;
    for (const r of b.loop.related) {
      if (!CARVE_OUT_ENTITY.has(el(r.nm1, 1))) continue;
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

const LOCK_IN = /LOCK[- ]?IN|RESTRICTED (PROVIDER|RECIPIENT|PHARMACY)/i;

function primaryCareProvider(current: Benefit[]): Pcp | null {
  const related: RelatedEntity[] = [];
  for (const b of current) if (b.info === 'L') related.push(...b.loop.related);
  if (related.length === 0) {
    // A restricted provider (EB*N, a lock-in) is where the member must go, not the member's PCP.
    for (const b of current) {
      if (b.info === 'N' || b.messages.some((m) => LOCK_IN.test(m))) continue;
      for (const r of b.loop.related) if (el(r.nm1, 1) === 'P3') related.push(r);
    }
  }
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
      insurance_type: otherPayerInsuranceType(insuranceCode(b)),
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
  const individualTotal = (info: 'C' | 'G') => pick(inNet, info, (b) => (isFamilyLevel(b.level) || periodKind(b.period) !== 'total' ? null : readAmount(b)));
  return {
    begin_date: first.begin,
    member_id: memberId,
    in_network:
      inNet.length === 0
        ? null
        : {
            copayment: pick(inNet, 'B', readAmount),
            coinsurance: pick(inNet, 'A', readShareQuiet),
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
  let program: (typeof PROGRAM_BY_CODE)[string] | undefined;
  let planType: PlanType = null;
  // The plan-level EB speaks first, then the others in document order.
  for (let i = -1; i < typed.length; i++) {
    const b = i < 0 ? planLevel : typed[i];
    const c = b ? insuranceCode(b) : '';
    if (c === '') continue;
    program ??= PROGRAM_BY_CODE[c];
    planType ??= PLAN_TYPE_BY_CODE[c] ?? null;
    if (program && planType) break;
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

/** EB05 of the plan-level EB, else of the first status or cost EB that has one. */
function planName(planLevel: Benefit | undefined, typed: Benefit[]): string | null {
  const own = planLevel ? planDescription(planLevel) : '';
  if (own !== '') return own;
  for (const b of typed) {
    const v = planDescription(b);
    if (v !== '') return v;
  }
  return null;
}

function rejection(seg: Segment, level: RejectLevel): Eligibility {
  const code = el(seg, 3);
  const followup = el(seg, 4);
  return { kind: 'rejected', error_code: errorCodeForAaa(code), level, reason_code: code, followup, reason: aaaReason(code, followup) };
}

const isTrn2 = (t: Segment) => el(t, 1) === '2';

const REJECT_LEVEL: Record<HlLevel['kind'], RejectLevel> = {
  payer: 'payer',
  receiver: 'provider',
  subscriber: 'subscriber',
  dependent: 'dependent',
  other: 'payer',
};

/** Options for reading a 271; `trace` collects where each figure came from (the explanation, built only when asked). */
export interface NormalizeOptions {
  trace?: TraceEntry[];
}

function programRule(type: InsuranceType, eb04Sent: boolean): string {
  if (type === 'qmb') return 'QMB (EB04 QM or an other-payer row naming QMB): the member owes $0 of Medicare cost sharing';
  if (!eb04Sent && type === 'commercial') return 'no EB04 and no program named: commercial unless the payer directory marks a state Medicaid program';
  return eb04Sent ? 'EB04 codes, plan and payer names' : 'plan or payer name';
}

export function normalize271(text: string, options: NormalizeOptions = {}): ParseResult<Eligibility> {
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
    let count271 = 0;
    for (const t of allTransactions(ic.value)) if (t.set_id === '271') count271++;
    if (count271 > 1) warnings.push(`the interchange holds ${count271} 271 transaction sets; only the first is read`);
    const { tree, warnings: loopWarnings } = buildLoopTree(tx.body);
    warnings.push(...loopWarnings);
    return readEligibility(tree, d, { index: tx.st.index, id: 'ST', offset: tx.st.offset }, warnings, options.trace);
  });
}

/** The Eligibility a 271's loop tree states; `at` locates the transaction set for errors. */
function readEligibility(
  tree: LoopTree,
  d: Delimiters,
  at: { index: number; id: string; offset: number },
  warnings: string[],
  trace?: TraceEntry[],
): ParseResult<Eligibility> {
  const payerLevel = tree.levels.find((l) => l.kind === 'payer');
  const receiverLevel = tree.levels.find((l) => l.kind === 'receiver');
  const subscriberLevels = tree.levels.filter((l) => l.kind === 'subscriber');
  const subscriberLevel = subscriberLevels[0];
  if (subscriberLevels.length > 1) warnings.push(`${subscriberLevels.length} subscriber levels (2000C); only the first is read`);
  const dependentLevel = subscriberLevel?.children.find((c) => c.kind === 'dependent');

  for (const level of [payerLevel, receiverLevel, subscriberLevel, dependentLevel]) {
    if (!level) continue;
    const hit = levelAaa(level);
    if (hit) return ok(rejection(hit, REJECT_LEVEL[level.kind]), warnings);
  }
  if (!subscriberLevel) {
    for (const level of tree.levels) {
      const hit = levelAaa(level) ?? benefitAaaOf(level)[0];
      if (hit) return ok(rejection(hit, REJECT_LEVEL[level.kind]), warnings);
    }
    return fail('the 271 has no subscriber level (2000C, HL03=22) and no AAA rejection', at);
  }

  const memberLevel = dependentLevel ?? subscriberLevel;
  const benefitLevel = memberLevel.benefits.length > 0 || !dependentLevel ? memberLevel : subscriberLevel;
  const memberName = memberLevel.names[0];
  const subscriberName = subscriberLevel.names[0];
  const names = [memberName, subscriberName];

  const all: Benefit[] = [];
  for (const b of benefitLevel.benefits) if (b.seg.id === 'EB') all.push(readBenefit(b, d));
  const benefitAaa = benefitAaaOf(benefitLevel);
  if (benefitAaa.length > 0) {
    if (!all.some((b) => isStatus(b) || isCost(b))) return ok(rejection(benefitAaa[0]!, REJECT_LEVEL[benefitLevel.kind]), warnings);
    for (const a of benefitAaa) warnings.push(`benefit-level ${aaaReason(el(a, 3), el(a, 4))} at segment ${a.index}`);
  }

  const dates = planDates(names, all.find((b) => b.status && b.planWide && b.begin === null)?.loop);
  const { plan346, plan291, elig356, elig307 } = dates;
  const planBegin = plan346?.start ?? plan291?.start ?? elig356?.start ?? elig307?.start ?? null;
  const reportedEnd = dates.plan347?.start ?? plan346?.end ?? plan291?.end ?? null;
  const reportedEligibilityEnd = dates.elig357?.start ?? elig307?.end ?? elig356?.end ?? null;
  const planEnd = reportedEnd;
  const bht = tree.header.find((s) => s.id === 'BHT');
  const reference = planBegin ?? (bht ? d8ToIso(el(bht, 4)) : null);
  // One pass sorts the EBs into the lists the readers below need.
  const current: Benefit[] = [];
  const next: Benefit[] = [];
  const bh: Benefit[] = [];
  const teleList: Benefit[] = [];
  const typed: Benefit[] = [];
  const entities: Benefit[] = [];
  let planLevel: Benefit | undefined;
  let firstStatus: Benefit | undefined;
  let mhStatus: Benefit | undefined;
  let strongCostShare = false;
  for (const b of all) {
    if (b.begin !== null && reference !== null && b.begin > reference && (planEnd === null || b.begin > planEnd)) {
      next.push(b);
      continue;
    }
    current.push(b);
    const strong = b.tier >= 0 && b.tier <= STRONG_BH_TIER && !b.telehealth;
    if (b.tier >= 0) {
      // An EB listed for the office and telehealth alike prices both; inpatient or ER EBs price neither.
      if (pricesTelehealth(b.place)) teleList.push(b);
      if (pricesOffice(b.place) || !isShareInfo(b.info)) bh.push(b);
    }
    if (b.status || b.cost || b.info === 'MC') typed.push(b);
    if (b.info === 'L' || b.info === 'U' || b.info === 'R' || b.loop.related.length > 0) entities.push(b);
    if (b.cost && strong) strongCostShare = true;
    if (b.status) {
      firstStatus ??= b;
      if (!planLevel && b.planWide) planLevel = b;
      if (strong) mhStatus ??= b;
    }
  }
  planLevel ??= firstStatus;
  let coverageStatus: CoverageStatus;
  if (planLevel) coverageStatus = statusOf(planLevel.info);
  else if (current.some((b) => isCostInfo(b.info))) {
    coverageStatus = 'active';
    warnings.push('no eligibility status EB (EB01 1-8); reading the plan as active because it reports cost shares');
  } else {
    coverageStatus = 'inactive';
    warnings.push('no eligibility status EB (EB01 1-8) and no benefits; reading the plan as inactive');
  }

  const { plan_end_date, eligibility_end_date } =
    coverageStatus === 'inactive'
      ? { plan_end_date: planEnd, eligibility_end_date: reportedEligibilityEnd }
      : terminationOf({
          begin: planBegin,
          end: planEnd,
          endFrom347: dates.plan347 !== null,
          eligibilityEnd: reportedEligibilityEnd,
          nextBegin: next[0]?.begin ?? null,
        });

  const flags = { is_marketplace: false, is_bluecard: false, is_hdhp: false };
  const messages: string[] = [];
  for (const b of all) {
    if (b.messages === NO_MESSAGES) continue;
    flags.is_marketplace ||= b.marketplace;
    flags.is_bluecard ||= b.bluecard;
    flags.is_hdhp ||= b.hdhp;
    for (const text of b.messages) if (!isCanonicalHint(text)) messages.push(text);
  }
  const planNameRef = refIn(names, '18');
  const payerNm1 = payerLevel?.names[0]?.nm1;
  const plan_name = planName(planLevel, typed) ?? (planNameRef ? orNull(el(planNameRef, 3)) : null);
  const eb04Sent = (planLevel !== undefined && insuranceCode(planLevel) !== '') || typed.some((b) => insuranceCode(b) !== '');
  const { insurance_type, plan_type, qmb } = refineProgram(insuranceAndPlanType(planLevel, typed, current, flags), current, {
    planNames: [plan_name, planNameRef ? el(planNameRef, 3) : null],
    payerName: payerNm1 ? entityName(payerNm1) : null,
    eb04Sent,
  });

  // Traditional Medicare: the session is a Part B service; Part A benefits (its inpatient deductible) never price it.
  const parts = insurance_type === 'medicare' || insurance_type === 'qmb' ? medicareParts(current, bht ? d8ToIso(el(bht, 4)) : null) : null;
  const priced = parts && parts.a !== 'absent' ? bh.filter((b) => insuranceCode(b) !== 'MA') : bh;
  let in_network = networkBenefits(priced, 'in', warnings, trace);
  let out_of_network = networkBenefits(priced, 'out', warnings, trace);
  if (parts && coverageStatus !== 'inactive' && partBMissing(parts)) {
    in_network = notCovered(in_network);
    out_of_network = notCovered(out_of_network);
    trace?.push(traced('not covered', null, null, `Medicare Part A ${parts.a}, Part B ${parts.b}: outpatient psychotherapy is a Part B service`));
  }
  if (trace && parts && parts.a !== 'absent') trace.push(traced('Part A benefits', null, null, 'Part A (EB04 MA) benefits never price an outpatient session'));
  const teleIn = telehealthShare(teleList, 'in', in_network, warnings, trace);
  const teleOut = telehealthShare(teleList, 'out', out_of_network, warnings, trace);
  if (trace) trace.push(traced(`insurance type: ${insurance_type}`, null, null, programRule(insurance_type, eb04Sent)));

  const third = thirdParty(entities, strongCostShare);
  if (trace && third)
    trace.push(traced('carve-out', null, null, `behavioral health is administered by ${third.name}: the medical plan's benefits never price it`));
  let mental: MentalHealthCoverage = 'unknown';
  if (third) mental = 'carved_out';
  else if (mhStatus) mental = statusOf(mhStatus.info) === 'inactive' ? 'inactive' : 'active';
  else if (strongCostShare) mental = 'active';

  const group = refIn(names, '6P');
  const groupIdRef = group && el(group, 2) !== '' ? group : refIn(names, '1L');
  if (!payerNm1) warnings.push('the 271 names no payer (2100A NM1*PR)');
  const member = readPerson(memberName);
  const subscriber = dependentLevel ? readPerson(subscriberName) : member;
  const ins = memberName?.ins ?? null;
  const trn = memberLevel.trn.find(isTrn2) ?? subscriberLevel.trn.find(isTrn2) ?? null;

  const coverage: Coverage = {
    payer_id: payerNm1 ? el(payerNm1, 9) : '',
    payer_name: payerNm1 ? entityName(payerNm1) : '',
    plan_name,
    plan_type,
    insurance_type,
    group_name: group ? orNull(el(group, 3)) : null,
    group_id: groupIdRef ? orNull(el(groupIdRef, 2)) : null,
    plan_begin_date: planBegin,
    plan_end_date,
    eligibility_end_date,
    coverage_status: coverageStatus,
    mental_health_coverage: mental,
    in_network,
    out_of_network,
    telehealth: teleIn || teleOut ? { in_network: teleIn, out_of_network: teleOut } : null,
    pcp: primaryCareProvider(entities),
    third_party_payer: third,
    utilization_manager: utilizationManager(entities),
    additional_policies: additionalPolicies(entities, warnings),
    is_marketplace: flags.is_marketplace,
    is_bluecard: flags.is_bluecard,
    is_hdhp: flags.is_hdhp,
    member,
    subscriber,
    relationship_to_subscriber: dependentLevel ? (ins ? relationshipFromIns(el(ins, 2)) : 'other') : 'self',
    payer_corrected_demographics: ins !== null && el(ins, 3) === '001' && el(ins, 4) === '25',
    next_plan_year: nextPlanYear(next),
    messages,
  };
  if (insurance_type === 'commercial' && !eb04Sent) coverage.program_unstated = true;
  if (qmb) coverage.qmb = true;
  return ok({ kind: 'coverage', coverage, trace_number: trn ? orNull(el(trn, 2)) : null }, warnings);
}
