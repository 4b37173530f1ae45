/**
 * The 835 (005010X221A1) reader: every 835 transaction set of an interchange as a Remittance, on the
 * same tokenizer and envelope reader as the 271. It never throws (result.ts guarded); a segment it
 * cannot read (an amount that is not one, a service line before any claim) fails the file with that
 * segment's ID and position, and balancing defects are warnings, as payers send them
 * (docs/remittances.md 'Reading').
 */
import { allTransactions, readInterchange, type Transaction } from '../envelope.ts';
import { fail, guarded, ok, type ParseResult } from '../result.ts';
import { components, el, type Segment } from '../tokenizer.ts';
import { d8ToIso, dollarsToCents, readNumber } from '../values.ts';
import type { Delimiters } from '../delimiters.ts';
import { claimStatusOf, isAdjustmentGroup } from './codes.ts';
import { balanceWarnings } from './balance.ts';
import type { Adjustment, Claim, Party, Person, Procedure, ProviderAdjustment, Remittance, ServiceLine } from './types.ts';

/** Thrown inside the reader only, turned into a failed result naming the segment. */
class Unreadable extends Error {
  constructor(
    message: string,
    readonly seg: Segment,
  ) {
    super(message);
  }
}

export function readRemittances(text: string): ParseResult<Remittance[]> {
  return guarded(() => {
    const ic = readInterchange(text);
    if (!ic.ok) return ic;
    const sets = allTransactions(ic.value).filter((tx) => tx.set_id === '835');
    if (sets.length === 0) {
      const first = allTransactions(ic.value)[0];
      return fail(`expected an 835 transaction set, found ${first ? first.set_id : 'none'}`, {
        index: first?.st.index ?? null,
        id: 'ST',
        offset: first?.st.offset ?? null,
      });
    }
    const warnings = [...ic.warnings];
    const out: Remittance[] = [];
    for (const tx of sets) {
      try {
        const notes: string[] = [];
        const r = readSet(tx, ic.value.delimiters, notes);
        out.push(r);
        warnings.push(...[...notes, ...balanceWarnings(r)].map((w) => `835 ${tx.control_number}: ${w}`));
      } catch (err) {
        if (err instanceof Unreadable)
          return fail(`${err.message} (segment ${err.seg.index}, ${err.seg.id})`, { index: err.seg.index, id: err.seg.id, offset: err.seg.offset });
        throw err;
      }
    }
    return ok(out, warnings);
  });
}

function cents(seg: Segment, n: number, what: string, required: boolean): number | null {
  const v = el(seg, n);
  if (v === '') {
    if (required) throw new Unreadable(`${seg.id}${String(n).padStart(2, '0')} ${what} is missing`, seg);
    return null;
  }
  const c = dollarsToCents(v);
  if (c === null) throw new Unreadable(`${seg.id}${String(n).padStart(2, '0')} ${what} "${v.slice(0, 20)}" is not an amount`, seg);
  return c;
}

const need = (seg: Segment, n: number, what: string) => cents(seg, n, what, true)!;
const text = (seg: Segment, n: number) => el(seg, n) || null;

function date(seg: Segment, n: number): string | null {
  const v = el(seg, n);
  if (v === '') return null;
  const d = d8ToIso(v);
  // The value is never quoted: a date of service is the patient's (docs/remittances.md 'Reading').
  if (d === null) throw new Unreadable(`${seg.id}${String(n).padStart(2, '0')} is not a date (CCYYMMDD)`, seg);
  return d;
}

function person(seg: Segment): Person {
  return { last_name: text(seg, 3), first_name: text(seg, 4), id_qualifier: text(seg, 8), id: text(seg, 9) };
}

function party(seg: Segment): Party {
  return { name: text(seg, 2), id_qualifier: text(seg, 3), id: text(seg, 4) };
}

function procedure(value: string, d: Delimiters): Procedure | null {
  if (value === '') return null;
  const [qualifier = '', code = '', ...rest] = components(value, d);
  return { qualifier, code, modifiers: rest.slice(0, 4).filter((m) => m !== '') };
}

/** CAS: the group, then up to six reason/amount/quantity triplets. */
function adjustments(seg: Segment): Adjustment[] {
  const group = el(seg, 1);
  if (!isAdjustmentGroup(group)) throw new Unreadable(`CAS01 "${group.slice(0, 4)}" is not an adjustment group (CO, OA, PI, PR)`, seg);
  const out: Adjustment[] = [];
  for (let n = 2; n <= 17; n += 3) {
    const reason = el(seg, n);
    if (reason === '') continue;
    const q = el(seg, n + 2);
    out.push({
      group,
      reason,
      amount_cents: need(seg, n + 1, `adjustment amount for reason ${reason.slice(0, 5)}`),
      quantity: q === '' ? null : readNumber(q),
    });
  }
  if (out.length === 0) throw new Unreadable('CAS has no reason code', seg);
  return out;
}

function provider(seg: Segment, d: Delimiters): ProviderAdjustment[] {
  const out: ProviderAdjustment[] = [];
  for (let n = 3; n <= 13; n += 2) {
    const id = el(seg, n);
    if (id === '') continue;
    const [reason = '', reference = ''] = components(id, d);
    out.push({
      provider_id: el(seg, 1),
      date: date(seg, 2),
      reason,
      reference: reference || null,
      amount_cents: need(seg, n + 1, `provider adjustment amount for ${reason.slice(0, 4)}`),
    });
  }
  return out;
}

