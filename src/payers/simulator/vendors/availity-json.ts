/**
 * The simulator's side of Availity's coverage JSON: a 271 (read through the v3 model) as Availity's
 * Coverage (src/payers/vendors/availity-schema.ts), the reverse of src/payers/vendors/availity-271.ts.
 * Status EBs become the plan's and each benefit's status (with a network, dates or notes: statusDetails);
 * cost EBs become `amounts` split by network, a total and its remaining in one item; F/I/E/D/CB/J/K
 * their detail lists; EB*R other payers, EB*L the PCP, EB*U benefit contacts. EBs with no place in
 * Availity's schema (EB*MC, ...) are left out, as Availity would.
 */
import { periodKind } from '../../../x12/codes.ts';
import { el, tokenize } from '../../../x12/index.ts';
import { AVAILITY_LEVEL_NAMES, AVAILITY_STATUS_NAMES, EB01_BY_AMOUNT, EB01_BY_DETAIL, EB12_BY_NETWORK } from '../../vendors/availity-codes.ts';
import { arr, obj, str, strings, type Obj } from '../../vendors/json-read.ts';
import { aaaOf } from './common.ts';
import { x12ToV3 } from './eligibility-v3-json.ts';

/** A CCYYMMDD (or an ISO date) in Availity's date-time form, 1988-03-14T00:00:00.000+0000. */
export function availityDateTime(v: unknown): string | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(str(v));
  return m ? `${m[1]}-${m[2]}-${m[3]}T00:00:00.000+0000` : undefined;
}

const invert = (o: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k]));
const AMOUNT_BY_EB01 = invert(EB01_BY_AMOUNT);
const DETAIL_BY_EB01 = invert(EB01_BY_DETAIL);
const NETWORK_BY_EB12: Record<string, string> = { ...invert(EB12_BY_NETWORK), '': 'noNetwork' };
const defined = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));

function person(p: Obj): Obj {
  const a = p.address === undefined ? null : obj(p.address);
  return defined({
    memberId: p.memberId,
    firstName: p.firstName,
    lastName: p.lastName,
    birthDate: availityDateTime(p.dateOfBirth),
    genderCode: p.gender,
    ...(a ? { address: defined({ line1: a.address1, line2: a.address2, city: a.city, stateCode: a.state, zipCode: a.postalCode }) } : {}),
  });
}

/** The fields of an EB that say what an item is about (not its figures). */
function descriptors(b: Obj, place: string | undefined): Obj {
  const d = obj(b.benefitsDateInformation);
  const [begin, end] = str(d.benefitBegin).split('-');
  const notes = arr(b.additionalInformation).map((m) => str(m.description));
  const auth = str(b.authOrCertIndicator);
  const level = str(b.coverageLevelCode);
  return defined({
    levelCode: level,
    level: AVAILITY_LEVEL_NAMES[level],
    insuranceTypeCode: b.insuranceTypeCode,
    planName: b.planCoverage,
    authorizationRequired: auth === 'Y' ? true : auth === 'N' ? false : undefined,
    authorizationRequiredUnknown: auth === 'U' ? true : undefined,
    benefitBeginDate: availityDateTime(begin),
    benefitEndDate: availityDateTime(end ?? d.benefitEnd),
    placeOfServiceCode: place,
    payerNotes: notes.length > 0 ? notes : undefined,
  });
}

function contact(entity: Obj): Obj {
  const person = str(entity.entityType) === '1';
  const id = str(entity.entityIdentificationValue);
  const phone = arr(obj(entity.contactInformation).contacts).find((c) => str(c.communicationMode) === 'TE');
  return defined({
    ...(person ? { lastName: entity.entityName, firstName: entity.entityFirstname } : { name: entity.entityName }),
    ...(str(entity.entityIdentification) === 'XX' ? { npi: id } : { payerId: id }),
    contactInformation: phone ? [{ phone: str(phone.communicationNumber) }] : undefined,
  });
}

class Benefits {
  readonly byService = new Map<string, Obj>();
  readonly additionalPayers: Obj[] = [];
  primaryCareProvider: Obj | undefined;
  private readonly open = new Map<string, Obj>();

  benefit(service: string): Obj {
    let b = this.byService.get(service);
    if (!b) this.byService.set(service, (b = { type: service }));
    return b;
  }

