/** The people and organizations a 271 names in 2120C loops: carve-out administrator, utilization manager, PCP, other payers. */
import type { AdditionalPolicy, OtherEntity, Pcp } from '../domain/coverage.ts';
import { codeIn } from './code-tables/index.ts';
import { otherPayerInsuranceType, STRONG_BH_TIER } from './codes.ts';
import { administratorFromMessage } from './carve-out-message.ts';
import { type RelatedEntity } from './loops.ts';
import { el, type Segment } from './tokenizer.ts';
import { type Benefit, orNull, isStatus, insuranceCode } from './eb-benefit.ts';

function phoneOf(pers: Segment[]): string | null {
  for (const per of pers) {
    for (let i = 3; i <= 7; i += 2) if (el(per, i) === 'TE' && el(per, i + 1) !== '') return el(per, i + 1);
  }
  return null;
}

export function entityName(nm1: Segment): string {
  if (el(nm1, 2) === '1') return [el(nm1, 4), el(nm1, 3)].filter((s) => s !== '').join(' ');
  return el(nm1, 3);
}

function otherEntity(r: RelatedEntity): OtherEntity | null {
  const name = entityName(r.nm1);
  if (!name) return null;
  return { name, payer_id: orNull(el(r.nm1, 9)), phone: phoneOf(r.per) };
}

const npiOf = (nm1: Segment | undefined) => (nm1 && el(nm1, 8) === 'XX' ? orNull(el(nm1, 9)) : null);

const NOT_ADMINISTRATOR = new Set(['X3', 'P3', 'PRP', 'SEP', 'TTP']);
/** 2120C entity codes that name who administers a benefit: PR payer, VN vendor, Y2 managed care organization, 2B third-party administrator, P5 plan sponsor. */
const CARVE_OUT_ENTITY = new Set(['PR', 'VN', 'Y2', '2B', 'P5']);
/** NM101 PRP, SEP, TTP: the other payer's place in coordination of benefits. */
const COORDINATION: Readonly<Record<string, AdditionalPolicy['coordination']>> = { PRP: 'primary', SEP: 'secondary', TTP: 'tertiary' };

/** `entities`: the EBs that can name an entity (EB01 L/U/R or with a 2120 loop). */
export function thirdParty(entities: Benefit[], strongCostShare: boolean): OtherEntity | null {
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

export function utilizationManager(current: Benefit[]): OtherEntity | null {
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

export function primaryCareProvider(current: Benefit[]): Pcp | null {
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

export function additionalPolicies(current: Benefit[], warnings: string[]): AdditionalPolicy[] {
  const out: AdditionalPolicy[] = [];
  for (const b of current) {
    if (b.info !== 'R') continue;
    const r = b.loop.related[0];
    const code = r ? el(r.nm1, 1) : '';
    const coordination = codeIn(COORDINATION, code) ?? null;
    if (b.tier >= 0 && b.tier <= STRONG_BH_TIER && coordination === null && r) continue;
    const name = r ? entityName(r.nm1) : '';
    if (!name) {
      warnings.push(`EB*R at segment ${b.loop.seg.index} names no other payer; ignored`);
      continue;
    }
    const ig = b.loop.ref.find((ref) => el(ref, 1) === 'IG');
    // NM109 is a payer ID only under a payer qualifier (PI, XV, NI); under MI it is the member's ID at that payer.
    const q = el(r!.nm1, 8);
    out.push({
      payer_name: name,
      payer_id: q === 'PI' || q === 'XV' || q === 'NI' ? orNull(el(r!.nm1, 9)) : null,
      policy_number: ig ? orNull(el(ig, 2)) : q === 'MI' ? orNull(el(r!.nm1, 9)) : null,
      insurance_type: otherPayerInsuranceType(insuranceCode(b)),
      coordination,
    });
  }
  return out;
}
