/**
 * The per-session split between member and payer (docs/estimates.md section 4), in integer cents.
 *
 * A value is reported only when what is known determines it: unknown inputs (cost share,
 * remaining deductible, remaining OOP) are replaced by their extremes, and the member's share is
 * returned only when the lowest and highest possible shares agree. The share is non-decreasing in
 * each input, so this is exact: an unknown never turns into a made-up 0.
 */
import type { Cents, CostShare } from '../coverage.ts';

/** A known cost share in the form the arithmetic uses. */
export interface CostShareRule {
  /** Per-session copay in cents; 0 when there is none. */
  copay: Cents;
  /** Coinsurance in millionths of the amount (percent points × 10 000), clamped to 0..100 %. */
  rate: bigint;
  /** The greater or the lesser of the copay and the coinsurance (docs/estimates.md 1.1); absent: both, the copay first. */
  combine?: 'greater' | 'lesser';
  /** The most the coinsurance part comes to for one session, in cents (docs/estimates.md 1.1, "Cost shares qualified in words"); absent: no cap. */
  coinsCap?: Cents;
}

const MILLION = 1_000_000n;

/** null when the cost share is unknown (neither copay nor coinsurance reported); a missing part counts as none. */
export function toCostShareRule(cs: CostShare): CostShareRule | null {
  if (cs.copayment === null && cs.coinsurance === null) return null;
  const copay = cs.copayment !== null && cs.copayment > 0 ? cs.copayment : 0;
  const percent = cs.coinsurance !== null ? Math.min(100, Math.max(0, cs.coinsurance)) : 0;
  const rule: CostShareRule = { copay, rate: BigInt(Math.round(percent * 10_000)) };
  if (cs.combine && cs.copayment !== null && cs.coinsurance !== null) rule.combine = cs.combine;
  if (cs.coinsurance_cap !== undefined && cs.coinsurance !== null) rule.coinsCap = cs.coinsurance_cap;
  return rule;
}

/**
 * The member's cost share on an amount x (cents): copay, coinsurance × x, or for both
 * copay + coinsurance × (x − copay). The coinsurance part is rounded half up to the cent, then capped
 * at `coinsCap` when the payer caps it per session.
 * Never more than x.
 */
export function shareOn(rule: CostShareRule, x: Cents): Cents {
  if (x <= 0) return 0;
  if (rule.combine) {
    const copay = Math.min(rule.copay, x);
    const coins = Math.min(x, rule.coinsCap ?? x, Number((BigInt(x) * rule.rate + MILLION / 2n) / MILLION));
    return rule.combine === 'greater' ? Math.max(copay, coins) : Math.min(copay, coins);
  }
  const copayPart = Math.min(rule.copay, x);
  const base = BigInt(x - copayPart);
  const coinsPart = Math.min(rule.coinsCap ?? Infinity, Number((base * rule.rate + MILLION / 2n) / MILLION));
  return Math.min(x, copayPart + coinsPart);
}

/**
 * What is known about the plan when pricing a session; null means unknown.
 * `deductibleRemaining` is read only when `afterDeductible`; `oopRemaining` only when `hasOopMax`.
 */
export interface PlanFacts {
  rule: CostShareRule | null;
  afterDeductible: boolean | null;
  deductibleRemaining: Cents | null;
  hasOopMax: boolean | null;
  oopRemaining: Cents | null;
}

/** The member's share with every input known (O = Infinity: no OOP max). */
function memberExact(share: (x: Cents) => Cents, afterDeductible: boolean, D: Cents, O: Cents, C: Cents): Cents {
  let member: Cents;
  if (afterDeductible && D >= C) member = C;
  else if (afterDeductible && D > 0) member = D + share(C - D);
  else member = share(C);
  return Math.max(0, Math.min(member, C, O));
}

const NOTHING = (): Cents => 0;
const EVERYTHING = (x: Cents): Cents => x;

/** What the member pays for one session of cost C, or null when the known facts do not determine it. */
export function memberObligation(f: PlanFacts, C: Cents): Cents | null {
  const rule = f.rule;
  const share = rule ? (x: Cents) => shareOn(rule, x) : null;
  const oopLow = f.hasOopMax === false ? Infinity : (f.oopRemaining ?? 0);
  const oopHigh = f.hasOopMax === false ? Infinity : f.hasOopMax === true ? (f.oopRemaining ?? Infinity) : Infinity;
  const low = memberExact(share ?? NOTHING, f.afterDeductible ?? false, f.deductibleRemaining ?? 0, oopLow, C);
  const high = memberExact(share ?? EVERYTHING, f.afterDeductible ?? true, f.deductibleRemaining ?? C, oopHigh, C);
  return low === high ? low : null;
}

export interface Split {
  member: Cents | null;
  payer: Cents | null;
}

/** Payer pays the rest of the session cost; both null when the member's share is unknown. */
export function split(member: Cents | null, C: Cents): Split {
  return member === null ? { member: null, payer: null } : { member, payer: C - member };
}

export interface PhaseSplits {
  /** While the deductible is unmet: full cost for after-deductible plans, else the cost share. */
  preDeductible: Split;
  /** Once the deductible is met (and the OOP max is not): the cost share. */
  postDeductible: Split;
  /** Once the OOP max is met: member 0; both null when the plan has no OOP max (or it is unknown whether it has one). */
  postOopMax: Split;
}

/**
 * The phase splits describe the plan's rule in each phase of the plan year; they ignore the
 * current remaining amounts (which only `member_obligation` applies).
 */
export function phaseSplits(f: PlanFacts, C: Cents): PhaseSplits {
  const noCap: PlanFacts = { ...f, hasOopMax: false, oopRemaining: null };
  const pre = memberObligation({ ...noCap, deductibleRemaining: C }, C);
  const post = memberObligation({ ...noCap, deductibleRemaining: 0 }, C);
  return {
    preDeductible: split(pre, C),
    postDeductible: split(post, C),
    postOopMax: f.hasOopMax === true ? split(0, C) : split(null, C),
  };
}