  /** An item of a detail list; a total and a remaining of the same item meet in one object. */
  item(service: string, list: string[], network: string, about: Obj, figure: [string, string] | null, period: Obj = {}): void {
    const key = JSON.stringify([service, list, network, about, figure?.[0] === 'remaining' ? 'total' : figure?.[0]]);
    const open = this.open.get(key);
    if (open && figure?.[0] === 'remaining' && open.remaining === undefined) {
      Object.assign(open, { remaining: figure[1], ...period });
      return;
    }
    let holder = this.benefit(service);
    for (const name of list) holder = (holder[name] ??= {}) as Obj;
    const nb: Obj = { ...about, ...(figure ? { [figure[0]]: figure[1] } : {}), ...period };
    ((holder[network] ??= []) as Obj[]).push(nb);
    this.open.set(key, nb);
  }
}

/**
 * What the v3 model does not keep: REF*IG (the other payer's policy number) and REF*1W (a member ID
 * from the benefit's date on) after each EB, by the EB's index; the dependent's relationship to the
 * subscriber (2000D INS02) and member ID (2100D REF*1W).
 */
function extras(x12: string): {
  policies: Map<number, string>;
  memberIds: Map<number, string>;
  relationship: string | undefined;
  dependentId: string | undefined;
} {
  const policies = new Map<number, string>();
  const memberIds = new Map<number, string>();
  let relationship: string | undefined;
  let dependentId: string | undefined;
  const tokens = tokenize(x12);
  if (!tokens.ok) return { policies, memberIds, relationship, dependentId };
  let eb = -1;
  let dependent = false;
  for (const seg of tokens.value.segments) {
    if (seg.id === 'EB') eb++;
    else if (seg.id === 'HL') [eb, dependent] = el(seg, 3) === '23' ? [-1, true] : [eb, dependent];
    else if (seg.id === 'REF' && el(seg, 1) === 'IG' && eb >= 0) policies.set(eb, el(seg, 2));
    else if (seg.id === 'INS' && dependent && eb < 0) relationship = el(seg, 2) || undefined;
    else if (seg.id === 'REF' && el(seg, 1) === '1W' && eb >= 0) memberIds.set(eb, el(seg, 2));
    else if (seg.id === 'REF' && el(seg, 1) === '1W' && dependent) dependentId = el(seg, 2) || undefined;
  }
  return { policies, memberIds, relationship, dependentId };
}

function add(out: Benefits, b: Obj, policyNumber: string | undefined, memberId: string | undefined): void {
  const code = str(b.code);
  const services = strings(b.serviceTypeCodes);
  const network = NETWORK_BY_EB12[str(b.inPlanNetworkIndicatorCode)] ?? 'noNetwork';
  const places = arr(b.eligibilityAdditionalInformationList)
    .filter((i) => str(i.codeListQualifierCode) === 'ZZ')
    .map((i) => str(i.industryCode));
  const related = arr(b.benefitsRelatedEntities);
  for (const service of services.length > 0 ? services : ['30']) {
    if (code === 'R') {
      for (const e of related) {
        const order = str(e.entityIdentifier);
        out.additionalPayers.push(
          defined({
            ...contact(e),
            typeCode: b.insuranceTypeCode,
            policyNumber,
            serviceTypeCode: service === '30' ? undefined : service,
            primary: order === 'PRP' ? true : undefined,
            secondary: order === 'SEP' ? true : undefined,
            tertiary: order === 'TTP' ? true : undefined,
          }),
        );
      }
      continue;
    }
    if (code === 'L') {
      // A PCP named as a person and as an organization (two NM1*P3) is one contact with both names.
      const named = related.filter((e) => str(e.entityIdentifier) === 'P3').map(contact);
      if (named.length > 0) out.primaryCareProvider = Object.assign({}, ...named.reverse()) as Obj;
      continue;
    }
    if (code === 'U') {
      const benefit = out.benefit(service);
      benefit.contacts = [...arr(benefit.contacts), ...related.map((e) => defined({ ...contact(e), typeCode: str(e.entityIdentifier) }))];
      continue;
    }
    for (const place of places.length > 0 ? places : [undefined]) {
      const about = defined({ ...descriptors(b, place), memberIdentificationNumber: memberId });
      if (AVAILITY_STATUS_NAMES[code]) {
        const benefit = out.benefit(service);
        const plain = Object.keys(about).length === 0 && network === 'noNetwork';
        if (plain && benefit.statusCode === undefined) Object.assign(benefit, { statusCode: code, status: AVAILITY_STATUS_NAMES[code] });
        else out.item(service, ['statusDetails'], network, { ...about, statusCode: code, status: AVAILITY_STATUS_NAMES[code] }, null);
        continue;
      }
      const amount = AMOUNT_BY_EB01[code];
      const detail = DETAIL_BY_EB01[code];
      if (!amount && !detail) continue;
      const period = str(b.timeQualifierCode);
      const kind = periodKind(period);
      const quantity = str(b.benefitQuantity) ? { quantity: str(b.benefitQuantity), quantityQualifierCode: str(b.quantityQualifierCode) } : {};
      const at = amount ? ['amounts', amount] : [detail!];
      const money = str(b.benefitAmount);
      const periodOf = (field: string) => defined({ [field]: period });
      if (code === 'A' && str(b.benefitPercent)) out.item(service, at, network, about, ['amount', str(b.benefitPercent)], periodOf('amountTimePeriodCode'));
      else if (money && (code === 'C' || code === 'G') && kind === 'remaining')
        out.item(service, at, network, about, ['remaining', money], periodOf('remainingTimePeriodCode'));
      else if (money && (code === 'C' || code === 'G') && kind === 'total')
        out.item(service, at, network, about, ['total', money], periodOf('totalTimePeriodCode'));
      else if (money) out.item(service, at, network, about, ['amount', money], periodOf('amountTimePeriodCode'));
      else out.item(service, at, network, defined({ ...about, ...quantity }), null, periodOf('amountTimePeriodCode'));
    }
  }
}

