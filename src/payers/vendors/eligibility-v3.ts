/**
 * The "Medical Network Eligibility v3" JSON model (Change Healthcare's, now Optum's; Stedi accepts it
 * too). It transliterates the X12 loops, so it maps both ways onto X12 and our one 271 reader serves:
 * - requestFromInquiry: our 270 (as an Inquiry) -> the JSON request;
 * - v3ToX12: a JSON answer -> a 271 of our inquiry, every field of meaning kept: payer (name, ID,
 *   contact), provider, subscriber and every dependent (each its own 2000D; names, address, DOB, relationship, references,
 *   their own and the top-level `planDateInformation`), `planInformation` (REF), benefitsInformation
 *   (EB01-EB13, HSD, REF, DTP, AAA, MSG, III, and the 2120 entities whether one
 *   `benefitsRelatedEntity` or a `benefitsRelatedEntities` list), and errors (AAA, in the loop
 *   their `location` names, follow-up prose mapped to AAA04). Names spelled out where X12 has codes
 *   are mapped back by eligibility-v3-codes.ts.
 *   The answer's own `x12` is not used: it is the vendor's 271 to the vendor's 270, whose trace
 *   numbers are not ours.
 * - v3PayerErrors / refusedFields: what an error body says, in our words.
 */
import type { Inquiry } from '../../domain/inquiry.ts';
import { cleanText } from '../../x12/sanitize.ts';
import type { PayerErrorEntry } from '../../domain/schemas/responses.ts';
import { payerError } from '../../x12/payer-errors.ts';
import { isoToD8 } from '../../x12/values.ts';
import { SegmentList } from '../../x12/writer.ts';
import { codeOf, MEMBER_REFERENCE_DESCRIPTIONS, MEMBER_REFERENCES, RELATIONSHIPS } from './eligibility-v3-codes.ts';
import { aaa, aaaCodeOf, address, benefits, contacts, dates, followupCodeOf, identifierOf, locationLetter, name, refs } from './eligibility-v3-segments.ts';
import { interchange271 } from './json-271.ts';
import { arr, obj, str, type Obj } from './json-read.ts';

export { aaa, benefits, name } from './eligibility-v3-segments.ts';

type Json = Obj;

export function requestFromInquiry(inquiry: Inquiry, payerId: string, controlNumber: string): Json {
  const p = inquiry.provider;
  const person = (x: Inquiry['subscriber']) => ({
    ...(x.member_id ? { memberId: x.member_id } : {}),
    ...(x.first_name ? { firstName: x.first_name } : {}),
    ...(x.last_name ? { lastName: x.last_name } : {}),
    ...(x.dob ? { dateOfBirth: isoToD8(x.dob) } : {}),
  });
  return {
    controlNumber,
    tradingPartnerServiceId: payerId,
    provider: {
      ...(p.npi ? { npi: p.npi } : {}),
      ...(p.first_name || p.last_name ? { firstName: p.first_name ?? '', lastName: p.last_name ?? '' } : { organizationName: p.organization_name ?? '' }),
      // The 270's PRV*PE*PXC*taxonomy, as the JSON model spells it.
      ...(p.taxonomy ? { providerCode: 'PE', referenceIdentification: p.taxonomy } : {}),
    },
    subscriber: person(inquiry.subscriber),
    ...(inquiry.dependent ? { dependents: [person(inquiry.dependent)] } : {}),
    encounter: {
      serviceTypeCodes: inquiry.service_types.length > 0 ? inquiry.service_types : ['30'],
      dateOfService: isoToD8(inquiry.date),
      // The 270's EQ02 (HC: HCPCS, whose level I is CPT) and 2110 III*ZZ place of service, as the model names them.
      ...(inquiry.procedure_code ? { procedureCode: inquiry.procedure_code, productOrServiceIDQualifier: 'HC' } : {}),
      ...(inquiry.place_of_service ? { industryCode: inquiry.place_of_service } : {}),
    },
  };
}

