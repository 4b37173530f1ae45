/** Which plan the benefits describe: its program and type, its name, and next plan year when the payer sends it. */
import type { InsuranceType, NextPlanYear, PlanType } from '../domain/coverage.ts';
import { costApplies, isFamilyLevel, readAmount, statusApplies } from './benefit-selection.ts';
import { periodKind, planTypeOfCode, programOfCode, type ProgramType } from './codes.ts';
import { benefitRef, benefitRole, isManagedCareEntity } from './code-tables/attributes.ts';
import { el } from './tokenizer.ts';
import { type Benefit, isStatus, isCost, readShareQuiet, pick, insuranceCode, planDescription } from './eb-benefit.ts';

const individualTotal = (b: Benefit) => (isFamilyLevel(b.level) || periodKind(b.period) !== 'total' ? null : readAmount(b));

export function nextPlanYear(next: Benefit[]): NextPlanYear | null {
  const first = next[0];
  if (!first || !first.begin) return null;
  let memberId: string | null = null;
  for (const b of next) {
    const ref = b.loop.ref.find((r) => benefitRef(el(r, 1)) === 'member_id' && el(r, 2) !== '');
    if (ref) {
      memberId = el(ref, 2);
      break;
    }
  }
  const bh = next.filter((b) => b.tier >= 0 && !b.telehealth);
  const inNet = bh.filter((b) => (isCost(b) && costApplies(b, 'in')) || (isStatus(b) && statusApplies(b, 'in')));
  return {
    begin_date: first.begin,
    member_id: memberId,
    in_network:
      inNet.length === 0
        ? null
        : {
            copayment: pick(inNet, 'copayment', readAmount),
            coinsurance: pick(inNet, 'coinsurance', readShareQuiet),
            deductible: pick(inNet, 'deductible', individualTotal),
            oop_max: pick(inNet, 'out_of_pocket', individualTotal),
          },
  };
}

export function insuranceAndPlanType(
  planLevel: Benefit | undefined,
  typed: Benefit[],
  current: Benefit[],
  flags: { is_hdhp: boolean; is_marketplace: boolean },
): { insurance_type: InsuranceType; plan_type: PlanType } {
  let program: ProgramType | null = null;
  let planType: PlanType = null;
  // The plan-level EB speaks first, then the others in document order.
  for (let i = -1; i < typed.length; i++) {
    const b = i < 0 ? planLevel : typed[i];
    const c = b ? insuranceCode(b) : '';
    if (c === '') continue;
    program ??= programOfCode(c);
    planType ??= planTypeOfCode(c);
    if (program && planType) break;
  }
  let insurance: InsuranceType = program ?? 'commercial';
  // Medicaid through an HMO, a managed care coordinator (EB*MC) or a managed care organization (2120 Y2) for the plan or
  // behavioral health (not a dental or chiropractic contractor): managed Medicaid, as for a plan named for the state
  // program (medicare.ts refineProgram; docs/estimates.md 1.2).
  if (
    program === 'medicaid' &&
    (planType === 'HMO' ||
      current.some((b) => b.tier >= 0 && (benefitRole(b.info) === 'managed_care' || b.loop.related.some((r) => isManagedCareEntity(el(r.nm1, 1))))))
  ) {
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
export function planName(planLevel: Benefit | undefined, typed: Benefit[]): string | null {
  const own = planLevel ? planDescription(planLevel) : '';
  if (own !== '') return own;
  for (const b of typed) {
    const v = planDescription(b);
    if (v !== '') return v;
  }
  return null;
}

/** The insurance type's rule in words, for the explanation. */
export function programRule(type: InsuranceType, eb04Sent: boolean): string {
  if (type === 'qmb')
    return (
      'QMB (EB04 QM, the aid category of an active status row, or an other-payer ' +
      'row naming QMB, never negated): the member owes $0 of Medicare cost sharing'
    );
  if (!eb04Sent && type === 'commercial') return 'no EB04 and no program named: commercial unless the payer directory marks a state Medicaid program';
  return eb04Sent ? 'EB04 codes, plan and payer names' : 'plan or payer name';
}
