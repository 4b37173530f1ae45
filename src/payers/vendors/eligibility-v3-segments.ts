/**
 * The v3 JSON model's parts written as 271 segments (eligibility-v3.ts puts them in order): names
 * (NM1 with N3/N4/PER/PRV), AAA rejections, dates (DTP), references (REF) and benefits (EB, its EB13
 * procedure from json-read.ts procedureComposite, with HSD, REF, DTP, AAA, MSG, III and the 2120
 * entities). Where the JSON spells a code out, the code comes from eligibility-v3-codes.ts. In an
 * element that prices (the EB, HSD, III and 2120 NM1 codes) a value that reads as no code is written as
 * sent, never cut to fit, so the 271 reader's closed world makes the row unknown (docs/estimates.md 1.1,
 * "Closed world"); elsewhere (names, contacts, follow-up actions) an unknown name is left empty.
 */
import { AAA_REASONS } from '../../x12/aaa.ts';
import { cleanText } from '../../x12/sanitize.ts';
import type { SegmentList } from '../../x12/writer.ts';
import {
  BENEFIT_REFERENCES,
  codeOf,
  codeOrAsSent,
  COMMUNICATION_MODES,
  DATE_NAME_ALIASES,
  DATE_NAMES,
  ENTITY_IDENTIFIERS,
  ENTITY_TYPES,
  FOLLOWUP_ACTIONS,
  ID_QUALIFIERS,
} from './eligibility-v3-codes.ts';
import { arr, benefitCodesOf, hasField, obj, procedureComposite, serviceDeliveryCodesOf, str, type Obj } from './json-read.ts';

/** A short code element as sent ('' when it is no code of 1 to 3 letters and digits). */
const code = (v: unknown) => (/^[0-9A-Z]{1,3}$/i.test(str(v).trim()) ? str(v).trim().toUpperCase() : '');

/** The longest an unreadable value of a priced element is written: whole, never cut to a code's length (which could make it one). */
const AS_SENT = 30;

/** A priced element with no name table (EB03, EB04, III01): its code, else the value as sent (cleaned), so the row is unknown. */
const codeOrSent = (d: SegmentList['d'], v: unknown) => code(v) || cleanText(str(v).trim(), d, AS_SENT);

/** A priced element spelled as a code or a name (codeOrAsSent), cleaned for the 271. */
const pricedCode = (d: SegmentList['d'], table: Readonly<Record<string, string>>, value: string) => cleanText(codeOrAsSent(table, value), d, AS_SENT);

/**
 * The AAA03 reason of a JSON error: `code`, or `field` when the code is there (as the Change
 * Healthcare sandbox writes it, test/fixtures/change-healthcare/error_response.fields.json), when it
 * is one of the TR3's reject reasons; '' for errors that are not a payer's AAA (request validation).
 */
export function aaaCodeOf(e: Obj): string {
  for (const v of [e.code, e.field]) {
    const c = str(v).trim().toUpperCase();
    if (Object.hasOwn(AAA_REASONS, c)) return c;
  }
  return '';
}

/**
 * AAA04 of a JSON error: a code as sent, or the code of the follow-up prose; '' when unknown (the
 * follow-up prices nothing: AAA03 decides the rejection, aaa04.json).
 */
export const followupCodeOf = (e: Obj): string => codeOf(FOLLOWUP_ACTIONS, str(e.followupActionCode) || str(e.followupAction));

/** The 2100 loop letter an error's `location` names ("Loop 2100C" -> C), or null. */
export const locationLetter = (e: Obj): string | null => /\b2[01]00([A-D])\b/i.exec(str(e.location))?.[1]?.toUpperCase() ?? null;

export function aaa(list: SegmentList, errors: unknown): void {
  for (const e of Array.isArray(errors) ? arr(errors) : []) {
    const reason = aaaCodeOf(e);
    if (reason) list.add('AAA', 'N', '', reason, followupCodeOf(e));
  }
}

function dtp(list: SegmentList, q: string, value: string): void {
  const v = /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? value.replace(/-/g, '') : value.replace(/[^0-9-]/g, '');
  if (/^\d{8}$/.test(v)) list.add('DTP', q, 'D8', v);
  else if (/^\d{8}-\d{8}$/.test(v)) list.add('DTP', q, 'RD8', v);
}

