/**
 * Availity's coverage JSON (availity-schema.ts) written as the 271 to our inquiry, for our one 271
 * reader. Availity's JSON transliterates the 271 it got from the payer, so each field goes back to
 * the X12 element it came from:
 * - plans[].status/statusCode: the plan's EB01 (1 active ... 8 inactive) on service type 30, with
 *   the plan's insurance type (EB04) and name (EB05); plan and eligibility dates: 2100C DTP 346/347/356/357;
 * - a plan's own detail lists (limitations, coverageBasis...): its service type 30's, as below;
 * - plans[].benefits[]: one service type each (`type`, the EB03 code) with its own status; `amounts`
 *   coInsurance A, coPayment B, deductibles C, outOfPocket G; the other detail lists D, J, CB, E, F, I, K;
 *   each list split by network (inNetwork Y, outOfNetwork N, notApplicableNetwork W, noNetwork blank: EB12);
 *   each item a level (EB02), `amount` (EB07, or EB08 for a coinsurance), `total` and `remaining`
 *   (EB07 with the time period of each: EB06, remaining always 29), quantities (EB09/EB10), the
 *   authorization flags (EB11), deliveryInformation (HSD), benefit dates (DTP 348/349) and the item's
 *   other dates and identifiers (2110 DTP/REF), place of service (III*ZZ), notes (MSG); an item field
 *   this reader cannot write as what it says is an REF named by the field, so the row is unknown
 *   (availity-codes.ts AVAILITY_ITEM_*, the closed world);
 * - other payers (plans[] and benefits[] `additionalPayers`): EB*R with NM1*PRP/SEP/TTP (PR when
 *   the order is not given); the plan's primaryCareProvider: EB*L with NM1*P3; benefit `contacts`:
 *   EB*U with NM1 of their `roleCode`/`role` (the X12 entity code: X3 a utilization management
 *   organization, 2B an administrator; contactEntity), else their `typeCode`, else PR;
 * - validationMessages {field, errorMessage, code, index}: AAA with `code` when it is an X12 reject
 *   reason, on the payer, provider or member loop as `field` says. Their prose is never kept.
 * Dates are read as written (the date part of 1988-03-14T00:00:00.000+0000), never shifted by a zone.
 */
import type { Inquiry } from '../../domain/inquiry.ts';
import type { Delimiters } from '../../x12/delimiters.ts';
import { cleanText } from '../../x12/sanitize.ts';
import { isoToD8 } from '../../x12/values.ts';
import { SegmentList } from '../../x12/writer.ts';
import {
  AVAILITY_ITEM_DATES,
  AVAILITY_ITEM_IGNORED,
  AVAILITY_ITEM_REFERENCES,
  AVAILITY_ITEM_WRITTEN,
  AVAILITY_LEVEL_NAMES,
  AVAILITY_STATUS_NAMES,
  EB01_BY_AMOUNT,
  EB01_BY_DETAIL,
  EB12_BY_NETWORK,
} from './availity-codes.ts';
import { AVAILITY_AMOUNTS, AVAILITY_NETWORKS } from './availity-schema.ts';
import { ENTITY_IDENTIFIERS, MEASUREMENT_UNITS, QUANTITY_QUALIFIERS, TIME_PERIODS, codeOf, codeOfEither } from './eligibility-v3-codes.ts';
import { aaa, member, name } from './eligibility-v3.ts';
import { interchange271 } from './json-271.ts';
import { arr, obj, str, type Obj } from './json-read.ts';

const STATUS_BY_NAME = new Map(Object.entries(AVAILITY_STATUS_NAMES).map(([code, text]) => [text.toLowerCase(), code]));
const LEVEL_BY_NAME = new Map(Object.entries(AVAILITY_LEVEL_NAMES).map(([code, text]) => [text.toLowerCase(), code]));

/** The date part of an Availity date (either form), as CCYYMMDD; '' when it is none. */
export function availityD8(v: unknown): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/.exec(str(v));
  return m ? `${m[1]}${m[2]}${m[3]}` : '';
}

const statusCode = (o: Obj): string => {
  const code = str(o.statusCode);
  return AVAILITY_STATUS_NAMES[code] ? code : (STATUS_BY_NAME.get(str(o.status).trim().toLowerCase()) ?? '');
};
const levelCode = (o: Obj): string => {
  const code = str(o.levelCode);
  return AVAILITY_LEVEL_NAMES[code] ? code : (LEVEL_BY_NAME.get(str(o.level).trim().toLowerCase()) ?? '');
};
const serviceType = (v: unknown): string => (/^[A-Z0-9]{1,2}$/.test(str(v)) ? str(v) : '');

