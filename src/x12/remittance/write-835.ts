/**
 * Writes a Remittance as an 835 (005010X221A1): what the payer simulator sends for the sessions it
 * was asked about, and the other half of the read-back property (test/x12/remittance-835.test.ts).
 * Values must be clean X12 text (sanitize.ts); adjustments of one group go in one CAS of up to six.
 */
import { DEFAULT_DELIMITERS, type Delimiters } from '../delimiters.ts';
import { SegmentList, wrapInterchange, type EnvelopeOptions } from '../writer.ts';
import { centsToDollars, isoToD8 } from '../values.ts';
import type { Adjustment, Claim, Person, Procedure, Remittance, ServiceLine } from './types.ts';

const money = (c: number | null) => (c === null ? null : centsToDollars(c));
const d8 = (iso: string | null) => (iso === null ? null : isoToD8(iso));

function procedure(p: Procedure | null, d: Delimiters): string | null {
  return p === null ? null : [p.qualifier, p.code, ...p.modifiers].join(d.component);
}

function person(body: SegmentList, who: string, p: Person | null, kind: '1' | '2' = '1'): void {
  if (p !== null) body.add('NM1', who, kind, p.last_name, p.first_name, null, null, null, p.id_qualifier, p.id);
}

function cas(body: SegmentList, adjustments: readonly Adjustment[]): void {
  let i = 0;
  while (i < adjustments.length) {
    const group = adjustments[i]!.group;
    const els: (string | null)[] = [group];
    for (let n = 0; n < 6 && i < adjustments.length && adjustments[i]!.group === group; n++, i++) {
      const a = adjustments[i]!;
      els.push(a.reason, money(a.amount_cents), a.quantity === null ? null : String(a.quantity));
    }
    body.addAll('CAS', els);
  }
}

function line(body: SegmentList, l: ServiceLine, d: Delimiters): void {
  body.add(
    'SVC',
    procedure(l.procedure, d),
    money(l.charge_cents),
    money(l.paid_cents),
    l.revenue_code,
    l.units === null ? null : String(l.units),
    procedure(l.original_procedure, d),
  );
  if (l.date_of_service !== null && l.service_end === l.date_of_service) body.add('DTM', '472', d8(l.date_of_service));
  else {
    if (l.date_of_service !== null) body.add('DTM', '150', d8(l.date_of_service));
    if (l.service_end !== null) body.add('DTM', '151', d8(l.service_end));
  }
  cas(body, l.adjustments);
  if (l.line_control !== null) body.add('REF', '6R', l.line_control);
  if (l.allowed_cents !== null) body.add('AMT', 'B6', money(l.allowed_cents));
  for (const r of l.remarks) body.add('LQ', 'HE', r);
}

function claim(body: SegmentList, c: Claim, d: Delimiters): void {
  body.add(
    'CLP',
    c.claim_id,
    c.status_code,
    money(c.charge_cents),
    money(c.paid_cents),
    money(c.patient_responsibility_cents),
    c.filing_indicator,
    c.payer_claim_id,
    c.facility_code,
    c.frequency,
  );
  cas(body, c.adjustments);
  person(body, 'QC', c.patient);
  person(body, 'IL', c.subscriber);
  person(body, '74', c.corrected_insured);
  person(body, '82', c.rendering_provider);
  if (c.statement_start !== null) body.add('DTM', '232', d8(c.statement_start));
  if (c.statement_end !== null) body.add('DTM', '233', d8(c.statement_end));
  for (const l of c.lines) line(body, l, d);
}

/** The transaction set body of one remittance (BPR to PLB). */
export function remittanceBody(r: Remittance, d: Delimiters = DEFAULT_DELIMITERS): SegmentList {
  const body = new SegmentList(d);
  const els: (string | null)[] = [r.handling, money(r.total_paid_cents), r.credit_debit, r.payment_method];
  while (els.length < 15) els.push(null);
  els.push(d8(r.payment_date));
  body.addAll('BPR', els);
  if (r.trace !== null) body.add('TRN', '1', r.trace);
  if (r.production_date !== null) body.add('DTM', '405', d8(r.production_date));
  body.add('N1', 'PR', r.payer.name, r.payer.id_qualifier, r.payer.id);
  if (r.payer.additional_id !== null) body.add('REF', '2U', r.payer.additional_id);
  body.add('N1', 'PE', r.payee.name, r.payee.id_qualifier, r.payee.id);
  let header: string | null = null;
  for (const c of r.claims) {
    if (c.header_number !== null && c.header_number !== header) body.add('LX', c.header_number);
    header = c.header_number;
    claim(body, c, d);
  }
  for (const p of r.provider_adjustments)
    body.add('PLB', p.provider_id, d8(p.date), p.reference === null ? p.reason : `${p.reason}${d.component}${p.reference}`, money(p.amount_cents));
  return body;
}

export function write835(r: Remittance, sender: string, receiver: string, env?: EnvelopeOptions, d: Delimiters = DEFAULT_DELIMITERS): string {
  return wrapInterchange({ functional_id: 'HP', set_id: '835', version: '005010X221A1', body: remittanceBody(r, d), sender, receiver, env });
}