/** DTP segments of a PlanDateInformation or BenefitsDateInformation object, lists of DtpDate included. */
export function dates(list: SegmentList, info: unknown): void {
  for (const [key, value] of Object.entries(obj(info))) {
    const q = DATE_NAMES[key] ?? DATE_NAME_ALIASES[key];
    if (!q) continue;
    if (!Array.isArray(value)) dtp(list, q, str(value));
    else for (const d of arr(value)) dtp(list, q, str(d.date) || (str(d.startDate) && str(d.endDate) ? `${str(d.startDate)}-${str(d.endDate)}` : ''));
  }
}

const ENTRIES = new WeakMap<object, readonly (readonly [string, string])[]>();
/** A constant table's entries, listed once. */
function entriesOf(table: Readonly<Record<string, string>>): readonly (readonly [string, string])[] {
  let entries = ENTRIES.get(table);
  if (!entries) ENTRIES.set(table, (entries = Object.entries(table)));
  return entries;
}

/** REF segments for the fields of `source` a table names (REF03 from `descriptions`), each qualifier once. */
export function refs(
  list: SegmentList,
  source: Obj,
  table: Readonly<Record<string, string>>,
  written: Set<string>,
  descriptions: Readonly<Record<string, string>> = {},
): void {
  if (!hasField(source)) return;
  const d = list.d;
  for (const [key, q] of entriesOf(table)) {
    const value = cleanText(str(source[key]), d, 50);
    if (!value || written.has(q)) continue;
    written.add(q);
    list.add('REF', q, value, cleanText(str(source[descriptions[key] ?? '']), d, 80));
  }
}

interface Named {
  type: '1' | '2';
  last: string;
  first: string;
  middle: string;
  suffix: string;
}

/** A person or an organization, whichever names the JSON model uses (payer, provider, member or related entity). */
function named(who: Obj): Named {
  const last = str(who.lastName) || str(who.providerName) || str(who.entityName);
  const first = str(who.firstName) || str(who.providerFirstName) || str(who.entityFirstname);
  const org = str(who.organizationName) || str(who.providerOrgName) || str(who.name);
  // NM102 prices nothing (elements.json): an unreadable type is told from the name fields.
  const stated = codeOf(ENTITY_TYPES, str(who.entityType));
  const type = stated === '1' || stated === '2' ? stated : first || (last && !org) ? '1' : '2';
  return {
    type,
    last: type === '1' ? last : org || last,
    first: type === '1' ? first : '',
    middle: type === '1' ? str(who.middleName) || str(who.entityMiddlename) : '',
    suffix: type === '1' ? str(who.suffix) || str(who.entitySuffix) : '',
  };
}

/** NM1 of a payer, provider or member: entity code, name, and the identifier given (qualifier, value). */
export function name(list: SegmentList, entity: string, who: Obj, idQualifier: string, id: string): void {
  const d = list.d;
  const n = named(who);
  const value = cleanText(id, d, 80);
  list.add(
    'NM1',
    entity,
    n.type,
    cleanText(n.last, d, 60),
    cleanText(n.first, d, 35),
    cleanText(n.middle, d, 25),
    '',
    cleanText(n.suffix, d, 10),
    value ? idQualifier : '',
    value,
  );
}

/** The first identifier a payer or provider object holds, with its NM108 qualifier. */
export function identifierOf(who: Obj, fields: readonly (readonly [string, string])[]): [string, string] {
  for (const [key, q] of fields) if (str(who[key])) return [q, str(who[key])];
  return ['', ''];
}

export function address(list: SegmentList, value: unknown): void {
  const d = list.d;
  const a = obj(value);
  if (str(a.address1)) list.add('N3', cleanText(str(a.address1), d, 55), cleanText(str(a.address2), d, 55));
  if (str(a.city) || str(a.postalCode))
    list.add('N4', cleanText(str(a.city), d, 30), cleanText(str(a.state), d, 2), cleanText(str(a.postalCode), d, 15), cleanText(str(a.countryCode), d, 3));
}

/** PER*IC with up to three of the contacts (qualifier and number each). */
export function contacts(list: SegmentList, info: unknown): void {
  const d = list.d;
  const c = obj(info);
  const pairs = arr(c.contacts)
    .map((x) => [codeOf(COMMUNICATION_MODES, str(x.communicationMode)), cleanText(str(x.communicationNumber), d, 256)] as const)
    .filter(([q, n]) => q !== '' && n !== '')
    .slice(0, 3)
    .flat();
  if (pairs.length > 0 || str(c.name)) list.addAll('PER', ['IC', cleanText(str(c.name), d, 60), ...pairs]);
}