/**
 * A coded element as sent, whole: never cut to a code's length (an insuranceTypeCode "PR PLUS" to PR, an
 * amountTimePeriodCode "27 per visit" to 27), so a value no code is stays outside the 271 reader's tables
 * and its closed world (src/x12/benefits/closed-world.ts) makes the row unknown, never read as another code.
 */
const whole = (d: Delimiters, v: unknown): string => cleanText(str(v).trim(), d, 30);

/** Dollars as X12 writes them ("1500.00"); '' for anything that is no amount. */
function money(v: unknown): string {
  const s = str(v).replace(/[$,\s]/g, '');
  return /^\d{1,9}(\.\d{1,2})?$/.test(s) ? s : '';
}

/**
 * A coinsurance as the fraction EB08 holds. Availity gives no rule for `amount` here, so: a percent
 * when `units` says so or a % sign is written, and when it is above 1 (no fraction is); else a fraction.
 */
function fraction(v: unknown, units: unknown): string {
  const raw = str(v).trim();
  const s = raw.replace(/%$/, '');
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(s)) return '';
  const n = Number(s);
  const percent = raw.endsWith('%') || /percent/i.test(str(units)) || n > 1;
  const f = percent ? n / 100 : n;
  return f > 1 ? '' : String(Number(f.toFixed(4)));
}

/**
 * The plan a benefit belongs to: its insurance type (EB04 where the benefit states none: Medicare's Part A
 * and Part B come as two plans) and, for a plan other than the one read as the member's, its dates (DTP
 * 348/349 on each of its rows), so last year's or another product's benefits never price a visit outside them.
 */
interface PlanContext {
  insurance: string;
  begin: string;
  end: string;
}

const NO_PLAN: PlanContext = { insurance: '', begin: '', end: '' };

interface BenefitContext {
  list: SegmentList;
  eb01: string;
  service: string;
  network: string;
  plan: PlanContext;
}

/** A row's dates: its own, else its plan's. */
function rowDates(list: SegmentList, begin: string, end: string): void {
  if (begin && end) list.add('DTP', '348', 'RD8', `${begin}-${end}`);
  else if (begin) list.add('DTP', '348', 'D8', begin);
  else if (end) list.add('DTP', '349', 'D8', end);
}

/**
 * A time period code of the kind asked for (EB06); '' when the item gives none or one of another kind; a value
 * that is no code, as sent (whole), so the row is unknown.
 */
const period = (v: unknown, remaining: boolean, d: Delimiters): string => {
  const code = str(v).trim();
  if (code === '') return remaining ? '29' : '';
  if (!/^\d{1,2}$/.test(code)) return whole(d, code);
  const isRemaining = code === '29' || code === '33';
  return remaining ? (isRemaining ? code : '29') : isRemaining ? '' : code;
};

/**
 * An HSD element's code: the `*Code` field when its table holds it, else the code of its words; what
 * neither names is written as sent (cleaned), so the 271 reader's closed world
 * (src/x12/benefits/closed-world.ts) meets a value no table holds and the row cannot price: never dropped.
 */
function hsdCode(list: SegmentList, table: Readonly<Record<string, string>>, code: unknown, words: unknown): string {
  const c = str(code).trim();
  const w = str(words).trim();
  return codeOf(table, c) || codeOf(table, w) || cleanText(c || w, list.d, 30);
}

/**
 * `deliveryInformation` (Availity's HealthCareServiceDelivery) as the HSD segments it transliterates:
 * quantityQualifier HSD01, quantity HSD02, per HSD03 (unit or basis for measurement), timePeriod HSD05,
 * timePeriods HSD06 (number of periods), pattern HSD07, time HSD08. `amount` has no element we can
 * place with certainty (HSD04 is a sample selection modulus): when sent, or when `quantity` is no
 * number, HSD01 names the field instead (a qualifier no table holds), so the row is unknown rather
 * than priced without it.
 */
