/**
 * Stedi's JSON answer read as the 271 to our inquiry, so our one 271 reader serves both of Stedi's
 * endpoints (docs/going-live.md, "Stedi"). Stedi spells codes out as names: entity identifiers,
 * entity types, follow-up actions, communication modes (stedi-codes.ts maps each to its X12 code,
 * and an unknown name is left out, never guessed, except a related entity's, which prices: written as
 * sent, so the row is unknown). A benefit's coded elements are read from the code field or the name
 * (json-read.ts benefitCodesOf), a value that reads as neither written as sent. Every field of meaning is carried: the top-level
 * `planDateInformation` (the plan's dates, written in the patient's loop), member dates, names, IDs,
 * addresses, the dependent's relationship (INS), the provider's `providerName`, benefits with their
 * procedure (EB13, json-read.ts procedureComposite), service delivery (HSD: visit limits), dates,
 * messages, III and related entities (array or single form), and AAA at every level.
 * The answer's own `x12` is not used here: it is the vendor's 271 to the vendor's 270, whose trace
 * numbers are not ours.
 */
import type { Inquiry } from '../../domain/inquiry.ts';
import type { Delimiters } from '../../x12/delimiters.ts';
import { isoToD8 } from '../../x12/values.ts';
import { SegmentList } from '../../x12/writer.ts';
import { DATE_NAME_SPELLINGS, DATE_NAMES } from './eligibility-v3-codes.ts';
import { interchange271 } from './json-271.ts';
import { arr, benefitCodesOf, hasField, obj, procedureComposite, serviceDeliveryCodesOf, str, type Obj } from './json-read.ts';
import {
  codeFor,
  COMMUNICATION_MODE_CODES,
  ENTITY_TYPE_CODES,
  FOLLOWUP_ACTION_CODES,
  PAYER_ENTITY_CODES,
  PROVIDER_ENTITY_CODES,
  RELATED_ENTITY_CODES,
  BENEFIT_REFS,
  PLAN_REFS,
  type RefField,
} from './stedi-codes.ts';

/**
 * A value as an element of the 271 we write for our own reader: delimiters and control characters
 * become spaces, the case and letters stay as Stedi sent them (the raw-X12 answer keeps them too, and
 * both must read the same).
 */
