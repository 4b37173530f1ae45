/**
 * The Stedi simulator's answer body: a 271 read into Stedi's JSON as Stedi publishes it (names for
 * codes, the plan's dates at the top level, related entities as a list plus the first one singly,
 * AAA errors per loop and bubbled to `errors[]` with Stedi's follow-up wording). The reverse of
 * src/payers/vendors/stedi-read.ts, from the same tables (stedi-codes.ts), and held to our schema of
 * Stedi's API (stedi-schema.ts) by test/connections/stedi-conformance.test.ts.
 */
import { AAA_REASONS } from '../../../x12/aaa.ts';
import { el, repetitions, tokenize, type Segment } from '../../../x12/index.ts';
import { DATE_NAME_OF_QUALIFIER } from '../../vendors/eligibility-v3-codes.ts';
import { obj, type Obj } from '../../vendors/json-read.ts';
import { procedureIdentifierOf } from './eligibility-v3-json.ts';
import {
  COMMUNICATION_MODE_CODES,
  ENTITY_TYPE_CODES,
  FOLLOWUP_ACTION_CODES,
  PAYER_ENTITY_CODES,
  PROVIDER_ENTITY_CODES,
  RELATED_ENTITY_CODES,
  RELATIONSHIP_NAMES,
  BENEFIT_REFS,
  PLAN_REFS,
  nameFor,
  type RefField,
} from '../../vendors/stedi-codes.ts';

const LOOP_OF_LEVEL: Record<string, string> = { '20': '2100A', '21': '2100B', '22': '2100C', '23': '2100D' };

/** Sets only values that are there: Stedi leaves absent fields out. */
function put(o: Obj, key: string, value: unknown): void {
  if (value !== '' && value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) o[key] = value;
}
const push = (o: Obj, key: string, item: Obj) => {
  o[key] = [...(Array.isArray(o[key]) ? (o[key] as Obj[]) : []), item];
};

/** A REF's value (and REF03 description) under the field names of its table entry. */
const refFields = ([field, , description]: RefField, value: string, text: string): Obj => ({
  ...(value ? { [field]: value } : {}),
  ...(description && text ? { [description]: text } : {}),
});

/** "20260101" or "20260101-20261231", as Stedi writes both. */
const dateOf = (seg: Segment) => el(seg, 3);

function aaaOf(seg: Segment, level: string): Obj {
  const code = el(seg, 3);
  const out: Obj = { code, description: AAA_REASONS[code] ?? 'Unlisted reject reason', field: 'AAA', location: `Loop ${LOOP_OF_LEVEL[level] ?? '2000A'}` };
  put(out, 'followupAction', nameFor(FOLLOWUP_ACTION_CODES, el(seg, 4)));
  return out;
}

function contactsOf(seg: Segment): Obj[] {
  const out: Obj[] = [];
  for (let i = 3; i <= 7; i += 2) {
    const mode = nameFor(COMMUNICATION_MODE_CODES, el(seg, i));
    if (mode && el(seg, i + 1)) out.push({ communicationMode: mode, communicationNumber: el(seg, i + 1) });
  }
  return out;
}