function serviceDelivery(list: SegmentList, items: unknown): void {
  const d = list.d;
  for (const h of arr(items)) {
    const quantity = str(h.quantity).trim();
    const periods = str(h.timePeriods).trim();
    const number = quantity === '' || /^\d{1,9}(\.\d{1,6})?$/.test(quantity);
    const unread = str(h.amount).trim() !== '' ? 'deliveryInformation.amount' : number ? '' : 'deliveryInformation.quantity';
    list.add(
      'HSD',
      unread || hsdCode(list, QUANTITY_QUALIFIERS, h.quantityQualifierCode, h.quantityQualifier),
      number ? quantity : '',
      hsdCode(list, MEASUREMENT_UNITS, h.perCode, h.per),
      '',
      hsdCode(list, TIME_PERIODS, h.timePeriodCode, h.timePeriod),
      cleanText(periods, d, 3),
      cleanText(str(h.patternCode).trim() || str(h.pattern).trim(), d, 2),
      cleanText(str(h.timeCode).trim() || str(h.time).trim(), d, 2),
    );
  }
}

/** REF03 of an item's identifier: its name field (groupName beside groupNumber). */
const REFERENCE_NAMES = new Set(Object.values(AVAILITY_ITEM_REFERENCES).flatMap(([, name]) => (name ? [name] : [])));
const WRITTEN = new Set(AVAILITY_ITEM_WRITTEN);
const given = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * The fields of a network item that could change the price and that this reader cannot write as what
 * they say (availity-codes.ts AVAILITY_ITEM_*): a field outside every list, a words field without its
 * code, a name without its identifier, and a written field whose value is unreadable.
 */
function unreadFields(nb: Obj, eb01: string): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(nb)) {
    if (!given(value)) continue;
    if (field in AVAILITY_ITEM_DATES) {
      if (availityD8(value) === '') out.push(field);
    } else if (field in AVAILITY_ITEM_REFERENCES) continue;
    else if (REFERENCE_NAMES.has(field)) {
      const number = Object.entries(AVAILITY_ITEM_REFERENCES).find(([, [, name]]) => name === field)![0];
      if (!given(nb[number])) out.push(field);
    } else if (field in AVAILITY_ITEM_IGNORED) {
      if (field !== 'contacts' && !given(nb[`${field}Code`])) out.push(field);
    } else if (!WRITTEN.has(field)) out.push(field);
  }
  const unreadable = (field: string, ok: boolean) => given(nb[field]) && !ok && out.push(field);
  unreadable('amount', eb01 === 'A' ? fraction(nb.amount, nb.units) !== '' : money(nb.amount) !== '');
  unreadable('total', money(nb.total) !== '');
  unreadable('remaining', money(nb.remaining) !== '');
  unreadable('quantity', /^\d{1,9}(\.\d{1,2})?$/.test(str(nb.quantity)));
  unreadable('placeOfServiceCode', /^\d{2}$/.test(str(nb.placeOfServiceCode)));
  unreadable('benefitBeginDate', availityD8(nb.benefitBeginDate) !== '');
  unreadable('benefitEndDate', availityD8(nb.benefitEndDate) !== '');
  if ((given(nb.levelCode) || given(nb.level)) && levelCode(nb) === '') out.push(given(nb.levelCode) ? 'levelCode' : 'level');
  return out;
}

/** An item's identifiers (REF), the fields it cannot write (REF named by the field: no table holds it) and its dates (DTP) other than the benefit's own. */
function itemReferences(list: SegmentList, nb: Obj, unread: readonly string[]): void {
  const d = list.d;
  for (const [field, [qualifier, name]] of Object.entries(AVAILITY_ITEM_REFERENCES))
    if (str(nb[field]).trim()) list.add('REF', qualifier, cleanText(str(nb[field]), d, 50), name ? cleanText(str(nb[name]), d, 80) : '');
  for (const field of unread) list.add('REF', field, 'UNREAD');
}

function itemDates(list: SegmentList, nb: Obj): void {
  for (const [field, qualifier] of Object.entries(AVAILITY_ITEM_DATES)) {
    const date = availityD8(nb[field]);
    if (date) list.add('DTP', qualifier, 'D8', date);
  }
}