function readSet(tx: Transaction, d: Delimiters, notes: string[]): Remittance {
  const r: Remittance = {
    control_number: tx.control_number,
    handling: '',
    total_paid_cents: 0,
    credit_debit: null,
    payment_method: null,
    payment_date: null,
    trace: null,
    production_date: null,
    payer: { name: null, id_qualifier: null, id: null, additional_id: null },
    payee: { name: null, id_qualifier: null, id: null },
    claims: [],
    provider_adjustments: [],
  };
  let header: string | null = null;
  let claim: Claim | null = null;
  let line: ServiceLine | null = null;
  let entity: 'payer' | 'payee' | null = null;
  let sawBpr = false;
  for (const seg of tx.body) {
    switch (seg.id) {
      case 'BPR':
        sawBpr = true;
        r.handling = el(seg, 1);
        r.total_paid_cents = need(seg, 2, 'total payment');
        r.credit_debit = text(seg, 3);
        r.payment_method = text(seg, 4);
        r.payment_date = date(seg, 16);
        break;
      case 'TRN':
        if (claim === null) r.trace = text(seg, 2);
        break;
      case 'N1':
        entity = el(seg, 1) === 'PR' ? 'payer' : el(seg, 1) === 'PE' ? 'payee' : null;
        if (entity === 'payer') r.payer = { ...party(seg), additional_id: null };
        else if (entity === 'payee') r.payee = party(seg);
        break;
      case 'REF':
        if (line !== null) {
          if (el(seg, 1) === '6R') line.line_control = text(seg, 2);
        } else if (claim === null && entity === 'payer' && el(seg, 1) === '2U') r.payer.additional_id = text(seg, 2);
        break;
      case 'LX':
        header = text(seg, 1);
        claim = null;
        line = null;
        break;
      case 'CLP': {
        line = null;
        const id = el(seg, 1);
        if (id === '') throw new Unreadable('CLP01 patient control number is missing', seg);
        claim = {
          claim_id: id,
          status_code: el(seg, 2),
          status: claimStatusOf(el(seg, 2)),
          charge_cents: need(seg, 3, 'total claim charge'),
          paid_cents: need(seg, 4, 'claim payment'),
          patient_responsibility_cents: cents(seg, 5, 'patient responsibility', false),
          filing_indicator: text(seg, 6),
          payer_claim_id: text(seg, 7),
          facility_code: text(seg, 8),
          frequency: text(seg, 9),
          patient: null,
          subscriber: null,
          corrected_insured: null,
          rendering_provider: null,
          statement_start: null,
          statement_end: null,
          adjustments: [],
          lines: [],
          header_number: header,
          segment_index: seg.index,
        };
        r.claims.push(claim);
        break;
      }
      case 'CAS':
        if (claim === null) throw new Unreadable('CAS before any claim (CLP)', seg);
        (line ?? claim).adjustments.push(...adjustments(seg));
        // codes/cas-group.json: CR is 4010's group, not 005010's; read as OA, and said.
        if (el(seg, 1) === 'CR') notes.push(`CAS01 CR (segment ${seg.index}) is a 4010 group, not 005010's: read as other (OA)`);
        break;
      case 'NM1':
        if (claim !== null && line === null) {
          const who = el(seg, 1);
          if (who === 'QC') claim.patient = person(seg);
          else if (who === 'IL') claim.subscriber = person(seg);
          else if (who === '74') claim.corrected_insured = person(seg);
          else if (who === '82') claim.rendering_provider = person(seg);
        }
        break;
      case 'DTM':
        readDate(seg, r, claim, line);
        break;
      case 'SVC': {
        if (claim === null) throw new Unreadable('SVC before any claim (CLP)', seg);
        const proc = procedure(el(seg, 1), d);
        if (proc === null || proc.code === '') throw new Unreadable('SVC01 procedure is missing', seg);
        const units = el(seg, 5);
        line = {
          procedure: proc,
          charge_cents: need(seg, 2, 'line charge'),
          paid_cents: need(seg, 3, 'line payment'),
          revenue_code: text(seg, 4),
          units: units === '' ? null : readNumber(units),
          original_procedure: procedure(el(seg, 6), d),
          date_of_service: null,
          service_end: null,
          allowed_cents: null,
          adjustments: [],
          remarks: [],
          line_control: null,
          segment_index: seg.index,
        };
        claim.lines.push(line);
        break;
      }
      case 'AMT':
        if (line !== null && el(seg, 1) === 'B6') line.allowed_cents = need(seg, 2, 'allowed amount');
        break;
      case 'LQ':
        if (line !== null && el(seg, 1) === 'HE' && el(seg, 2) !== '') line.remarks.push(el(seg, 2));
        break;
      case 'PLB':
        claim = null;
        line = null;
        r.provider_adjustments.push(...provider(seg, d));
        break;
    }
  }
  if (!sawBpr) throw new Unreadable('the 835 has no BPR (financial information)', tx.st);
  return r;
}

function readDate(seg: Segment, r: Remittance, claim: Claim | null, line: ServiceLine | null): void {
  const q = el(seg, 1);
  if (line !== null) {
    if (q === '472') line.date_of_service = line.service_end = date(seg, 2);
    else if (q === '150') line.date_of_service = date(seg, 2);
    else if (q === '151') line.service_end = date(seg, 2);
  } else if (claim !== null) {
    if (q === '232') claim.statement_start = date(seg, 2);
    else if (q === '233') claim.statement_end = date(seg, 2);
  } else if (q === '405') r.production_date = date(seg, 2);
}
