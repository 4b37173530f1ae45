/**
 * The "Medical Network Eligibility v3" JSON model (Change Healthcare's, now Optum's; Stedi accepts it
 * too). It transliterates the X12 loops, so it maps both ways onto X12 and our one 271 reader serves:
 * - requestFromInquiry: our 270 (as an Inquiry) -> the JSON request;
 * - v3ToX12: a JSON answer -> a 271 of our inquiry: payer, subscriber/dependent, group, plan dates,
 *   benefitsInformation (EB01-EB12, MSG, DTP, III, 2120 entities) and aaaErrors/errors (AAA).
 *   The answer's own `x12` is not used: it is the vendor's 271 to the vendor's 270, whose trace
 *   numbers are not ours.
 */
import type { Inquiry } from '../../domain/inquiry.ts';
import { cleanText } from '../../x12/sanitize.ts';
import { isoToD8 } from '../../x12/values.ts';
import { SegmentList, wrapInterchange } from '../../x12/writer.ts';
import { arr, obj, str, type Obj } from './json-read.ts';

type Json = Obj;

/** DTP qualifiers by the names the JSON model uses for them. */
export const DATE_NAMES: Readonly<Record<string, string>> = {
  plan: '291',
  eligibility: '307',
  planBegin: '346',
  planEnd: '347',
  benefitBegin: '348',
  benefitEnd: '349',
  eligibilityBegin: '356',
  eligibilityEnd: '357',
  service: '472',
  added: '096',
};

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

export function aaa(list: SegmentList, errors: unknown): void {
  for (const e of arr(errors)) {
    const code = cleanText(str(e.code), list.d, 3);
    if (code) list.add('AAA', 'N', '', code, cleanText(str(e.followupActionCode ?? e.followupAction), list.d, 1));
  }
}

function dates(list: SegmentList, info: unknown): void {
  for (const [name, value] of Object.entries(obj(info))) {
    const q = DATE_NAMES[name];
    const v = str(value).replace(/[^0-9-]/g, '');
    if (q && /^\d{8}$/.test(v)) list.add('DTP', q, 'D8', v);
    else if (q && /^\d{8}-\d{8}$/.test(v)) list.add('DTP', q, 'RD8', v);
  }
}

export function name(list: SegmentList, entity: string, who: Json, idQualifier: string, id: string): void {
  const d = list.d;
  const last = cleanText(str(who.lastName), d, 60);
  const org = cleanText(str(who.organizationName ?? who.name ?? who.entityName), d, 60);
  const first = cleanText(str(who.firstName), d, 35);
  list.add('NM1', entity, last ? '1' : '2', last || org, first, '', '', '', id ? idQualifier : '', cleanText(id, d, 80));
}

export function member(list: SegmentList, who: Json, entity: 'IL' | '03'): void {
  const d = list.d;
  name(list, entity, who, 'MI', str(who.memberId));
  const addr = obj(who.address);
  if (str(addr.address1)) list.add('N3', cleanText(str(addr.address1), d, 55), cleanText(str(addr.address2), d, 55));
  if (str(addr.city) || str(addr.postalCode))
    list.add('N4', cleanText(str(addr.city), d, 30), cleanText(str(addr.state), d, 2), cleanText(str(addr.postalCode), d, 15));
  const dob = str(who.dateOfBirth).replace(/-/g, '');
  if (/^\d{8}$/.test(dob)) list.add('DMG', 'D8', dob, cleanText(str(who.gender), d, 1));
  aaa(list, who.aaaErrors);
  dates(list, who.planDateInformation);
}

