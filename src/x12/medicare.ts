/**
 * Government programs in a 271 beyond the plan-level EB04 code (docs/estimates.md section 1.2):
 * QMB anywhere in the answer, Medicare Advantage and Medicaid named by plan or payer text, and
 * Medicare Parts A and B (outpatient psychotherapy is a Part B service).
 */
import type { InsuranceType, IsoDate, PlanType } from '../domain/coverage.ts';
import type { BenefitLoop } from './loops.ts';
import { benefitDtp, benefitRef, benefitRole, medicarePartOf, paysPremiumOnly, programOf, statusCoverage } from './code-tables/attributes.ts';
import { el } from './tokenizer.ts';
import { readDtpDate } from './values.ts';
import { saysCue } from './benefits/phrases.ts';

/** What program typing reads of one EB. */
export interface ProgramBenefit {
  loop: BenefitLoop;
  info: string;
  status: boolean;
  cost: boolean;
  /** EB04. */
  insurance: string;
}

/**
 * Whether an EB names QMB: EB04 QM on an active benefit; the state's aid category (EB05) of an active
 * status EB saying QMB ("QMB ONLY", "QMB PLUS"); or an other-payer row (EB*R) whose plan or entity text
 * says QMB. EB04 HS (SLMB) and negated text ("NOT QMB") never do: SLMB pays the Part B premium only.
 */
function namesQmb(b: ProgramBenefit): boolean {
  const seg = b.loop.seg;
  const active = b.cost || (b.status && statusCoverage(b.info) !== 'inactive');
  const eb04 = b.insurance;
  if (programOf(eb04) === 'qmb' && active) return true;
  if (paysPremiumOnly(eb04)) return false;
  if (b.status && active && saysCue(el(seg, 5), 'qmb')) return true;
  if (benefitRole(b.info) !== 'other_payer') return false;
  if (saysCue(el(seg, 5), 'qmb')) return true;
  return b.loop.related.some((r) => saysCue(el(r.nm1, 3), 'qmb'));
}

/** A contract number of a Medicare Advantage organization: H (local), R (regional PPO) or E, then four digits (CMS). */
const MA_CONTRACT = /^[HRE]\d{4}/;

/**
 * A Medicare Advantage enrollment as CMS HETS reports it: an EB*R (other payer) row with REF*18 (plan
 * number) a Medicare Advantage contract number and the MA organization in 2120C, whatever its EB04
 * (HN, or the plan's HMO/PPO code).
 */
function advantageRow(b: ProgramBenefit): boolean {
  if (benefitRole(b.info) !== 'other_payer') return false;
  return b.loop.related.length > 0 && b.loop.ref.some((r) => benefitRef(el(r, 1)) === 'plan_number' && MA_CONTRACT.test(el(r, 2)));
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
): { insurance_type: InsuranceType; plan_type: PlanType; qmb: boolean; advantageElsewhere: boolean } {
  let { insurance_type, plan_type } = base;
  let advantageElsewhere = false;
  let names = '';
  for (const t of context.planNames) if (t !== null && t !== '') names = names === '' ? t : `${names} | ${t}`;
  const plan = names.toUpperCase();
  const payer = (context.payerName ?? '').toUpperCase();
  const commercialish = insurance_type === 'commercial' || insurance_type === 'marketplace';
  const medicareNamed = (saysCue(plan, 'medicare') && !saysCue(plan, 'medicare_supplement')) || saysCue(payer, 'medicare_advantage');
  if (insurance_type === 'medicare' && benefits.some((b) => (b.status || b.cost) && programOf(b.insurance) === 'medicare_advantage'))
    insurance_type = 'medicare_advantage';
  else if (insurance_type === 'medicare' && benefits.some(advantageRow)) {
    // Original Medicare answers for a member enrolled in a Medicare Advantage plan: the plan, not Part B, pays.
    insurance_type = 'medicare_advantage';
    advantageElsewhere = true;
  } else if (
    commercialish &&
    medicareNamed &&
    (saysCue(plan, 'medicare_advantage') || saysCue(payer, 'medicare_advantage') || (plan_type !== null && plan_type !== 'HDHP'))
  ) {
    insurance_type = 'medicare_advantage';
  } else if (commercialish && (saysCue(plan, 'medicaid') || (!context.eb04Sent && saysCue(payer, 'medicaid')))) {
    insurance_type = plan_type === 'HMO' || benefits.some((b) => benefitRole(b.info) === 'managed_care') ? 'managed_medicaid' : 'medicaid';
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
  return { insurance_type, plan_type, qmb, advantageElsewhere };
}

/** A part's entitlement on the date of service: in force, ended (or inactive), not yet begun, or not reported. */
export type PartState = 'active' | 'ended' | 'not yet begun' | 'absent';

/** The last day an EB's own dates (DTP 307/347/357 or a 291/346/356 range) cover, when it has one. */
function endOf(loop: BenefitLoop): IsoDate | null {
  for (const dtp of loop.dtp) {
    const q = el(dtp, 1);
    const of = benefitDtp.of(q);
    if (of !== 'plan' && of !== 'eligibility') continue;
    const range = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (!range) continue;
    if (benefitDtp.date(q) === 'end') return range.start;
    if (range.end && range.end !== range.start) return range.end;
  }
  return null;
}

/** The first day an EB's own dates (DTP 307/346/356/348, a single date or a range's start) cover, when it has one. */
function startOf(loop: BenefitLoop): IsoDate | null {
  for (const dtp of loop.dtp) {
    const q = el(dtp, 1);
    const date = benefitDtp.date(q);
    // A begin (the plan's, the eligibility's or the benefit's) or the eligibility range; not the plan's 291 range.
    if (date !== 'begin' && !(date === 'range' && benefitDtp.of(q) === 'eligibility')) continue;
    const range = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (range) return range.start;
  }
  return null;
}

/** Medicare Part A (EB04 MA) and Part B (EB04 MB) as the status EBs state them on `asOf` (an entitlement starting later is not in force). */
export function medicareParts(benefits: readonly ProgramBenefit[], asOf: IsoDate | null): { a: PartState; b: PartState } {
  return { a: partState(benefits, asOf, 'part_a'), b: partState(benefits, asOf, 'part_b') };
}

function partState(benefits: readonly ProgramBenefit[], asOf: IsoDate | null, part: 'part_a' | 'part_b'): PartState {
  let state: PartState = 'absent';
  for (const b of benefits) {
    if (!b.status || medicarePartOf(b.insurance) !== part) continue;
    const end = endOf(b.loop);
    const start = startOf(b.loop);
    const future = start !== null && asOf !== null && start > asOf;
    const activeStatus = statusCoverage(b.info) !== 'inactive';
    const active = activeStatus && !(end !== null && asOf !== null && end < asOf) && !future;
    if (active) return 'active';
    if (state !== 'ended') state = future && activeStatus ? 'not yet begun' : 'ended';
  }
  return state;
}