function networkBenefit(c: BenefitContext, nb: Obj): void {
  const { list, service, network } = c;
  const d = list.d;
  const eb01 = c.eb01 || statusCode(nb);
  if (!eb01) return;
  const auth = nb.authorizationRequired === true ? 'Y' : nb.authorizationRequired === false ? 'N' : nb.authorizationRequiredUnknown === true ? 'U' : '';
  const quantity = /^\d{1,9}(\.\d{1,2})?$/.test(str(nb.quantity)) ? str(nb.quantity) : '';
  const quantityQualifier = quantity ? whole(d, nb.quantityQualifierCode) : '';
  const eb = (eb06: string, eb07: string, eb08: string, withQuantity: boolean) =>
    list.add(
      'EB',
      eb01,
      levelCode(nb),
      service,
      whole(d, nb.insuranceTypeCode) || c.plan.insurance,
      cleanText(str(nb.planName), d, 50),
      eb06,
      eb07,
      eb08,
      withQuantity ? quantityQualifier : '',
      withQuantity ? quantity : '',
      auth,
      network,
    );
  const unread = unreadFields(nb, eb01);
  const figures: [string, string, string][] = [];
  if (eb01 === 'A') {
    const f = fraction(nb.amount, nb.units);
    if (f) figures.push([period(nb.amountTimePeriodCode, false, d), '', f]);
  } else if (money(nb.amount)) figures.push([whole(d, nb.amountTimePeriodCode), money(nb.amount), '']);
  if (money(nb.total)) figures.push([period(nb.totalTimePeriodCode, false, d), money(nb.total), '']);
  if (money(nb.remaining)) figures.push([period(nb.remainingTimePeriodCode, true, d), money(nb.remaining), '']);
  if (figures.length === 0) figures.push([quantity ? whole(d, nb.amountTimePeriodCode) : '', '', '']);
  figures.forEach(([eb06, eb07, eb08], i) => {
    eb(eb06, eb07, eb08, i === 0);
    // The quantities a limit states only in its service delivery (26 visits a year, 0 remaining) go with its first row.
    if (i === 0) serviceDelivery(list, nb.deliveryInformation);
    itemReferences(list, nb, unread);
    const begin = availityD8(nb.benefitBeginDate);
    const end = availityD8(nb.benefitEndDate);
    if (begin || end) rowDates(list, begin, end);
    else rowDates(list, c.plan.begin, c.plan.end);
    itemDates(list, nb);
    notes(list, [str(nb.description), ...(Array.isArray(nb.payerNotes) ? (nb.payerNotes as unknown[]) : [])]);
    const place = str(nb.placeOfServiceCode);
    if (/^\d{2}$/.test(place)) list.add('III', 'ZZ', place);
  });
}

/** An entity of a 2120 loop under its own EB. */
function related(list: SegmentList, eb: string[], entity: string, who: Obj, ref?: string): void {
  const d = list.d;
  list.addAll('EB', eb);
  if (ref) list.add('REF', 'IG', cleanText(ref, d, 50));
  list.add('LS', '2120');
  const person = str(who.lastName) !== '' || str(who.firstName) !== '';
  const npi = /^\d{10}$/.test(str(who.npi)) ? str(who.npi) : '';
  const id = npi || cleanText(str(who.payerId), d, 80);
  const ids = [id ? (npi ? 'XX' : 'PI') : '', id];
  // A contact with a person's and an organization's name is both (a PCP and the practice): the ID goes with the person.
  if (person) list.addAll('NM1', [entity, '1', cleanText(str(who.lastName), d, 60), cleanText(str(who.firstName), d, 35), '', '', '', ...ids]);
  if (!person || str(who.name) !== '') list.addAll('NM1', [entity, '2', cleanText(str(who.name), d, 60), '', '', '', '', ...(person ? ['', ''] : ids)]);
  const phone = arr(who.contactInformation)
    .map((c) => str(c.phone) || str(c.workPhone))
    .find(Boolean);
  if (phone) list.add('PER', 'IC', '', 'TE', cleanText(phone, d, 80));
  list.add('LE', '2120');
}

/**
 * 2120C NM101 of a benefit's contact: its `roleCode` (the X12 entity identifier, e.g. X3 utilization
 * management organization, 2B third-party administrator) or the `role` it spells, as the 271 reader
 * reads a 2120C entity (code-tables/nm101-2120.json decides every code). A role neither field reads as,
 * or two that disagree, is written as sent: outside the table, the 271 reader's closed world makes the
 * row unknown, never a payer. Without a role, the `typeCode` (the entity code in older answers), else
 * the payer (PR).
 */
