/** X12 code values the 270/271 readers and writers share. */
import type { InsuranceType, PlanType, Relationship } from '../domain/coverage.ts';
import { codeIn, codeTable } from './code-tables/index.ts';
import { isMentalHealthType, programOf } from './code-tables/attributes.ts';

export { isTelehealthPlace } from './code-tables/attributes.ts';

/**
 * Behavioral-health service type codes come in preference tiers (docs/interface.md section 6), most
 * specific first: 0 is MH, 1 the specific behavioral codes CF/A4/A6/A7/A8/AI, 2 professional
 * (office) visit 98, 3 plan level 30 (docs/estimates.md section 1; the tiers are code-tables/eb03.json). The tiers
 * up to this one are the service types that speak for mental health itself (not the fallbacks).
 */
export const STRONG_BH_TIER = 1;

/**
 * Whether an EB03 list names a service type of mental health itself (eb03.json `mentalHealth`: Mental
 * Health, Mental Health Provider - Outpatient, Psychiatric, Psychotherapy, Psychiatric - Inpatient / -
 * Outpatient). Not substance abuse's AI, AJ, AK: a status or an administrator stated for those alone
 * says nothing of a psychotherapy session (docs/estimates.md 1.1, 1.3).
 */
export const namesMentalHealth = (types: readonly string[] | undefined) => types !== undefined && types.some(isMentalHealthType);

let tiers: Map<string, number> | null = null;

/** The behavioral-health tier of one service type code, -1 when it is not one (code-tables/eb03.json). */
export function tierOf(code: string): number {
  if (!tiers) {
    tiers = new Map();
    for (const [c, e] of Object.entries(codeTable('eb03').codes)) if (e.tier !== null && e.tier !== undefined) tiers.set(c, e.tier);
  }
  return tiers.get(code) ?? -1;
}

/** Best (lowest) tier among an EB03 list; an empty list is plan level (30). -1: not behavioral health. */
export function bhTier(serviceTypes: readonly string[]): number {
  if (serviceTypes.length === 0) return 3;
  let best = -1;
  for (const s of serviceTypes) {
    const t = tierOf(s);
    if (t >= 0 && (best < 0 || t < best)) best = t;
  }
  return best;
}

/** EB04 plan-type codes and the plan type each names. */
const PLAN_TYPE_BY_CODE: Readonly<Record<string, Exclude<PlanType, null | 'HDHP'>>> = {
  HM: 'HMO',
  PR: 'PPO',
  EP: 'EPO',
  PS: 'POS',
  IN: 'INDEMNITY',
};

export const planTypeOfCode = (code: string) => codeIn(PLAN_TYPE_BY_CODE, code) ?? null;

export const CODE_BY_PLAN_TYPE: Readonly<Record<Exclude<PlanType, null>, string>> = {
  HMO: 'HM',
  PPO: 'PR',
  EPO: 'EP',
  POS: 'PS',
  INDEMNITY: 'IN',
  HDHP: 'C1',
};

export type ProgramType = 'medicare' | 'medicare_advantage' | 'medicaid' | 'qmb';

/** The government program an EB04 code names (eb04.json `program`); anything else reads as commercial. */
export const programOfCode = (code: string): ProgramType | null => programOf(code) ?? null;

/** EB04 the 271 builder writes for each insurance type (plan level). */
export const CODE_BY_PROGRAM: Readonly<Partial<Record<InsuranceType, string>>> = {
  medicare: 'MB',
  medicare_advantage: 'HN',
  medicaid: 'MC',
  managed_medicaid: 'MC',
  qmb: 'QM',
};

/** Commercial EB04 codes for other payers (EB*R), including the Medicare-secondary reasons. */
const COMMERCIAL_CODES = new Set(['C1', 'CO', 'HM', 'PR', 'EP', 'PS', 'IN', '12', '13', '14', '15', '16', '41', '42', '43', '47']);

export function otherPayerInsuranceType(code: string): InsuranceType | null {
  const program = programOfCode(code);
  if (program) return program;
  return COMMERCIAL_CODES.has(code) ? 'commercial' : null;
}

export function otherPayerCode(type: InsuranceType | null): string {
  if (type === null) return '';
  return CODE_BY_PROGRAM[type] ?? 'C1';
}

/** INS02 individual relationship codes. */
export function relationshipFromIns(code: string): Relationship {
  switch (code) {
    case '18':
      return 'self';
    case '01':
      return 'spouse';
    case '19':
      return 'child';
    default:
      return 'other';
  }
}

export const INS_BY_RELATIONSHIP: Readonly<Record<Relationship, string>> = { self: '18', spouse: '01', child: '19', other: 'G8' };

let kinds: Map<string, 'remaining' | 'met' | 'total' | 'other'> | null = null;

/** What an amount with EB06 period states: a remaining, an amount met so far, a total (EB06 absent too), or none (code-tables/eb06.json). */
export function periodKind(eb06: string): 'remaining' | 'met' | 'total' | 'other' {
  if (eb06 === '') return 'total';
  if (!kinds) {
    kinds = new Map();
    for (const [c, e] of Object.entries(codeTable('eb06').codes)) kinds.set(c, e.kind ?? 'other');
  }
  return kinds.get(eb06) ?? 'other';
}

/**
 * What a limit stated with this EB09 / HSD01 quantity qualifier counts (code-tables/quantity.json):
 * visits (VS), another unit of service a session uses (HS hours, DY days, P6 services, FL units), or
 * nothing a session uses (ages, spans of time, inpatient days, a kind of quantity without its unit,
 * a code not in the TR3 list).
 */
export function limitUnit(qualifier: string): 'visits' | 'service' | 'none' {
  // Most limits are in visits, and most rows name no unit: both without a table lookup.
  if (qualifier === 'VS') return 'visits';
  if (qualifier === '') return 'none';
  const e = codeIn(codeTable('quantity').codes, qualifier);
  return e?.unit ?? 'none';
}

/**
 * What a limit row (EB01 F) stating a quantity of no unit of its own says (code-tables/quantity.json `limit`):
 * the used count (99) or the total (M2) of the limit beside it, in that limit's unit; or what is left of the
 * limit is unknown (8H, CA, CE, QA). Null for a unit (limitUnit) or a quantity decided as no limit.
 */
export function limitQuantity(qualifier: string): 'used' | 'maximum' | 'unknown' | null {
  if (qualifier === '') return null;
  const l = codeIn(codeTable('quantity').codes, qualifier)?.limit;
  return l === 'used' || l === 'maximum' || l === 'unknown' ? l : null;
}