/** A 271 as Availity's whole coverage (GET /v1/coverages/{id}). */
export function availityCoverage(id: string, x12: string, asked: { asOfDate?: string; serviceType?: string }): Obj {
  const v3 = x12ToV3(x12, false);
  const sub = v3.subscriber;
  const pat = v3.dependents?.[0] ?? sub;
  const dates = obj(pat.planDateInformation ?? sub.planDateInformation);
  const out = new Benefits();
  const status = v3.benefitsInformation.find((b) => AVAILITY_STATUS_NAMES[str(b.code)] && strings(b.serviceTypeCodes).includes('30'));
  const { policies, memberIds, relationship, dependentId } = extras(x12);
  // The plan's own status EB is the plan's status, not a benefit's.
  v3.benefitsInformation.forEach((b, i) => (b === status ? undefined : add(out, b, policies.get(i), memberIds.get(i))));
  const planNotes = status ? arr(status.additionalInformation).map((m) => ({ message: str(m.description) })) : [];
  const group = obj(v3.planInformation);
  const benefits = [...out.byService.values()];
  const plan = defined({
    status: status ? AVAILITY_STATUS_NAMES[str(status.code)] : undefined,
    statusCode: status ? str(status.code) : undefined,
    insuranceTypeCode: status?.insuranceTypeCode,
    planName: status?.planCoverage,
    groupNumber: group.groupNumber,
    groupName: group.groupDescription,
    coverageStartDate: availityDateTime(dates.planBegin),
    coverageEndDate: availityDateTime(dates.planEnd),
    eligibilityStartDate: availityDateTime(dates.eligibilityBegin),
    eligibilityEndDate: availityDateTime(dates.eligibilityEnd),
    payerNotes: planNotes.length > 0 ? planNotes : undefined,
    benefits: benefits.length > 0 ? benefits : undefined,
    additionalPayers: out.additionalPayers.length > 0 ? out.additionalPayers : undefined,
    primaryCareProvider: out.primaryCareProvider,
  });
  const aaa = aaaOf(x12);
  const rejected = aaa.length > 0 && v3.benefitsInformation.length === 0;
  return defined({
    id,
    status: 'Complete',
    statusCode: '4',
    asOfDate: availityDateTime(asked.asOfDate),
    requestedServiceType: asked.serviceType ? [{ code: asked.serviceType }] : undefined,
    payer: defined({ payerId: v3.payer.payorIdentification, name: v3.payer.name }),
    subscriber: person(sub),
    patient: defined({
      ...person(pat),
      ...(v3.dependents && dependentId ? { memberId: dependentId } : {}),
      subscriberRelationshipCode: v3.dependents ? (relationship ?? '19') : '18',
    }),
    plans: rejected ? [] : [plan],
    validationMessages:
      aaa.length > 0
        ? aaa.map((e, index) => ({ field: FIELD_OF_LEVEL[e.level] ?? 'memberId', errorMessage: 'Rejected by the payer', code: e.code, index }))
        : undefined,
  });
}

/** The request field an AAA's loop is about, as Availity names it. */
const FIELD_OF_LEVEL: Record<string, string> = { payer: 'payerId', provider: 'providerNpi' };