function contactEntity(c: Obj, d: Delimiters): string {
  const role = codeOfEither(ENTITY_IDENTIFIERS, str(c.roleCode), str(c.role));
  if (role !== '') return cleanText(role, d, 80);
  return /^[A-Z0-9]{2,3}$/.test(str(c.typeCode)) ? str(c.typeCode) : 'PR';
}

function otherPayers(list: SegmentList, payers: unknown, service: string): void {
  for (const p of arr(payers)) {
    const entity = p.primary === true ? 'PRP' : p.secondary === true ? 'SEP' : p.tertiary === true ? 'TTP' : 'PR';
    const type = /^[A-Z0-9]{1,3}$/.test(str(p.typeCode)) ? str(p.typeCode) : '';
    related(list, ['R', '', serviceType(p.serviceTypeCode) || service, type], entity, p, str(p.policyNumber) || undefined);
  }
}

const DETAIL_KINDS: readonly (readonly [string, string])[] = [...Object.entries(EB01_BY_DETAIL), ['statusDetails', '']];

/** The items of each network's list in `detail` (an object of lists by network), each as networkBenefit reads it. */
function byNetwork(list: SegmentList, detail: unknown, eb01: string, service: string, plan: PlanContext): void {
  // Most benefits hold few of the lists: an absent one is passed over without building an empty one.
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return;
  for (const net of AVAILITY_NETWORKS) {
    const items = (detail as Obj)[net];
    if (Array.isArray(items)) for (const nb of items) networkBenefit({ list, eb01, service, network: EB12_BY_NETWORK[net], plan }, obj(nb));
  }
}

/** The detail lists other than amounts (a benefit's, or a plan's for service type 30), by network. */
function details(list: SegmentList, holder: Obj, service: string, plan: PlanContext): void {
  for (const [kind, eb01] of DETAIL_KINDS) byNetwork(list, holder[kind], eb01, service, plan);
}

/** Notes as MSG: PayerNote objects (plans, benefits) or strings (network items). */
function notes(list: SegmentList, items: unknown): void {
  for (const n of Array.isArray(items) ? items : []) {
    const text = typeof n === 'string' ? n : str(obj(n).message);
    if (text) list.add('MSG', cleanText(text, list.d, 264));
  }
}

function benefit(list: SegmentList, b: Obj, plan: PlanContext): void {
  // A type that is no service type code is written as sent (the rows unknown), never as rows for no service type.
  const service = serviceType(b.type) || whole(list.d, b.type);
  // A status neither statusCode nor status reads as (1 to 8) is left out: written as sent it could be another
  // EB01 (B, a copay), and the 271 reader reads a status row it cannot decide as saying nothing anyway.
  const status = statusCode(b);
  if (status) list.add('EB', status, '', service, plan.insurance);
  if (status) rowDates(list, plan.begin, plan.end);
  if (status) notes(list, b.payerNotes);
  const amounts = obj(b.amounts);
  for (const kind of AVAILITY_AMOUNTS) byNetwork(list, amounts[kind], EB01_BY_AMOUNT[kind], service, plan);
  details(list, b, service, plan);
  otherPayers(list, b.additionalPayers, service || '30');
  for (const c of arr(b.contacts)) related(list, ['U', '', service], contactEntity(c, list.d), c);
}

function plan(list: SegmentList, p: Obj, main: boolean): void {
  const status = statusCode(p);
  const insurance = whole(list.d, p.insuranceTypeCode);
  const context: PlanContext = main ? { ...NO_PLAN, insurance } : { insurance, begin: planDate(p, 'planBegin'), end: planDate(p, 'planEnd') };
  if (status) list.add('EB', status, '', '30', insurance, cleanText(str(p.planName), list.d, 50));
  // Another plan's status row states its own plan dates (the member's are in 2100C).
  if (status && context.begin) list.add('DTP', '346', 'D8', context.begin);
  if (status && context.end) list.add('DTP', '347', 'D8', context.end);
  if (status) notes(list, p.payerNotes);
  details(list, p, '30', context);
  for (const b of arr(p.benefits)) benefit(list, b, context);
  otherPayers(list, p.additionalPayers, '30');
  if (p.primaryCareProvider !== undefined) related(list, ['L', '', '30'], 'P3', obj(p.primaryCareProvider));
}

