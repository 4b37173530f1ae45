/**
 * Government programs in a 271 beyond the plan-level EB04 code (docs/estimates.md section 1.2):
 * QMB anywhere in the answer, Medicare Advantage and Medicaid named by plan or payer text, and
 * Medicare Parts A and B (outpatient psychotherapy is a Part B service).
 */
import type { InsuranceType, IsoDate, NetworkBenefits, PlanType } from '../domain/coverage.ts';
import type { BenefitLoop } from './loops.ts';
import { el } from './tokenizer.ts';
import { readDtpDate } from './values.ts';

/** What program typing reads of one EB. */
export interface ProgramBenefit {
  loop: BenefitLoop;
  info: string;
  status: boolean;
  cost: boolean;
}

const QMB_TEXT = /\bQMB\b|QUALIFIED MEDICARE BENEFICIAR/;
/** Plan or payer text that names a state Medicaid program (the program names of states that do not say "Medicaid"). */
const MEDICAID_TEXT =
  /MEDICAID|MEDI-CAL|\bMEDI CAL\b|MASSHEALTH|TENNCARE|SOONERCARE|BADGERCARE|HUSKY HEALTH|APPLE HEALTH|KANCARE|HOOSIER HEALTHWISE|\bCHIP\b|MEDICAL ASSISTANCE PROGRAM|AHCCCS|DENALI ?CARE|HEALTH FIRST COLORADO|MAINECARE|MED-QUEST|NJ FAMILYCARE|HEALTHY CONNECTIONS|CENTENNIAL CARE|DR\.? DYNASAUR|GREEN MOUNTAIN CARE|MO HEALTHNET|NEBRASKA TOTAL CARE|LOUISIANA HEALTHCARE CONNECTIONS/;
const MEDICARE_TEXT = /MEDICARE/;
/** Medicare supplements name Medicare but are commercial. */
const SUPPLEMENT_TEXT = /SUPPLEMENT|MEDIGAP|MEDICARE SUPP\b/;
const ADVANTAGE_TEXT = /MEDICARE ADVANTAGE|\bMAPD\b|\bMA-PD\b/;

/** Whether an EB names QMB: EB04 QM on an active benefit, or an other-payer row (EB*R) whose plan or entity text says QMB. */
function namesQmb(b: ProgramBenefit): boolean {
  const seg = b.loop.seg;
  if (el(seg, 4) === 'QM' && (b.cost || (b.status && el(seg, 1) <= '5'))) return true;
  if (b.info !== 'R') return false;
  if (QMB_TEXT.test(el(seg, 5).toUpperCase())) return true;
  return b.loop.related.some((r) => QMB_TEXT.test(el(r.nm1, 3).toUpperCase()));
}

/**
 * The insurance type once the whole answer is read: `base` comes from the EB04 codes of the
 * plan-level EB (and the other EBs in order). Plan names count whenever EB04 names no program;
 * the payer's name only says Medicare Advantage when it says so, and Medicaid only when no EB04 is sent at all.
 */
export function refineProgram(
  base: { insurance_type: InsuranceType; plan_type: PlanType },
  benefits: readonly ProgramBenefit[],
  context: { planNames: readonly (string | null)[]; payerName: string | null; eb04Sent: boolean },
): { insurance_type: InsuranceType; plan_type: PlanType; qmb: boolean } {
  let { insurance_type, plan_type } = base;
  const plan = context.planNames
    .filter((t): t is string => t !== null && t !== '')
    .join(' | ')
    .toUpperCase();
  const payer = (context.payerName ?? '').toUpperCase();
  const commercialish = insurance_type === 'commercial' || insurance_type === 'marketplace';
  const medicareNamed = (MEDICARE_TEXT.test(plan) && !SUPPLEMENT_TEXT.test(plan)) || ADVANTAGE_TEXT.test(payer);
  if (insurance_type === 'medicare' && benefits.some((b) => (b.status || b.cost) && el(b.loop.seg, 4) === 'HN')) insurance_type = 'medicare_advantage';
  else if (commercialish && medicareNamed && (ADVANTAGE_TEXT.test(plan) || ADVANTAGE_TEXT.test(payer) || (plan_type !== null && plan_type !== 'HDHP'))) {
    insurance_type = 'medicare_advantage';
  } else if (commercialish && (MEDICAID_TEXT.test(plan) || (!context.eb04Sent && MEDICAID_TEXT.test(payer)))) {
    insurance_type = plan_type === 'HMO' || benefits.some((b) => b.info === 'MC') ? 'managed_medicaid' : 'medicaid';
  }
  let qmb = false;
  if (insurance_type === 'medicare' || insurance_type === 'medicaid' || insurance_type === 'commercial' || insurance_type === 'medicare_advantage') {
    if (benefits.some(namesQmb)) {
      // A QMB member of a Medicare Advantage plan keeps the plan's type and is flagged QMB beside it.
      if (insurance_type === 'medicare_advantage') qmb = true;
      else insurance_type = 'qmb';
    }
  }
  if (insurance_type === 'medicare_advantage' && plan_type === null) plan_type = 'HMO';
  return { insurance_type, plan_type, qmb };
}

export type PartState = 'active' | 'ended' | 'absent';

/** The last day an EB's own dates (DTP 307/347/357 or a 291/346/356 range) cover, when it has one. */
function endOf(loop: BenefitLoop): IsoDate | null {
  for (const dtp of loop.dtp) {
    const q = el(dtp, 1);
    if (q !== '307' && q !== '347' && q !== '357' && q !== '291' && q !== '346' && q !== '356') continue;
    const range = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (!range) continue;
    if (q === '347' || q === '357') return range.start;
    if (range.end && range.end !== range.start) return range.end;
  }
  return null;
}

/** The first day an EB's own dates (DTP 307/346/356/348, a single date or a range's start) cover, when it has one. */
function startOf(loop: BenefitLoop): IsoDate | null {
  for (const dtp of loop.dtp) {
    const q = el(dtp, 1);
    if (q !== '307' && q !== '346' && q !== '356' && q !== '348') continue;
    const range = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (range) return range.start;
  }
  return null;
}

/** Medicare Part A (EB04 MA) and Part B (EB04 MB) as the status EBs state them on `asOf` (an entitlement starting later is not in force). */
export function medicareParts(benefits: readonly ProgramBenefit[], asOf: IsoDate | null): { a: PartState; b: PartState } {
  const part = (code: string): PartState => {
    let state: PartState = 'absent';
    for (const b of benefits) {
      if (!b.status || el(b.loop.seg, 4) !== code) continue;
      const end = endOf(b.loop);
      const start = startOf(b.loop);
      const active = el(b.loop.seg, 1) <= '5' && !(end !== null && asOf !== null && end < asOf) && !(start !== null && asOf !== null && start > asOf);
      if (active) return 'active';
      state = 'ended';
    }
    return state;
  };
  return { a: part('MA'), b: part('MB') };
}

/**
 * Outpatient psychotherapy is a Part B service (42 CFR 410.32 ff., Medicare Benefit Policy Manual
 * ch. 15 §160): with Part A alone, or Part B ended, the session is not covered.
 */
export function partBMissing(parts: { a: PartState; b: PartState }): boolean {
  return parts.b === 'ended' || (parts.b === 'absent' && parts.a !== 'absent');
}

export function notCovered(reported: NetworkBenefits | null, reason: string): NetworkBenefits {
  return {
    not_covered_reason: reason,
    copayment: null,
    coinsurance: null,
    deductible_applies: false,
    deductible: reported?.deductible ?? null,
    oop_max: reported?.oop_max ?? null,
    visit_limit: null,
    not_covered: true,
  };
}