/** Stedi's JSON for a 271 (the raw 271 rides along in `x12`); null when the text is no readable X12. */
export function x12ToStedi(x12: string): Obj | null {
  const tokens = tokenize(x12);
  if (!tokens.ok) return null;
  const d = tokens.value.delimiters;
  const out: Obj = { payer: {}, provider: {}, subscriber: {}, benefitsInformation: [] as Obj[], errors: [] as Obj[] };
  const errors = out.errors as Obj[];
  let level = '';
  let who: Obj = obj(out.payer);
  let planDates: Obj = {};
  let benefit: Obj | null = null;
  let related: Obj | null = null;
  let inRelated = false;
  for (const seg of tokens.value.segments) {
    switch (seg.id) {
      case 'HL':
        level = el(seg, 3);
        benefit = null;
        if (level === '20') who = out.payer as Obj;
        else if (level === '21') who = out.provider as Obj;
        else if (level === '22') who = out.subscriber as Obj;
        else if (level === '23') {
          who = {};
          out.dependents = [...((out.dependents as Obj[] | undefined) ?? []), who];
          // Benefits of a dependent inquiry are the dependent's; its own plan dates override the subscriber's.
          out.benefitsInformation = [];
        }
        break;
      case 'NM1': {
        const type = nameFor(ENTITY_TYPE_CODES, el(seg, 2));
        if (inRelated && benefit) {
          related = {};
          put(related, 'entityIdentifier', nameFor(RELATED_ENTITY_CODES, el(seg, 1)));
          put(related, 'entityType', type);
          put(related, 'entityName', el(seg, 3));
          put(related, 'entityFirstname', el(seg, 4));
          put(related, 'entityMiddlename', el(seg, 5));
          put(related, 'entitySuffix', el(seg, 7));
          put(related, 'entityIdentification', el(seg, 8));
          put(related, 'entityIdentificationValue', el(seg, 9));
          push(benefit, 'benefitsRelatedEntities', related);
          if (!benefit.benefitsRelatedEntity) benefit.benefitsRelatedEntity = related;
          break;
        }
        put(who, 'entityType', type);
        if (level === '20') {
          put(who, 'entityIdentifier', nameFor(PAYER_ENTITY_CODES, el(seg, 1)));
          put(who, 'name', el(seg, 3));
          put(who, 'payorIdentification', el(seg, 9));
        } else if (level === '21') {
          put(who, 'entityIdentifier', nameFor(PROVIDER_ENTITY_CODES, el(seg, 1)));
          put(who, 'providerName', el(seg, 3));
          put(who, 'providerFirstName', el(seg, 4));
          if (el(seg, 8) === 'XX') put(who, 'npi', el(seg, 9));
        } else {
          const subscriber = level === '22';
          Object.assign(who, subscriber ? { entityIdentifier: 'Insured or Subscriber' } : { entityIdentifier: 'Dependent' });
          put(who, 'lastName', el(seg, 3));
          put(who, 'firstName', el(seg, 4));
          put(who, 'middleName', el(seg, 5));
          put(who, 'suffix', el(seg, 7));
          if (subscriber) put(who, 'memberId', el(seg, 9));
        }
        break;
      }
      case 'N3':
        if (related) related.address = { ...obj(related.address), address1: el(seg, 1), ...(el(seg, 2) ? { address2: el(seg, 2) } : {}) };
        else who.address = { ...obj(who.address), address1: el(seg, 1), ...(el(seg, 2) ? { address2: el(seg, 2) } : {}) };
        break;
      case 'N4': {
        const target = related ?? who;
        const a = obj(target.address);
        put(a, 'city', el(seg, 1));
        put(a, 'state', el(seg, 2));
        put(a, 'postalCode', el(seg, 3));
        target.address = a;
        break;
      }
      case 'PER': {
        const target = related ?? (level === '20' ? who : null);
        if (target) target.contactInformation = { contacts: [...((obj(target.contactInformation).contacts as Obj[] | undefined) ?? []), ...contactsOf(seg)] };
        break;
      }
      case 'DMG':
        put(who, 'dateOfBirth', el(seg, 2));
        put(who, 'gender', el(seg, 3));
        break;
      case 'INS': {
        const code = el(seg, 2);
        put(who, 'insuredIndicator', el(seg, 1));
        put(who, 'relationToSubscriberCode', code);
        put(who, 'relationToSubscriber', RELATIONSHIP_NAMES[code]);
        put(who, 'maintenanceTypeCode', el(seg, 3));
        put(who, 'maintenanceReasonCode', el(seg, 4));
        break;
      }
      case 'REF': {
        const [q, value, description] = [el(seg, 1), el(seg, 2), el(seg, 3)];
        if (benefit) {
          const ref = BENEFIT_REFS.find(([, qualifier]) => qualifier === q);
          if (ref) benefit.benefitsAdditionalInformation = { ...obj(benefit.benefitsAdditionalInformation), ...refFields(ref, value, description) };
          break;
        }
        const ref = PLAN_REFS.find(([, qualifier]) => qualifier === q);
        if (!ref) break;
        out.planInformation = { ...obj(out.planInformation), ...refFields(ref, value, description) };
        // The member's own group, plan and network as Stedi names them on the member.
        if (q === '6P' || q === '18') Object.assign(who, refFields(ref, value, description));
        if (q === 'N6') Object.assign(who, refFields(['planNetworkIdNumber', 'N6', 'planNetworkDescription'], value, description));
        break;
      }
      case 'DTP': {
        const name = DATE_NAME_OF_QUALIFIER[el(seg, 1)];
        if (!name) break;
        if (benefit) benefit.benefitsDateInformation = { ...obj(benefit.benefitsDateInformation), [name]: dateOf(seg) };
        else if (level === '22' || level === '23') planDates = { ...planDates, [name]: dateOf(seg) };
        break;
      }
      case 'AAA': {
        const e = aaaOf(seg, level);
        push(benefit ?? who, 'aaaErrors', e);
        errors.push(e);
        break;
      }
      case 'EB': {
        inRelated = false;
        related = null;
        benefit = {};
        put(benefit, 'code', el(seg, 1));
        put(benefit, 'coverageLevelCode', el(seg, 2));
        put(benefit, 'serviceTypeCodes', repetitions(el(seg, 3), d));
        put(benefit, 'insuranceTypeCode', el(seg, 4));
        put(benefit, 'planCoverage', el(seg, 5));
        put(benefit, 'timeQualifierCode', el(seg, 6));
        put(benefit, 'benefitAmount', el(seg, 7));
        // Stedi writes EB08 as a decimal with its leading zero ("0.2" for ".2").
        put(benefit, 'benefitPercent', el(seg, 8).startsWith('.') ? `0${el(seg, 8)}` : el(seg, 8));
        put(benefit, 'quantityQualifierCode', el(seg, 9));
        put(benefit, 'benefitQuantity', el(seg, 10));
        put(benefit, 'authOrCertIndicator', el(seg, 11));
        put(benefit, 'inPlanNetworkIndicatorCode', el(seg, 12));
        put(benefit, 'compositeMedicalProcedureIdentifier', procedureIdentifierOf(el(seg, 13), d, 'productOrServiceIDQualifierCode'));
        (out.benefitsInformation as Obj[]).push(benefit);
        break;
      }
      case 'HSD':
        if (benefit) {
          const h: Obj = {};
          const names = [
            'quantityQualifierCode',
            'quantity',
            'unitForMeasurementQualifierCode',
            'sampleSelectionModulus',
            'timePeriodQualifierCode',
            'numOfPeriods',
            'deliveryOrCalendarPatternQualifierCode',
            'deliveryPatternTimeQualifierCode',
          ];
          names.forEach((name, i) => put(h, name, el(seg, i + 1)));
          push(benefit, 'benefitsServiceDelivery', h);
        }
        break;
      case 'MSG':
        if (benefit) push(benefit, 'additionalInformation', { description: el(seg, 1) });
        break;
      case 'III':
        if (benefit) {
          const info = { codeListQualifierCode: el(seg, 1), industryCode: el(seg, 2) };
          push(benefit, 'eligibilityAdditionalInformationList', info);
          benefit.eligibilityAdditionalInformation ??= info;
        }
        break;
      case 'LS':
        inRelated = benefit !== null;
        break;
      case 'LE':
        inRelated = false;
        related = null;
        break;
      default:
        break;
    }
  }
  if (Object.keys(planDates).length > 0) out.planDateInformation = planDates;
  return { ...out, x12 };
}