export function benefits(list: SegmentList, items: unknown): void {
  const d = list.d;
  for (const b of arr(items)) {
    const types = (Array.isArray(b.serviceTypeCodes) ? b.serviceTypeCodes : []).map((c) => cleanText(str(c), d, 2)).filter(Boolean);
    list.add(
      'EB',
      cleanText(str(b.code), d, 2),
      cleanText(str(b.coverageLevelCode), d, 3),
      list.repeat(types),
      cleanText(str(b.insuranceTypeCode), d, 3),
      cleanText(str(b.planCoverage), d, 50),
      cleanText(str(b.timeQualifierCode), d, 2),
      cleanText(str(b.benefitAmount), d, 18),
      cleanText(str(b.benefitPercent), d, 10),
      cleanText(str(b.quantityQualifierCode), d, 2),
      cleanText(str(b.benefitQuantity), d, 15),
      cleanText(str(b.authOrCertIndicator), d, 1),
      cleanText(str(b.inPlanNetworkIndicatorCode), d, 1),
    );
    dates(list, b.benefitsDateInformation);
    aaa(list, b.aaaErrors);
    for (const m of arr(b.additionalInformation)) list.add('MSG', cleanText(str(m.description), d, 264));
    for (const i of arr(b.eligibilityAdditionalInformationList))
      list.add('III', cleanText(str(i.codeListQualifierCode), d, 3), cleanText(str(i.industryCode), d, 30));
    const related = arr(b.benefitsRelatedEntities);
    if (related.length > 0) {
      list.add('LS', '2120');
      for (const r of related) {
        const code = cleanText(str(r.entityIdentifier), d, 3);
        list.add(
          'NM1',
          code,
          str(r.entityType) === '1' ? '1' : '2',
          cleanText(str(r.entityName ?? r.lastName), d, 60),
          cleanText(str(r.entityFirstname ?? r.firstName), d, 35),
          '',
          '',
          '',
          str(r.entityIdentificationValue) ? cleanText(str(r.entityIdentification) || 'PI', d, 2) : '',
          cleanText(str(r.entityIdentificationValue), d, 80),
        );
        const phone = arr(obj(r.contactInformation).contacts).find((c) => str(c.communicationMode) === 'TE' || /phone/i.test(str(c.communicationMode)));
        if (phone) list.add('PER', 'IC', '', 'TE', cleanText(str(phone.communicationNumber), d, 80));
      }
      list.add('LE', '2120');
    }
  }
}

/** A v3 JSON answer written as the 271 to our inquiry; null when it holds neither payer data nor errors. */
export function v3ToX12(body: unknown, inquiry: Inquiry): string | null {
  const b = obj(body);
  const payer = obj(b.payer);
  const subscriber = obj(b.subscriber);
  if (Object.keys(payer).length === 0 && Object.keys(subscriber).length === 0 && arr(b.errors).length === 0) return null;
  const list = new SegmentList();
  const d = list.d;
  const trace = cleanText(inquiry.trace_number, d, 50) || '1';
  list.add('BHT', '0022', '11', trace, isoToD8(inquiry.date), '1200');
  list.add('HL', '1', '', '20', '1');
  name(list, 'PR', payer, 'PI', str(payer.payorIdentification ?? payer.payerIdentification));
  aaa(list, payer.aaaErrors);
  list.add('HL', '2', '1', '21', '1');
  const provider = obj(b.provider);
  name(list, '1P', provider, 'XX', str(provider.npi));
  aaa(list, provider.aaaErrors);
  const dependent = arr(b.dependents)[0];
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) list.add('TRN', '2', trace, '9COVERAGE');
  member(list, subscriber, 'IL');
  const plan = obj(b.planInformation);
  if (str(plan.groupNumber)) list.add('REF', '6P', cleanText(str(plan.groupNumber), d, 50), cleanText(str(plan.groupDescription), d, 80));
  // Errors with no loop of their own (a rejection bubbled to the top) sit on the member level.
  const atMember = (who: Json) =>
    arr(who.aaaErrors).length === 0 && arr(payer.aaaErrors).length === 0 && arr(provider.aaaErrors).length === 0 ? aaa(list, b.errors) : undefined;
  if (!dependent) {
    atMember(subscriber);
    benefits(list, b.benefitsInformation);
  } else {
    list.add('HL', '4', '3', '23', '0');
    list.add('TRN', '2', trace, '9COVERAGE');
    member(list, dependent, '03');
    atMember(dependent);
    benefits(list, b.benefitsInformation);
  }
  return wrapInterchange({
    functional_id: 'HB',
    set_id: '271',
    version: '005010X279A1',
    body: list,
    sender: 'VENDOR',
    receiver: 'COVERAGE',
    env: { usage: 'P' },
  });
}