const PAYER_IDS = [
  ['payorIdentification', 'PI'],
  ['payerIdentification', 'PI'],
  ['centersForMedicareAndMedicaidPlanId', 'XV'],
  ['naic', 'NI'],
  ['npi', 'XX'],
  ['federalTaxpayersIdNumber', 'FI'],
  ['employersId', '24'],
] as const;
const PROVIDER_IDS = [
  ['npi', 'XX'],
  ['serviceProviderNumber', 'SV'],
  ['payorIdentification', 'PI'],
  ['federalTaxpayersIdNumber', 'FI'],
  ['servicesPlanID', 'XV'],
  ['pharmacyProcessorNumber', 'PP'],
  ['employersId', '24'],
] as const;

interface MemberParts {
  /** Errors placed in this member's loop (its own aaaErrors come from `who`). */
  errors: Obj[];
  /** The patient's loop also carries the answer's planInformation and top-level planDateInformation. */
  plan: Obj | null;
  planDates: unknown;
  dependent: boolean;
}

/** 2100C/D: NM1, REF, N3/N4, AAA, DMG, INS, DTP, in the TR3's order. */
export function member(
  list: SegmentList,
  who: Json,
  entity: 'IL' | '03',
  parts: MemberParts = { errors: [], plan: null, planDates: undefined, dependent: false },
): void {
  const d = list.d;
  name(list, entity, who, 'MI', str(who.memberId));
  const written = new Set<string>();
  refs(list, who, MEMBER_REFERENCES, written);
  if (parts.plan) refs(list, parts.plan, MEMBER_REFERENCES, written, MEMBER_REFERENCE_DESCRIPTIONS);
  address(list, who.address);
  aaa(list, who.aaaErrors);
  aaa(list, parts.errors);
  const dob = str(who.dateOfBirth).replace(/-/g, '');
  const gender = /^[MFU]$/i.test(str(who.gender)) ? str(who.gender).toUpperCase() : '';
  if (/^\d{8}$/.test(dob)) list.add('DMG', 'D8', dob, gender);
  // INS02 left out when unreadable: the 271 reader puts a relationship no table reads in no class of
  // persons, as it does a missing one (benefits/persons.ts), so dropping it prices nothing differently.
  const relationship = codeOf(RELATIONSHIPS, str(who.relationToSubscriberCode) || str(who.relationToSubscriber));
  if (relationship) list.add('INS', parts.dependent ? 'N' : 'Y', cleanText(relationship, d, 2));
  dates(list, who.planDateInformation);
  dates(list, parts.planDates);
}

/** Every error of the answer that is a payer's AAA, wherever it sits. */
function allAaa(b: Json): Obj[] {
  const loops = [obj(b.payer), obj(b.provider), obj(b.subscriber), ...arr(b.dependents)];
  const benefitErrors = arr(b.benefitsInformation).flatMap((x) => arr(x.aaaErrors));
  return [...arr(b.errors), ...loops.flatMap((l) => arr(l.aaaErrors)), ...benefitErrors].filter((e) => aaaCodeOf(e) !== '');
}

