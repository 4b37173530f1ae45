/**
 * The simulators' side of the v3 JSON model: a 271 read into the vendor's JSON (payer, provider,
 * subscriber/dependents, planInformation, planDateInformation, benefitsInformation, errors), the
 * reverse of src/payers/vendors/eligibility-v3.ts. The raw 271 rides along in `x12` unless left out.
 */
import { el, repetitions, tokenize, type Segment } from '../../../x12/index.ts';
import { DATE_NAMES } from '../../vendors/eligibility-v3.ts';

type Json = Record<string, any>;
const NAME_OF_DATE: Record<string, string> = Object.fromEntries(Object.entries(DATE_NAMES).map(([k, v]) => [v, k]));

function nameOf(seg: Segment): Json {
  const person = el(seg, 2) === '1';
  return {
    ...(person ? { lastName: el(seg, 3), firstName: el(seg, 4) } : { organizationName: el(seg, 3) }),
  };
}

function aaaOf(seg: Segment): Json {
  return { code: el(seg, 3), followupActionCode: el(seg, 4), field: 'AAA' };
}

export function x12ToV3(x12: string, withX12 = true): Json {
  const tokens = tokenize(x12);
  if (!tokens.ok) return { errors: [{ code: '33', description: 'Input Errors' }] };
  const out: Json = { payer: {}, provider: {}, subscriber: {}, benefitsInformation: [], errors: [] };
  let level = '';
  let who: Json = out.payer;
  let benefit: Json | null = null;
  let related: Json | null = null;
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
          (out.dependents ??= []).push(who);
          // Benefits of a dependent inquiry are the dependent's.
          out.benefitsInformation = [];
        }
        break;
      case 'NM1':
        if (inRelated) {
          related = { entityIdentifier: el(seg, 1), entityType: el(seg, 2), entityName: el(seg, 3), entityFirstname: el(seg, 4), entityIdentification: el(seg, 8), entityIdentificationValue: el(seg, 9) };
          (benefit!.benefitsRelatedEntities ??= []).push(related);
        } else if (level === '20') Object.assign(who, { name: el(seg, 3), payorIdentification: el(seg, 9) });
        else if (level === '21') Object.assign(who, nameOf(seg), { npi: el(seg, 9) });
        else Object.assign(who, nameOf(seg), el(seg, 9) ? { memberId: el(seg, 9) } : {});
        break;
      case 'N3':
        if (!inRelated) who.address = { ...who.address, address1: el(seg, 1), ...(el(seg, 2) ? { address2: el(seg, 2) } : {}) };
        break;
      case 'N4':
        if (!inRelated) who.address = { ...who.address, city: el(seg, 1), state: el(seg, 2), postalCode: el(seg, 3) };
        break;
      case 'DMG':
        Object.assign(who, { dateOfBirth: el(seg, 2), gender: el(seg, 3) });
        break;
      case 'REF':
        if (el(seg, 1) === '6P' || el(seg, 1) === 'IG') out.planInformation = { ...out.planInformation, [el(seg, 1) === '6P' ? 'groupNumber' : 'policyNumber']: el(seg, 2), ...(el(seg, 3) ? { groupDescription: el(seg, 3) } : {}) };
        break;
      case 'DTP': {
        const name = NAME_OF_DATE[el(seg, 1)];
        if (!name) break;
        if (benefit) benefit.benefitsDateInformation = { ...benefit.benefitsDateInformation, [name]: el(seg, 3) };
        else who.planDateInformation = { ...who.planDateInformation, [name]: el(seg, 3) };
        break;
      }
      case 'AAA':
        if (benefit) (benefit.aaaErrors ??= []).push(aaaOf(seg));
        else (who.aaaErrors ??= []).push(aaaOf(seg));
        out.errors.push(aaaOf(seg));
        break;
      case 'EB':
        inRelated = false;
        benefit = {
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
        };
        for (const k of Object.keys(benefit)) if (benefit[k] === '' || (Array.isArray(benefit[k]) && benefit[k].length === 0)) delete benefit[k];
        out.benefitsInformation.push(benefit);
        break;
      case 'MSG':
        if (benefit) (benefit.additionalInformation ??= []).push({ description: el(seg, 1) });
        break;
      case 'III':
        if (benefit) (benefit.eligibilityAdditionalInformationList ??= []).push({ codeListQualifierCode: el(seg, 1), industryCode: el(seg, 2) });
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
  return { ...out, ...(withX12 ? { x12 } : {}) };
}