const PLAN_DATES: [string, string[]][] = [
  ['planBegin', ['planStartDate', 'coverageStartDate', 'policyEffectiveDate']],
  ['planEnd', ['planEndDate', 'coverageEndDate', 'policyExpirationDate']],
  ['eligibilityBegin', ['eligibilityStartDate']],
  ['eligibilityEnd', ['eligibilityEndDate']],
];

/** A plan's date of the kind asked for (PLAN_DATES), as D8; '' when it gives none. */
function planDate(p: Obj, kind: string): string {
  const fields = PLAN_DATES.find(([to]) => to === kind)![1];
  return fields.map((f) => availityD8(p[f])).find(Boolean) ?? '';
}

/** A coverage Availity completed, or one the payer refused (validation messages with reject reasons). */
const answered = (b: Obj) =>
  str(b.statusCode) === '4' || /^complete/i.test(str(b.status)) || arr(b.validationMessages).some((m) => /^[0-9A-Z]{2}$/.test(str(m.code)));

/** Availity's answer written as the 271 to our inquiry; null when it is no answered coverage. */
export function availityToX12(body: unknown, inquiry: Inquiry): string | null {
  const b = obj(body);
  if (!answered(b)) return null;
  const plans = arr(b.plans);
  const main = plans.find((p) => ['1', '2', '3', '4', '5'].includes(statusCode(p))) ?? plans[0] ?? {};
  const list = new SegmentList();
  const d = list.d;
  const trace = cleanText(inquiry.trace_number, d, 50) || '1';
  const messages = arr(b.validationMessages).filter((m) => /^[0-9A-Z]{2}$/.test(str(m.code)));
  const at = (loop: RegExp) => messages.filter((m) => loop.test(str(m.field))).map((m) => ({ code: m.code }));
  const atPayer = at(/payer/i);
  const atProvider = at(/provider/i);
  const atMember = messages.filter((m) => !/payer|provider/i.test(str(m.field))).map((m) => ({ code: m.code }));
  list.add('BHT', '0022', '11', trace, isoToD8(inquiry.date), '1200');
  list.add('HL', '1', '', '20', '1');
  const payer = obj(b.payer);
  name(list, 'PR', { organizationName: str(payer.responseName) || payer.name }, 'PI', str(payer.responsePayerId) || str(payer.payerId));
  aaa(list, atPayer);
  list.add('HL', '2', '1', '21', '1');
  name(list, '1P', { organizationName: inquiry.provider.organization_name ?? inquiry.provider.last_name ?? '' }, 'XX', inquiry.provider.npi ?? '');
  aaa(list, atProvider);
  const subscriber = obj(b.subscriber);
  const patient = obj(b.patient);
  // The patient is a dependent when Availity says so (a relationship other than 18 self), or when we asked about one.
  const relationship = str(patient.subscriberRelationshipCode);
  const dependent = relationship !== '' ? relationship !== '18' : inquiry.dependent !== null;
  const dates: Record<string, string> = {};
  for (const [to] of PLAN_DATES) {
    const date = planDate(main, to);
    if (date !== '') dates[to] = date;
  }
  const asMember = (who: Obj): Obj => {
    const address = who.address === undefined ? null : obj(who.address);
    return {
      memberId: who.memberId,
      firstName: who.firstName,
      lastName: who.lastName,
      dateOfBirth: availityD8(who.birthDate),
      gender: who.genderCode,
      address: address
        ? { address1: address.line1, address2: address.line2, city: address.city, state: address.stateCode, postalCode: address.zipCode }
        : undefined,
      planDateInformation: dates,
    };
  };
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) list.add('TRN', '2', trace, '9COVERAGE');
  const group = () => {
    if (str(main.groupNumber) || str(main.groupName)) list.add('REF', '6P', cleanText(str(main.groupNumber), d, 50), cleanText(str(main.groupName), d, 80));
  };
  member(list, asMember(dependent ? subscriber : { ...patient, ...subscriber }), 'IL');
  if (!dependent) group();
  if (dependent) {
    list.add('HL', '4', '3', '23', '0');
    list.add('TRN', '2', trace, '9COVERAGE');
    member(list, asMember(patient), '03');
    group();
    // Availity's answer says nothing of the payer correcting the demographics sent (INS03 001, INS04 25).
    if (/^[0-9A-Z]{2}$/.test(relationship)) list.add('INS', 'N', relationship);
  }
  aaa(list, atMember);
  for (const p of plans) plan(list, p, p === main);
  return interchange271(list, 'AVAILITY');
}