function related(list: SegmentList, r: Obj): void {
  const d = list.d;
  const id = cleanText(str(r.entityIdentificationValue), d, 80);
  const n = named(r);
  list.add(
    'NM1',
    pricedCode(d, ENTITY_IDENTIFIERS, str(r.entityIdentifier)),
    n.type,
    cleanText(n.last, d, 60),
    cleanText(n.first, d, 35),
    cleanText(n.middle, d, 25),
    '',
    cleanText(n.suffix, d, 10),
    id ? pricedCode(d, ID_QUALIFIERS, str(r.entityIdentification)) : '',
    id,
    code(r.entityRelationship),
  );
  address(list, r.address);
  contacts(list, r.contactInformation);
  const prv = obj(r.providerInformation);
  if (code(prv.providerCode) && str(prv.referenceIdentification))
    list.add('PRV', code(prv.providerCode), 'PXC', cleanText(str(prv.referenceIdentification), d, 50));
}

/** The 2120 entities of a benefit: `benefitsRelatedEntity` (one object) and `benefitsRelatedEntities` (a list). */
export function relatedEntities(b: Obj): Obj[] {
  const one = obj(b.benefitsRelatedEntity);
  const all = [...(Object.keys(one).length > 0 ? [one] : []), ...arr(b.benefitsRelatedEntities)];
  const seen = new Set<string>();
  return all.filter((r) => {
    const key = JSON.stringify(r);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function serviceDelivery(list: SegmentList, items: unknown): void {
  const d = list.d;
  for (const h of arr(items)) {
    const s = serviceDeliveryCodesOf(h);
    list.add(
      'HSD',
      cleanText(s.hsd01, d, AS_SENT),
      cleanText(str(h.quantity), d, 15),
      cleanText(s.hsd03, d, AS_SENT),
      cleanText(str(h.sampleSelectionModulus), d, 6),
      cleanText(s.hsd05, d, AS_SENT),
      cleanText(str(h.numOfPeriods), d, 3),
      cleanText(s.hsd07, d, AS_SENT),
      cleanText(s.hsd08, d, AS_SENT),
    );
  }
}

export function benefits(list: SegmentList, items: unknown): void {
  const d = list.d;
  for (const b of arr(items)) {
    // Every coded element from its code field or its name (benefitCodesOf), as sent when neither reads.
    const c = benefitCodesOf(b);
    list.add(
      'EB',
      cleanText(c.eb01, d, AS_SENT),
      cleanText(c.eb02, d, AS_SENT),
      list.repeat(c.eb03.map((t) => cleanText(t, d, AS_SENT)).filter(Boolean)),
      cleanText(c.eb04, d, AS_SENT),
      cleanText(str(b.planCoverage), d, 50),
      cleanText(c.eb06, d, AS_SENT),
      cleanText(str(b.benefitAmount), d, 18),
      cleanText(str(b.benefitPercent), d, 10),
      cleanText(c.eb09, d, AS_SENT),
      cleanText(str(b.benefitQuantity), d, 15),
      cleanText(c.eb11, d, AS_SENT),
      cleanText(c.eb12, d, AS_SENT),
      procedureComposite(b.compositeMedicalProcedureIdentifier, d, cleanText),
    );
    serviceDelivery(list, b.benefitsServiceDelivery);
    refs(list, obj(b.benefitsAdditionalInformation), BENEFIT_REFERENCES, new Set());
    dates(list, b.benefitsDateInformation);
    aaa(list, b.aaaErrors);
    for (const m of arr(b.additionalInformation)) list.add('MSG', cleanText(str(m.description), d, 264));
    const iii = [
      ...(Object.keys(obj(b.eligibilityAdditionalInformation)).length > 0 ? [obj(b.eligibilityAdditionalInformation)] : []),
      ...arr(b.eligibilityAdditionalInformationList),
    ];
    for (const i of iii)
      if (str(i.codeListQualifierCode).trim() && str(i.industryCode))
        list.add('III', codeOrSent(d, i.codeListQualifierCode), cleanText(str(i.industryCode), d, 30));
    const entities = relatedEntities(b);
    if (entities.length > 0) {
      list.add('LS', '2120');
      for (const r of entities) related(list, r);
      list.add('LE', '2120');
    }
  }
}
