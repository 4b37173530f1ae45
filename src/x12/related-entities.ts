/** The people and organizations a 271 names in 2120C loops: carve-out administrator, utilization manager, PCP, other payers. */
import type { AdditionalPolicy, OtherEntity, Pcp } from '../domain/coverage.ts';
import { benefitRef, benefitRole, coordinationOf, entityRole, identifiedBy } from './code-tables/attributes.ts';
import { namesMentalHealth, otherPayerInsuranceType } from './codes.ts';
import { administratorFromMessage } from './carve-out-message.ts';
import { namesAny } from './benefits/gates.ts';
import { type RelatedEntity } from './loops.ts';
import { el, type Segment } from './tokenizer.ts';
import { traced, type TraceEntry } from './benefits/trace.ts';
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

const npiOf = (nm1: Segment | undefined) => (nm1 && identifiedBy(el(nm1, 8)) === 'npi' ? orNull(el(nm1, 9)) : null);

/** 2120C NM101 X3, P3, PRP, SEP, TTP (nm101-2120.json `entity`): a reviewer, a PCP or another payer, never the administrator of a carve-out. */
function notAdministrator(code: string): boolean {
  const role = entityRole(code);
  return role === 'utilization_manager' || role === 'primary_care' || role === 'other_payer';
}
/**
 * 2120C entity codes that name who administers a benefit (nm101-2120.json `entity` administrator):
 * PR payer, VN vendor, Y2 managed care organization, 2B third-party administrator, P5 plan sponsor.
 */
const administers = (code: string) => entityRole(code) === 'administrator';
/** NM101 PRP, SEP, TTP: the other payer's place in coordination of benefits (nm101-2120.json `coordination`). */
const coordination = (code: string): AdditionalPolicy['coordination'] | undefined => coordinationOf(code);

/** NM108 PI, XV, NI (nm108-2120.json `identifies`): NM109 is a payer's ID (payer ID, CMS plan ID, NAIC code). */
function identifiesPayer(qualifier: string): boolean {
  const id = identifiedBy(qualifier);
  return id === 'payer' || id === 'payer_plan' || id === 'payer_naic';
}

/**
 * The row is stated for a mental-health service type (MH, CF, A4, A6, A7, A8), not only for 98, 30, substance
 * abuse (AI, AJ, AK: an administrator of those alone is no mental-health carve-out) or another service.
 */
const onBehavioralTypes = (b: Benefit) => namesMentalHealth(b.serviceTypes);

/**
 * EB01 that hand the benefit elsewhere (eb01.json `role`): U contact the following entity, R other or
 * additional payer, W other source of data (X12 code list 1390).
 */
function handsElsewhere(info: string): boolean {
  const role = benefitRole(info);
  return role === 'contact' || role === 'other_payer' || role === 'other_source';
}
/** EB01 U or W: a contact or another source, which may name the administrator in its MSG only. */
function contactOrSource(info: string): boolean {
  const role = benefitRole(info);
  return role === 'contact' || role === 'other_source';
}

/**
 * Who administers behavioral health when the medical plan hands it elsewhere (docs/estimates.md
 * section 1.3, carve-out): a 2120C entity of an EB*U/R/W on the behavioral types (or on the encounter's own
 * service types, `encounterTypes`: a substance-use vendor for a substance-use assessment), else an
 * administrator an EB*U/W names only in its MSG, else (with no behavioral cost share) a PR/VN/Y2/2B/P5
 * entity of a behavioral status row. The first of these that names any decides; when its rows name
 * different administrators they contradict each other: carved out, the administrator unknown
 * (`entity` null), never the first. `entities`: the EBs that can name an entity (EB01 L/U/R/W or with
 * a 2120 loop). Null: no carve-out named.
 */
export function thirdParty(
  entities: Benefit[],
  strongCostShare: boolean,
  encounterTypes: readonly string[] | null = null,
): { entity: OtherEntity | null } | null {
  let named: OtherEntity[] | null = null;
  for (const b of entities) {
    // The encounter's own service types (encounter-service.ts: AI/AJ/AK for a substance-use assessment) hand it elsewhere too.
    if (!handsElsewhere(b.info) || !(onBehavioralTypes(b) || (encounterTypes !== null && namesAny(b, encounterTypes)))) continue;
    for (const r of b.loop.related) {
      if (notAdministrator(el(r.nm1, 1))) continue;
      const e = otherEntity(r);
      if (e) (named ??= []).push(e);
    }
  }
  if (named === null) {
    // EB*U or EB*W for the mental-health types naming the administrator only in its MSG.
    for (const b of entities) {
      if (!contactOrSource(b.info) || !onBehavioralTypes(b) || b.loop.related.length > 0) continue;
      for (const text of b.messages) {
        const e = administratorFromMessage(text);
        if (e) (named ??= []).push(e);
      }
    }
  }
  if (named === null && !strongCostShare) {
    for (const b of entities) {
      if (!isStatus(b) || !onBehavioralTypes(b) || b.telehealth) continue;
      for (const r of b.loop.related) {
        if (!administers(el(r.nm1, 1))) continue;
        const e = otherEntity(r);
        if (e) (named ??= []).push(e);
      }
    }
  }
  if (named === null) return null;
  const first = named[0]!;
  if (!named.every((e) => e.name === first.name && e.payer_id === first.payer_id)) return { entity: null };
  // The same administrator named twice: its phone only when they agree on it.
  return { entity: named.every((e) => e.phone === first.phone) ? first : { ...first, phone: null } };
}