export function text(value: string | null | undefined, d: Delimiters, max: number): string {
  if (!value) return '';
  if (plain(value, d)) return value.length > max ? value.slice(0, max) : value;
  let out = '';
  for (const ch of value) out += ch === d.element || ch === d.component || ch === d.segment || ch === d.repetition || ch < ' ' ? ' ' : ch;
  return out.replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * Whether text() would give `value` back as it is (before the length cut): printable ASCII without a
 * delimiter, and no space at either end or beside another. Most values are; they skip the rewrite.
 */
function plain(value: string, d: Delimiters): boolean {
  const e = d.element.charCodeAt(0);
  const c = d.component.charCodeAt(0);
  const s = d.segment.charCodeAt(0);
  const r = d.repetition === null ? -1 : d.repetition.charCodeAt(0);
  const last = value.length - 1;
  for (let i = 0; i <= last; i++) {
    const ch = value.charCodeAt(i);
    if (ch <= 32 || ch >= 127 || ch === e || ch === c || ch === s || ch === r) {
      if (ch !== 32 || i === 0 || i === last || value.charCodeAt(i - 1) === 32) return false;
    }
  }
  return true;
}

/** The longest a coded element is written: a value that is no code whole, never cut to a code's length (which could make it one). */
const AS_SENT = 30;

/** The X12 code for a value Stedi spells as a name: '' when unknown (the element is then left empty). */
const code = (table: Readonly<Record<string, string>>, v: unknown) => codeFor(table, str(v)) ?? '';

function dtp(list: SegmentList, qualifier: string, value: string): void {
  const v = value.replace(/[^0-9-]/g, '');
  if (/^\d{8}$/.test(v)) list.add('DTP', qualifier, 'D8', v);
  else if (/^\d{8}-\d{8}$/.test(v)) list.add('DTP', qualifier, 'RD8', v);
}

function dates(list: SegmentList, info: unknown): void {
  const o = obj(info);
  for (const [name, value] of Object.entries(o)) {
    const q = DATE_NAMES[name] ?? DATE_NAME_SPELLINGS[name];
    if (q && typeof value === 'string') dtp(list, q, value);
  }
  // Admissions and discharges may come as lists of {date | startDate, endDate}.
  for (const [name, q] of [
    ['admissions', '435'],
    ['discharges', '096'],
  ] as const) {
    for (const d of arr(o[name])) dtp(list, q, str(d.date) || (str(d.startDate) && str(d.endDate) ? `${str(d.startDate)}-${str(d.endDate)}` : ''));
  }
}

export function aaa(list: SegmentList, errors: unknown): void {
  for (const e of arr(errors)) {
    const reason = text(str(e.code), list.d, 3);
    // AAA04 from Stedi's words; a followupActionCode (the v3 model's code form) is taken as it is when it is one.
    const followup = code(FOLLOWUP_ACTION_CODES, e.followupAction) || code(FOLLOWUP_ACTION_CODES, e.followupActionCode);
    if (reason) list.add('AAA', 'N', '', reason, followup);
  }
}

/** PER with up to three of the entity's contacts (PER03-08), each mode as its code. */
function contacts(list: SegmentList, info: unknown): void {
  const d = list.d;
  const c = obj(info);
  const items = arr(c.contacts)
    .map((x) => [code(COMMUNICATION_MODE_CODES, x.communicationMode), text(str(x.communicationNumber), d, 256)] as const)
    .filter(([mode, number]) => mode !== '' && number !== '');
  for (let i = 0; i < items.length; i += 3) {
    const chunk = items.slice(i, i + 3).flat();
    list.addAll('PER', ['IC', text(str(c.name), d, 60), ...chunk]);
  }
}

function address(list: SegmentList, a: Obj): void {
  const d = list.d;
  if (str(a.address1)) list.add('N3', text(str(a.address1), d, 55), text(str(a.address2), d, 55));
  if (str(a.city) || str(a.postalCode) || str(a.state)) list.add('N4', text(str(a.city), d, 30), text(str(a.state), d, 2), text(str(a.postalCode), d, 15));
}

/** REF segments for the fields of `sources` that `table` names, the first source holding a field winning. */
function refs(list: SegmentList, table: readonly RefField[], ...sources: Obj[]): void {
  // Most benefits carry no additional information: no field to look up.
  if (!sources.some(hasField)) return;
  const d = list.d;
  for (const [field, qualifier, description] of table) {
    let from: Obj | undefined;
    for (const o of sources) {
      if (str(o[field]) !== '') {
        from = o;
        break;
      }
    }
    if (from) list.add('REF', qualifier, text(str(from[field]), d, 50), description ? text(str(from[description]), d, 80) : '');
  }
}

interface NameParts {
  entity: string;
  type: string;
  last: string;
  first?: string;
  middle?: string;
  suffix?: string;
  qualifier?: string;
  id?: string;
}

function nm1(list: SegmentList, n: NameParts): void {
  const d = list.d;
  const id = text(n.id, d, 80);
  list.add(
    'NM1',
    n.entity,
    n.type,
    text(n.last, d, 60),
    text(n.first, d, 35),
    text(n.middle, d, 25),
    '',
    text(n.suffix, d, 10),
    id ? text(n.qualifier, d, 30) : '',
    id,
  );
}

/** NM102 from Stedi's entityType, else from which name fields are there. */
const entityType = (who: Obj, personal: boolean) => code(ENTITY_TYPE_CODES, who.entityType) || (personal ? '1' : '2');

function member(list: SegmentList, who: Obj, entity: 'IL' | '03', planDates: unknown, plan?: Obj): void {
  const d = list.d;
  nm1(list, {
    entity,
    type: entityType(who, true),
    last: str(who.lastName),
    first: str(who.firstName),
    middle: str(who.middleName),
    suffix: str(who.suffix),
    qualifier: 'MI',
    id: entity === 'IL' ? str(who.memberId) : '',
  });
  // The member's own group, plan and network; the answer's planInformation fills the rest (subscriber's loop).
  const own = { ...who, planNetworkIdDescription: who.planNetworkDescription };
  if (plan) refs(list, PLAN_REFS, own, plan);
  else refs(list, PLAN_REFS.slice(0, 3), own);
  address(list, obj(who.address));
  aaa(list, who.aaaErrors);
  const dob = str(who.dateOfBirth).replace(/-/g, '');
  if (/^\d{8}$/.test(dob)) list.add('DMG', 'D8', dob, text(str(who.gender), d, 1));
  const relation = text(str(who.relationToSubscriberCode), d, 2);
  const insured = entity === 'IL' ? 'Y' : 'N';
  if (relation && relation.toUpperCase() !== 'UNKNOWN')
    list.add('INS', insured, relation, text(str(who.maintenanceTypeCode), d, 3), text(str(who.maintenanceReasonCode), d, 3));
  dates(list, who.planDateInformation);
  dates(list, planDates);
}

/**
 * 2120C NM101 of a related entity: its code, else the value as sent (it decides carve-outs and rows for a
 * named provider: a role no table reads makes the row unknown in the 271 reader's closed world, never an
 * entity left out); '' when none is sent.
 */
const entityOf = (r: Obj, d: Delimiters) => code(RELATED_ENTITY_CODES, r.entityIdentifier) || text(str(r.entityIdentifier).trim(), d, AS_SENT);

function related(list: SegmentList, r: Obj): void {
  const entity = entityOf(r, list.d);
  if (!entity) return;
  const type = entityType(r, str(r.entityFirstname) !== '');
  nm1(list, {
    entity,
    type,
    last: str(r.entityName),
    first: str(r.entityFirstname),
    middle: str(r.entityMiddlename),
    suffix: str(r.entitySuffix),
    qualifier: str(r.entityIdentification),
    id: str(r.entityIdentificationValue),
  });
  address(list, obj(r.address));
  contacts(list, r.contactInformation);
  const p = obj(r.providerInformation);
  if (str(p.providerCode) && str(p.referenceIdentification))
    list.add('PRV', text(str(p.providerCode), list.d, 3), 'PXC', text(str(p.referenceIdentification), list.d, 50));
}

function benefits(list: SegmentList, items: unknown): void {
  const d = list.d;
  for (const b of arr(items)) {
    // Every coded element from its code field or its name (benefitCodesOf): a value neither reads as stays whole as
    // sent, never cut to a code's length (INDIVIDUAL to IND, "Employee and Spouse" to EMP), so what no table reads
    // stays unknown in the 271 reader's closed world.
    const c = benefitCodesOf(b);
    list.add(
      'EB',
      text(c.eb01, d, AS_SENT),
      text(c.eb02, d, AS_SENT),
      list.repeat(c.eb03.map((t) => text(t, d, AS_SENT)).filter(Boolean)),
      text(c.eb04, d, AS_SENT),
      text(str(b.planCoverage), d, 50),
      text(c.eb06, d, AS_SENT),
      text(str(b.benefitAmount), d, 18),
      text(str(b.benefitPercent), d, 10),
      text(c.eb09, d, AS_SENT),
      text(str(b.benefitQuantity), d, 15),
      text(c.eb11, d, AS_SENT),
      text(c.eb12, d, AS_SENT),
      procedureComposite(b.compositeMedicalProcedureIdentifier, d, text),
    );
    for (const h of arr(b.benefitsServiceDelivery)) {
      const s = serviceDeliveryCodesOf(h);
      list.add(
        'HSD',
        text(s.hsd01, d, AS_SENT),
        text(str(h.quantity), d, 15),
        text(s.hsd03, d, AS_SENT),
        text(str(h.sampleSelectionModulus), d, 15),
        text(s.hsd05, d, AS_SENT),
        text(str(h.numOfPeriods), d, 15),
        text(s.hsd07, d, AS_SENT),
        text(s.hsd08, d, AS_SENT),
      );
    }
    refs(list, BENEFIT_REFS, obj(b.benefitsAdditionalInformation));
    dates(list, b.benefitsDateInformation);
    aaa(list, b.aaaErrors);
    for (const m of arr(b.additionalInformation)) list.add('MSG', text(str(m.description), d, 264));
    const iii = Array.isArray(b.eligibilityAdditionalInformationList) ? arr(b.eligibilityAdditionalInformationList) : arr([b.eligibilityAdditionalInformation]);
    for (const i of iii) if (str(i.industryCode)) list.add('III', text(str(i.codeListQualifierCode), d, AS_SENT), text(str(i.industryCode), d, 30));
    // Stedi sends the list and, for the first entity, the single form too: the list wins.
    const entities = Array.isArray(b.benefitsRelatedEntities) ? arr(b.benefitsRelatedEntities) : b.benefitsRelatedEntity ? [obj(b.benefitsRelatedEntity)] : [];
    const known = entities.filter((r) => entityOf(r, d) !== '');
    if (known.length > 0) {
      list.add('LS', '2120');
      for (const r of known) related(list, r);
      list.add('LE', '2120');
    }
  }
}

/** A Stedi JSON answer written as the 271 to our inquiry; null when it holds neither payer data nor errors. */
export function stediToX12(body: unknown, inquiry: Inquiry): string | null {
  const b = obj(body);
  const payer = obj(b.payer);
  const subscriber = obj(b.subscriber);
  if (Object.keys(payer).length === 0 && Object.keys(subscriber).length === 0 && arr(b.errors).length === 0) return null;
  const list = new SegmentList();
  const d = list.d;
  const trace = text(inquiry.trace_number, d, 50) || '1';
  list.add('BHT', '0022', '11', trace, isoToD8(inquiry.date), '1200');
  list.add('HL', '1', '', '20', '1');
  const payerPerson = str(payer.lastName) !== '';
  nm1(list, {
    entity: code(PAYER_ENTITY_CODES, payer.entityIdentifier) || 'PR',
    type: entityType(payer, payerPerson),
    last: payerPerson ? str(payer.lastName) : str(payer.name),
    first: str(payer.firstName),
    qualifier: 'PI',
    id: str(payer.payorIdentification),
  });
  contacts(list, payer.contactInformation);
  aaa(list, payer.aaaErrors);
  list.add('HL', '2', '1', '21', '1');
  const provider = obj(b.provider);
  const providerPerson = code(ENTITY_TYPE_CODES, provider.entityType) === '1' || str(provider.providerFirstName) !== '';
  nm1(list, {
    entity: code(PROVIDER_ENTITY_CODES, provider.entityIdentifier) || '1P',
    type: providerPerson ? '1' : '2',
    last: str(provider.providerName) || str(providerPerson ? provider.lastName : provider.providerOrgName) || str(provider.organizationName),
    first: str(provider.providerFirstName) || str(provider.firstName),
    middle: str(provider.middleName),
    suffix: str(provider.suffix),
    qualifier: 'XX',
    id: str(provider.npi),
  });
  aaa(list, provider.aaaErrors);
  const dependents = arr(b.dependents);
  const dependent = dependents[0];
  // The plan's dates belong to the patient: the dependent when the answer names one.
  const planDates = b.planDateInformation;
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) list.add('TRN', '2', trace, '9COVERAGE');
  member(list, subscriber, 'IL', dependent ? undefined : planDates, obj(b.planInformation));
  // `errors[]` repeats every loop's AAA; only errors no loop holds (a rejection bubbled to the top) are
  // written, on the patient's level.
  const looped = [payer, provider, subscriber, ...dependents, ...arr(b.benefitsInformation)].some((w) => arr(w.aaaErrors).length > 0);
  if (!dependent) {
    if (!looped) aaa(list, b.errors);
    benefits(list, b.benefitsInformation);
  }
  // Every dependent is a 2000D of its own, so the 271 reader chooses the patient by member ID, name and date
  // of birth (src/x12/patient.ts), never the first by position; the answer's one benefit list goes with each.
  dependents.forEach((who, i) => {
    list.add('HL', String(4 + i), '3', '23', '0');
    list.add('TRN', '2', trace, '9COVERAGE');
    member(list, who, '03', planDates);
    if (!looped) aaa(list, b.errors);
    benefits(list, b.benefitsInformation);
  });
  return interchange271(list);
}
