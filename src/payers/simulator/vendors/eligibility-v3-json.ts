/**
 * The simulators' side of the v3 JSON model: a 271 read into the vendor's JSON (payer, provider,
 * subscriber/dependents, planInformation, planDateInformation, benefitsInformation, errors), the
 * reverse of src/payers/vendors/eligibility-v3.ts. The raw 271 rides along in `x12` unless left out.
 */
import { components, el, repetitions, tokenize, type Delimiters, type Segment } from '../../../x12/index.ts';
import { DATE_NAME_OF_QUALIFIER } from '../../vendors/eligibility-v3-codes.ts';
import { obj, type Obj } from '../../vendors/json-read.ts';

export interface V3Answer {
  payer: Obj;
  provider: Obj;
  subscriber: Obj;
  dependents?: Obj[];
  planInformation?: Obj;
  benefitsInformation: Obj[];
  errors: Obj[];
  x12?: string;
}

const nameOf = (seg: Segment): Obj => (el(seg, 2) === '1' ? { lastName: el(seg, 3), firstName: el(seg, 4) } : { organizationName: el(seg, 3) });
const aaaOf = (seg: Segment): Obj => ({ code: el(seg, 3), followupActionCode: el(seg, 4), field: 'AAA' });
const push = (o: Obj, key: string, item: Obj) => {
  o[key] = [...(Array.isArray(o[key]) ? (o[key] as Obj[]) : []), item];
};

/**
 * EB13 as the JSON models' `compositeMedicalProcedureIdentifier` (the reverse of json-read.ts
 * procedureComposite); `qualifierKey` is the qualifier code's field as the vendor spells it (Stedi
 * `productOrServiceIDQualifierCode`, the v3 model `productOrServiceIdQualifierCode`). Undefined without EB13.
 */
export function procedureIdentifierOf(eb13: string, d: Delimiters, qualifierKey: string): Obj | undefined {
  if (eb13 === '') return undefined;
  const [qualifier = '', procedure = '', ...rest] = components(eb13, d);
  const modifiers = rest.slice(0, 4).filter((m) => m !== '');
  const end = rest[5] ?? '';
  return {
    ...(qualifier ? { [qualifierKey]: qualifier } : {}),
    ...(procedure ? { procedureCode: procedure } : {}),
    ...(modifiers.length > 0 ? { procedureModifiers: modifiers } : {}),
    ...(end ? { productOrServiceID: end } : {}),
  };
}

export function x12ToV3(x12: string, withX12 = true): V3Answer {
  const out: V3Answer = { payer: {}, provider: {}, subscriber: {}, benefitsInformation: [], errors: [] };
  const tokens = tokenize(x12);
  if (!tokens.ok) return { ...out, errors: [{ code: '33', description: 'Input Errors' }] };
  let level = '';
  let who: Obj = out.payer;
  let benefit: Obj | null = null;
  let related: Obj | null = null;
  let inRelated = false;
  for (const seg of tokens.value.segments) {
    switch (seg.id) {
      case 'HL':
        level = el(seg, 3);
        benefit = null;
        if (level === '20') who = out.payer;
        else if (level === '21') who = out.provider;
        else if (level === '22') who = out.subscriber;
        else if (level === '23') {
          who = {};
          out.dependents = [...(out.dependents ?? []), who];
          // Benefits of a dependent inquiry are the dependent's.
          out.benefitsInformation = [];
        }
        break;
      case 'NM1':
        if (inRelated && benefit) {
          related = {
            entityIdentifier: el(seg, 1),
            entityType: el(seg, 2),
            entityName: el(seg, 3),
            entityFirstname: el(seg, 4),
            entityIdentification: el(seg, 8),
            entityIdentificationValue: el(seg, 9),
          };
          push(benefit, 'benefitsRelatedEntities', related);
        } else if (level === '20') Object.assign(who, { name: el(seg, 3), payorIdentification: el(seg, 9) });
        else if (level === '21') Object.assign(who, nameOf(seg), { npi: el(seg, 9) });
        else Object.assign(who, nameOf(seg), el(seg, 9) ? { memberId: el(seg, 9) } : {});
        break;
      case 'N3':
        if (!inRelated) who.address = { ...obj(who.address), address1: el(seg, 1), ...(el(seg, 2) ? { address2: el(seg, 2) } : {}) };
        break;
      case 'N4':
        if (!inRelated) who.address = { ...obj(who.address), city: el(seg, 1), state: el(seg, 2), postalCode: el(seg, 3) };
        break;
      case 'DMG':
        Object.assign(who, { dateOfBirth: el(seg, 2), gender: el(seg, 3) });
        break;
      case 'REF':
        if (el(seg, 1) === '6P' || el(seg, 1) === 'IG') {
          out.planInformation = {
            ...out.planInformation,
            [el(seg, 1) === '6P' ? 'groupNumber' : 'policyNumber']: el(seg, 2),
            ...(el(seg, 3) ? { groupDescription: el(seg, 3) } : {}),
          };
        }
        break;
      case 'DTP': {
        const name = DATE_NAME_OF_QUALIFIER[el(seg, 1)];
        if (!name) break;
        if (benefit) benefit.benefitsDateInformation = { ...obj(benefit.benefitsDateInformation), [name]: el(seg, 3) };
        else who.planDateInformation = { ...obj(who.planDateInformation), [name]: el(seg, 3) };
        break;
      }
      case 'AAA':
        push(benefit ?? who, 'aaaErrors', aaaOf(seg));
        out.errors.push(aaaOf(seg));
        break;
      case 'EB': {
        inRelated = false;
        const fields: Obj = {
          code: el(seg, 1),
          coverageLevelCode: el(seg, 2),
          serviceTypeCodes: repetitions(el(seg, 3), tokens.value.delimiters),
          insuranceTypeCode: el(seg, 4),
          planCoverage: el(seg, 5),
          timeQualifierCode: el(seg, 6),
          benefitAmount: el(seg, 7),
          benefitPercent: el(seg, 8),
          quantityQualifierCode: el(seg, 9),
          benefitQuantity: el(seg, 10),
          authOrCertIndicator: el(seg, 11),
          inPlanNetworkIndicatorCode: el(seg, 12),
          compositeMedicalProcedureIdentifier: procedureIdentifierOf(el(seg, 13), tokens.value.delimiters, 'productOrServiceIdQualifierCode'),
        };
        benefit = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined && !(Array.isArray(v) && v.length === 0)));
        out.benefitsInformation.push(benefit);
        break;
      }
      case 'MSG':
        if (benefit) push(benefit, 'additionalInformation', { description: el(seg, 1) });
        break;
      case 'III':
        if (benefit) push(benefit, 'eligibilityAdditionalInformationList', { codeListQualifierCode: el(seg, 1), industryCode: el(seg, 2) });
        break;
      case 'LS':
        inRelated = benefit !== null;
        break;
      case 'LE':
        inRelated = false;
        related = null;
        break;
      case 'PER':
        if (related) related.contactInformation = { contacts: [{ communicationMode: el(seg, 3), communicationNumber: el(seg, 4) }] };
        break;
      default:
        break;
    }
  }
  return withX12 ? { ...out, x12 } : out;
}