/**
 * An EB01 W (Other Source of Data) on the behavioral-health service types: the medical plan does not
 * state those benefits, another source does, a carve-out even when neither a 2120C entity nor the MSG
 * names it (docs/estimates.md section 1.3). The first such row, for the explanation; undefined when none.
 * A W on 30, 98 or other services (dental, vision) says nothing of behavioral health.
 */
export function otherSourceOfBehavioralHealth(entities: Benefit[]): Benefit | undefined {
  for (const b of entities) if (benefitRole(b.info) === 'other_source' && onBehavioralTypes(b)) return b;
  return undefined;
}

export function utilizationManager(current: Benefit[]): OtherEntity | null {
  for (const b of current) {
    if (benefitRole(b.info) !== 'contact') continue;
    for (const r of b.loop.related) {
      if (entityRole(el(r.nm1, 1)) !== 'utilization_manager') continue;
      const e = otherEntity(r);
      if (e) return e;
    }
  }
  return null;
}

const LOCK_IN = /LOCK[- ]?IN|RESTRICTED (PROVIDER|RECIPIENT|PHARMACY)/i;

export function primaryCareProvider(current: Benefit[]): Pcp | null {
  const related: RelatedEntity[] = [];
  for (const b of current) if (benefitRole(b.info) === 'primary_care') related.push(...b.loop.related);
  if (related.length === 0) {
    // A restricted provider (EB*N, a lock-in) is where the member must go, not the member's PCP.
    for (const b of current) {
      if (benefitRole(b.info) === 'restricted_provider' || b.messages.some((m) => LOCK_IN.test(m))) continue;
      for (const r of b.loop.related) if (entityRole(el(r.nm1, 1)) === 'primary_care') related.push(r);
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

/** The other payer a 2120C loop of `b` names, or null when it names none. */
function policyOf(b: Benefit, r: RelatedEntity, coordination: AdditionalPolicy['coordination']): AdditionalPolicy | null {
  const name = entityName(r.nm1);
  if (!name) return null;
  const ig = b.loop.ref.find((ref) => benefitRef(el(ref, 1)) === 'policy_number');
  // NM109 is a payer ID only under a payer qualifier (PI, XV, NI); under MI it is the member's ID at that payer.
  const q = el(r.nm1, 8);
  return {
    payer_name: name,
    payer_id: identifiesPayer(q) ? orNull(el(r.nm1, 9)) : null,
    policy_number: ig ? orNull(el(ig, 2)) : identifiedBy(q) === 'member' ? orNull(el(r.nm1, 9)) : null,
    insurance_type: otherPayerInsuranceType(insuranceCode(b)),
    coordination,
  };
}

const samePolicy = (a: AdditionalPolicy, b: AdditionalPolicy) =>
  a.payer_name === b.payer_name &&
  a.payer_id === b.payer_id &&
  a.policy_number === b.policy_number &&
  a.insurance_type === b.insurance_type &&
  a.coordination === b.coordination;

/**
 * The member's other payers: EB01 R (Other or Additional Payor) names one in its first 2120C loop;
 * EB01 U (Contact Following Entity) names whom to ask, and a 2120C PRP, SEP or TTP among them is a
 * payer in the member's coordination of benefits (any other entity under U is a contact: a carve-out
 * administrator or a reviewer). `payerRows`: the EB*R and EB*U rows in force on the date of service,
 * in the 271's order. A payer EB*U rows name alike (an IND and a FAM row) is listed once, and one an
 * EB*R lists is not listed again from an EB*U.
 */
export function additionalPolicies(payerRows: Benefit[], warnings: string[]): AdditionalPolicy[] {
  const out: AdditionalPolicy[] = [];
  for (const b of payerRows) {
    if (benefitRole(b.info) !== 'other_payer') continue;
    const r = b.loop.related[0];
    const place = r ? (coordination(el(r.nm1, 1)) ?? null) : null;
    if (onBehavioralTypes(b) && place === null && r) continue;
    const policy = r ? policyOf(b, r, place) : null;
    if (!policy) {
      warnings.push(`EB*R at segment ${b.loop.seg.index} names no other payer; ignored`);
      continue;
    }
    // The same policy stated twice alike (a loop sent twice) is one policy.
    if (!out.some((q) => JSON.stringify(q) === JSON.stringify(policy))) out.push(policy);
  }
  const fromR = out.length;
  for (const b of payerRows) {
    if (benefitRole(b.info) !== 'contact') continue;
    for (const r of b.loop.related) {
      const place = coordination(el(r.nm1, 1));
      if (!place) continue;
      const policy = policyOf(b, r, place);
      // Not one an EB*R already names, nor one an EB*U stated alike.
      if (policy && !out.some((q, i) => (i < fromR ? q.payer_name === policy.payer_name : samePolicy(q, policy)))) out.push(policy);
    }
  }
  return out;
}

/** The explanation's carve-out entries: the administrator (or the administrators' conflict), or another source (EB01 W). */
export function traceCarveOut(trace: TraceEntry[], carveOut: { entity: OtherEntity | null } | null, otherSource: Benefit | undefined): void {
  if (carveOut)
    trace.push(
      traced(
        'carve-out',
        null,
        null,
        carveOut.entity
          ? `behavioral health is administered by ${carveOut.entity.name}: the medical plan's benefits never price it`
          : "the carve-out rows name different administrators (a conflict: neither is taken); the medical plan's benefits never price it",
      ),
    );
  if (otherSource)
    trace.push(
      traced(
        'carve-out',
        null,
        otherSource,
        'EB01 W (other source of data) on the behavioral-health service types: another source, which ' +
          "the payer does not name, states these benefits; the medical plan's benefits never price it",
      ),
    );
}
