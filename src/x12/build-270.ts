/**
 * Writes a 005010X279A1 270 from an Inquiry.
 *
 * 2000A  NM1*PR*2*payer name*****PI*payer id
 * 2000B  NM1*1P*1*last*first****XX*npi (a person when a first or last name is given), else
 *        NM1*1P*2*organization*****XX*npi; then PRV*PE*PXC*taxonomy when the provider has a NUCC
 *        taxonomy code (2100B PRV: PE performing, PXC the taxonomy code list)
 * 2000C  NM1*IL*1*last*first***suffix*MI*member id (a last name's JR, SR, II, III or IV in NM107), N4***zip (name + DOB searches), DMG*D8*dob
 * 2000D  for dependent inquiries: NM1*03*1*last*first, N4***zip, DMG*D8*dob. The dependent's own
 *        member ID has no place in a 5010 270 (2100D NM108/NM109 are not used) and is not sent.
 * The inquired person's level (D when there is a dependent, else C) carries TRN*1*trace,
 * DTP*291*D8*date and the 2110 inquiry loops, each one EQ (the loop repeats, one question per
 * loop): EQ with the service types joined by the repetition separator (30 when none), then, for a
 * procedure, EQ**HC:code, EQ01 left out (the TR3 sends EQ01 only when EQ02 is not used; HC is
 * HCPCS, whose level I is CPT). A place of service goes in each loop as III*ZZ*code (2110 III,
 * "Eligibility or Benefit Additional Inquiry Information": ZZ, the CMS place-of-service codes).
 * Every value passes through cleanText, so no delimiter from a name or ID can break the document.
 */
import type { Inquiry, InquiryPerson } from '../domain/inquiry.ts';
import { splitSuffix } from '../domain/names.ts';
import { cleanText, digitsOnly } from './sanitize.ts';
import { dateTimeStamp, SegmentList, wrapInterchange, type EnvelopeOptions } from './writer.ts';
import { isoToD8 } from './values.ts';
import { NUCC_TAXONOMY } from '../domain/formats.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export const X279_VERSION = '005010X279A1';

export function traceOriginator(id: string, list: SegmentList): string {
  return `9${cleanText(id, list.d, 9) || 'COVERAGE'}`.slice(0, 10);
}

function person(list: SegmentList, entity: 'IL' | '03', p: InquiryPerson, withId: boolean): void {
  const d = list.d;
  const id = withId ? cleanText(p.member_id, d, 80) : '';
  const { last, suffix } = splitSuffix(cleanText(p.last_name, d, 60));
  list.add('NM1', entity, '1', last, cleanText(p.first_name, d, 35), '', '', suffix, id ? 'MI' : '', id);
  const zip = cleanText(p.zip, d, 15);
  if (zip) list.add('N4', '', '', zip);
  if (p.dob) list.add('DMG', 'D8', isoToD8(p.dob));
}

/** The inquired person's 2110 loops: the service date, then one EQ of the service types and one of the procedure. */
function request(list: SegmentList, inquiry: Inquiry): void {
  const d = list.d;
  list.add('DTP', '291', 'D8', isoToD8(inquiry.date));
  let codes = '';
  for (const s of inquiry.service_types) {
    const code = cleanText(s, d, 2);
    if (code !== '') codes = codes === '' ? code : `${codes}${d.repetition ?? '^'}${code}`;
  }
  const place = cleanText(inquiry.place_of_service, d, 2);
  const procedure = cleanText(inquiry.procedure_code, d, 48);
  list.add('EQ', codes === '' ? '30' : codes);
  if (place) list.add('III', 'ZZ', place);
  if (procedure) {
    list.add('EQ', '', `HC${d.component}${procedure}`);
    if (place) list.add('III', 'ZZ', place);
  }
}

export function build270(inquiry: Inquiry, env?: EnvelopeOptions): string {
  const list = new SegmentList();
  const d = list.d;
  const { date8, time4 } = dateTimeStamp(env?.now ?? dateOf(systemClock));
  const sender = env?.sender_id ?? 'COVERAGE';
  const trace = cleanText(inquiry.trace_number, d, 50) || '1';
  const dependent = inquiry.dependent;
  list.add('BHT', '0022', '13', trace, date8, time4);
  list.add('HL', '1', '', '20', '1');
  const payerId = cleanText(inquiry.payer.id, d, 80);
  list.add('NM1', 'PR', '2', cleanText(inquiry.payer.name, d, 60), '', '', '', '', payerId ? 'PI' : '', payerId);
  list.add('HL', '2', '1', '21', '1');
  const prov = inquiry.provider;
  const npi = digitsOnly(prov.npi, 80);
  const last = cleanText(prov.last_name, d, 60);
  const first = cleanText(prov.first_name, d, 35);
  if (first || last) {
    list.add('NM1', '1P', '1', last, first, '', '', '', npi ? 'XX' : '', npi);
  } else {
    list.add('NM1', '1P', '2', cleanText(prov.organization_name, d, 60), '', '', '', '', npi ? 'XX' : '', npi);
  }
  const taxonomy = prov.taxonomy?.toUpperCase() ?? '';
  if (NUCC_TAXONOMY.test(taxonomy)) list.add('PRV', 'PE', 'PXC', taxonomy);
  list.add('HL', '3', '2', '22', dependent ? '1' : '0');
  if (!dependent) list.add('TRN', '1', trace, traceOriginator(sender, list));
  person(list, 'IL', inquiry.subscriber, true);
  if (dependent) {
    list.add('HL', '4', '3', '23', '0');
    list.add('TRN', '1', trace, traceOriginator(sender, list));
    person(list, '03', dependent, false);
  }
  request(list, inquiry);
  return wrapInterchange({
    functional_id: 'HS',
    set_id: '270',
    version: X279_VERSION,
    body: list,
    sender,
    receiver: inquiry.payer.id,
    env,
  });
}
