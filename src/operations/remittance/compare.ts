/**
 * One remittance line against the estimate it matched (docs/remittances.md 'Comparison'): the member's
 * share by kind against the estimate's parts, the payer's payment against payer_obligation, and, when
 * the payer allowed another amount than the session cost, what the estimate's own rule gives at the
 * allowed amount, so a fee-schedule difference is not counted as a benefits error.
 */
import { memberObligation, shareOn, type PlanFacts } from '../../domain/estimate/index.ts';
import { causeOf, causeWords } from '../../x12/remittance/codes.ts';
import { memberShareOf, type MemberShare } from '../../x12/remittance/shares.ts';
import type { Claim, ServiceLine } from '../../x12/remittance/types.ts';
import { planFactsOf, type KeptEstimate, type PricingRule } from './kept-estimate.ts';

export type Verdict = 'exact' | 'within_1' | 'under_collected' | 'over_collected' | 'not_comparable';

/** A dollar: the tolerance of `within_1`. */
const ONE_DOLLAR = 100;

export interface EstimatedParts {
  deductible: number;
  copay: number;
  coinsurance: number;
  total: number;
}

export interface LineComparison {
  verdict: Verdict;
  /** The member's share the payer stated less the one estimated (positive: the desk collected too little). */
  difference: number | null;
  reason: string | null;
  member_share: MemberShare;
  estimated_member: number | null;
  /** The estimate's parts at the session cost; null when the rule is not a known cost share or the OOP maximum capped it. */
  estimated_parts: EstimatedParts | null;
  payer_paid: number;
  estimated_payer: number | null;
  allowed: number | null;
  session_cost: number | null;
  /** The estimate's own rule at the allowed amount (when it differs from the session cost). */
  at_allowed: number | null;
  /** The likely causes, most likely first, in words. */
  causes: string[];
}

/** Statuses whose lines a primary estimate cannot be held to (codes/clp02.json). */
const NOT_COMPARABLE: Readonly<Record<string, string>> = {
  secondary: 'another payer paid first (the claim was processed as secondary)',
  tertiary: 'other payers paid first (the claim was processed as tertiary)',
  not_ours: 'the payer did not adjudicate the claim (not its claim, forwarded)',
  predetermination: 'a predetermination: nothing was paid',
  reversal: 'a reversal of an earlier payment',
  unknown: 'the claim status (CLP02) is not one the TR3 lists',
};

/** The member's share by the estimate's rule on an amount, or null when the rule does not determine it. */
export function ruleAt(rule: PricingRule, amount: number): number | null {
  if (rule.kind === 'whole_session') return amount;
  if (rule.kind === 'nothing') return 0;
  return memberObligation(planFactsOf(rule.facts), amount);
}

/** The deductible, copay and coinsurance parts of the member's share at C, when every fact is known and the OOP max does not cap it. */
export function partsAt(f: PlanFacts, C: number): EstimatedParts | null {
  if (f.rule === null || f.afterDeductible === null) return null;
  if (f.afterDeductible && f.deductibleRemaining === null) return null;
  const deductible = f.afterDeductible ? Math.min(f.deductibleRemaining!, C) : 0;
  const rest = C - deductible;
  const copay = rest > 0 ? Math.min(f.rule.copay, rest) : 0;
  const total = deductible + shareOn(f.rule, rest);
  if (f.hasOopMax === null || (f.hasOopMax && (f.oopRemaining === null || total > f.oopRemaining))) return null;
  return { deductible, copay, coinsurance: total - deductible - copay, total };
}

function verdictOf(difference: number): Verdict {
  if (difference === 0) return 'exact';
  if (Math.abs(difference) <= ONE_DOLLAR) return 'within_1';
  return difference > 0 ? 'under_collected' : 'over_collected';
}

function causesOf(claim: Claim, line: ServiceLine, share: MemberShare, parts: EstimatedParts | null, atAllowed: number | null, kept: KeptEstimate): string[] {
  const out: string[] = [];
  const adjustments = [...line.adjustments, ...claim.adjustments];
  if (
    claim.status === 'denied' ||
    (line.paid_cents === 0 &&
      adjustments.some((a) => ['not_covered', 'authorization', 'medical_necessity', 'eligibility', 'coverage_dates'].includes(causeOf(a.reason))))
  )
    out.push('service denied');
  for (const a of adjustments) {
    const cause = causeOf(a.reason);
    if (cause === 'other_payer') out.push('another payer paid first');
    if (cause === 'carve_out') out.push('carve-out not detected');
  }
  if (atAllowed !== null && share.total === atAllowed && kept.member_obligation !== atAllowed)
    out.push('the allowed amount differs from the session cost (fee schedule)');
  if (parts !== null) {
    if (share.deductible < parts.deductible) out.push('deductible progressed since the check');
    if (share.deductible > parts.deductible) out.push('deductible applied where the estimate did not expect it');
    if (share.copay !== parts.copay) out.push('copay differs');
    if (share.coinsurance !== parts.coinsurance) out.push('coinsurance differs');
  }
  for (const a of adjustments) {
    const cause = causeOf(a.reason);
    if (a.group === 'PR' && !['deductible', 'copay', 'coinsurance'].includes(cause)) out.push(causeWords(cause));
  }
  return [...new Set(out)];
}

export function compareLine(kept: KeptEstimate, claim: Claim, line: ServiceLine): LineComparison {
  const share = memberShareOf(line.adjustments);
  const allowed = line.allowed_cents;
  const C = kept.session_cost;
  const base = {
    member_share: share,
    estimated_member: kept.member_obligation,
    payer_paid: line.paid_cents,
    estimated_payer: kept.payer_obligation,
    allowed,
    session_cost: C,
  };
  const parts = C !== null && kept.rule.kind === 'share' ? partsAt(planFactsOf(kept.rule.facts), C) : null;
  const atAllowed = allowed !== null && allowed !== C ? ruleAt(kept.rule, allowed) : null;
  const blocked = NOT_COMPARABLE[claim.status];
  const units = line.units ?? 1;
  const reason =
    blocked ??
    (kept.member_obligation === null ? "the estimate's member share was unknown (206)" : null) ??
    (units !== 1 ? `the line bills ${units} units; the estimate priced one session` : null);
  if (reason !== null) return { ...base, verdict: 'not_comparable', difference: null, reason, estimated_parts: parts, at_allowed: atAllowed, causes: [] };
  const difference = share.total - kept.member_obligation!;
  const verdict = verdictOf(difference);
  return {
    ...base,
    verdict,
    difference,
    reason: null,
    estimated_parts: parts,
    at_allowed: atAllowed,
    causes: verdict === 'exact' ? [] : causesOf(claim, line, share, parts, atAllowed, kept),
  };
}
