/** X12 code values the 270/271 readers and writers share. */
import type { InsuranceType, PlanType, Relationship } from '../domain/coverage.ts';

/**
 * Behavioral-health service type codes come in preference tiers (NOTES.md section 5), most
 * specific first: 0 is MH, 1 the specific behavioral codes CF/A4/A6/A7/A8/AI, 2 professional
 * (office) visit 98, 3 plan level 30 (docs/estimates.md section 1).
 */
/** The service types that speak for mental health itself (not the fallbacks). */
export const STRONG_BH_TIER = 1;

/** The behavioral-health tier of one service type code, -1 when it is not one. */
export function tierOf(code: string): number {
  switch (code) {
    case 'MH':
      return 0;
    case 'CF':
    case 'A4':
    case 'A6':
    case 'A7':
    case 'A8':
    case 'AI':
      return 1;
    case '98':
      return 2;
    case '30':
      return 3;
    default:
      return -1;
  }
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
export const PLAN_TYPE_BY_CODE: Readonly<Record<string, Exclude<PlanType, null | 'HDHP'>>> = {
  HM: 'HMO',
  PR: 'PPO',
  EP: 'EPO',
  PS: 'POS',
  IN: 'INDEMNITY',
};

export const CODE_BY_PLAN_TYPE: Readonly<Record<Exclude<PlanType, null>, string>> = {
  HMO: 'HM',
  PPO: 'PR',
  EPO: 'EP',
  POS: 'PS',
  INDEMNITY: 'IN',
  HDHP: 'C1',
};

/** EB04 codes that name a government program; anything else reads as commercial. */
export const PROGRAM_BY_CODE: Readonly<Record<string, 'medicare' | 'medicare_advantage' | 'medicaid' | 'qmb'>> = {
  MA: 'medicare',
  MB: 'medicare',
  MP: 'medicare',
  CP: 'medicare',
  HN: 'medicare_advantage',
  MC: 'medicaid',
  QM: 'qmb',
};

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
  const program = PROGRAM_BY_CODE[code];
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

/** EB06 time period qualifiers that state a remaining amount, an amount met so far, or a total. */
export function periodKind(eb06: string): 'remaining' | 'met' | 'total' | 'other' {
  switch (eb06) {
    case '29':
    case '33':
      return 'remaining';
    case '24':
      return 'met';
    case '':
    case '21':
    case '22':
    case '23':
    case '25':
    case '26':
    case '32':
      return 'total';
    default:
      return 'other';
  }
}

/** III02 place-of-service codes for telehealth: 02 telehealth other than home, 10 telehealth in the patient's home. */
export function isTelehealthPlace(code: string): boolean {
  return code === '02' || code === '10';
}