/** A v3 JSON answer written as the 271 to our inquiry; null when it holds neither payer data nor a payer's AAA. */
export function v3ToX12(body: unknown, inquiry: Inquiry): string | null {
  const b = obj(body);
  const payer = obj(b.payer);
  const subscriber = obj(b.subscriber);
  const dependents = arr(b.dependents);
  const dependent = dependents[0];
  if (Object.keys(payer).length === 0 && Object.keys(subscriber).length === 0 && !dependent && allAaa(b).length === 0) return null;
  const list = new SegmentList();
  const d = list.d;
  const trace = cleanText(inquiry.trace_number, d, 50) || '1';
  const provider = obj(b.provider);
  // Top-level errors repeat the loops' own (benefits' included) unless no loop has any: then each goes to the loop its location names.
  const inLoops = [payer, provider, subscriber, ...dependents, ...arr(b.benefitsInformation)].some((l) => arr(l.aaaErrors).length > 0);
  // One that names a benefit loop (2110C...) speaks of that benefit only, not of the member.
  const top = inLoops ? [] : arr(b.errors).filter((e) => aaaCodeOf(e) !== '' && !/\b21[12][05][A-D]\b/.test(str(e.location)));
  const at = (letter: string) =>
    top.filter((e) => (locationLetter(e) ?? (dependent ? 'D' : 'C')) === letter || (letter === 'C' && !dependent && locationLetter(e) === 'D'));
  list.add('BHT', '0022', '11', trace, isoToD8(inquiry.date), '1200');
  list.add('HL', '1', '', '20', '1');
  const [payerQ, payerId] = identifierOf(payer, PAYER_IDS);
  name(list, 'PR', payer, payerQ, payerId);
  contacts(list, payer.contactInformation);
  aaa(list, payer.aaaErrors);
  aaa(list, at('A'));
  list.add('HL', '2', '1', '21', '1');
  const [providerQ, providerId] = identifierOf(provider, PROVIDER_IDS);
  name(list, '1P', provider, providerQ, providerId);
  aaa(list, provider.aaaErrors);
  aaa(list, at('B'));
  if (/^[0-9A-Z]{1,3}$/.test(str(provider.providerCode)) && str(provider.referenceIdentification))
    list.add('PRV', str(provider.providerCode), 'PXC', cleanText(str(provider.referenceIdentification), d, 50));
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  const patient = { errors: [], plan: obj(b.planInformation), planDates: b.planDateInformation, dependent: false };
  if (!dependent) {
    list.add('TRN', '2', trace, '9COVERAGE');
    member(list, subscriber, 'IL', { ...patient, errors: at('C') });
    benefits(list, b.benefitsInformation);
  } else {
    member(list, subscriber, 'IL', { errors: at('C'), plan: null, planDates: undefined, dependent: false });
    // Every dependent is a 2000D of its own, so the 271 reader chooses the patient by member ID, name and
    // date of birth (src/x12/patient.ts), never the first by position. v3 gives one list of benefits for
    // the answer, not per person: each dependent's loop carries it, with the plan's information and dates.
    dependents.forEach((who, i) => {
      list.add('HL', String(4 + i), '3', '23', '0');
      list.add('TRN', '2', trace, '9COVERAGE');
      member(list, who, '03', { ...patient, errors: at('D'), dependent: true });
      benefits(list, b.benefitsInformation);
    });
  }
  return interchange271(list);
}

/** The AAA rejections of a JSON body in our words (codes and follow-ups from our tables, the loop from `location`). */
export function v3PayerErrors(body: unknown): PayerErrorEntry[] {
  const seen = new Set<string>();
  return allAaa(obj(body))
    .map((e) => {
      const letter = locationLetter(e);
      return payerError(aaaCodeOf(e), followupCodeOf(e) || null, letter ? `2100${letter}` : null);
    })
    .filter((p) => {
      // errors[] repeats the loops' own.
      const key = JSON.stringify(p);
      return seen.has(key) ? false : (seen.add(key), true);
    });
}

/** Request fields of the v3 model by OUR API's names (what a caller can supply). */
const OUR_FIELDS: readonly [RegExp, string][] = [
  [/^(subscriber|dependents(\[\d*\])?)\.memberId$/, 'member_id'],
  [/^(subscriber|dependents(\[\d*\])?)\.firstName$/, 'member_first_name'],
  [/^(subscriber|dependents(\[\d*\])?)\.lastName$/, 'member_last_name'],
  [/^(subscriber|dependents(\[\d*\])?)\.dateOfBirth$/, 'member_dob'],
  [/^provider\.npi$/, 'provider_npi'],
  [/^provider\.firstName$/, 'provider_first_name'],
  [/^provider\.lastName$/, 'provider_last_name'],
  [/^tradingPartnerServiceId$/, 'payer_id'],
];

/**
 * What the vendor said our request lacks, by our API's field names: the `field` of each error that
 * is not a payer's AAA (validation), as far as a caller can supply it. Never the vendor's prose.
 */
export function refusedFields(body: unknown): string[] {
  const out = new Set<string>();
  for (const e of arr(obj(body).errors)) {
    if (aaaCodeOf(e) !== '') continue;
    const field = str(e.field).replace(/^\$\./, '').trim();
    const ours = OUR_FIELDS.find(([re]) => re.test(field))?.[1];
    if (ours) out.add(ours);
  }
  return [...out];
}

/** Whether a body carries errors that are not a payer's AAA (the vendor validating our request). */
export const hasValidationErrors = (body: unknown): boolean => arr(obj(body).errors).some((e) => aaaCodeOf(e) === '');
