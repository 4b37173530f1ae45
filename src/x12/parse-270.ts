/** Reads a 270 into an Inquiry (the sandbox network and the payer simulator answer with it). */
import type { IsoDate } from '../domain/coverage.ts';
import type { Inquiry, InquiryPerson } from '../domain/inquiry.ts';
import { findTransaction, readInterchange, wrongTransaction } from './envelope.ts';
import { buildLoopTree, type HlLevel, type NameLoop } from './loops.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { components, el, repetitions, type Segment } from './tokenizer.ts';
import { d8ToIso, readDtpDate } from './values.ts';
import type { Delimiters } from './delimiters.ts';

const orNull = (s: string) => (s === '' ? null : s);

function inquiryPerson(name: NameLoop | undefined): InquiryPerson {
  if (!name) return { member_id: null, first_name: null, last_name: null, dob: null, zip: null };
  const nm1 = name.nm1;
  const dmg = name.dmg;
  return {
    member_id: el(nm1, 8) !== '' ? orNull(el(nm1, 9)) : null,
    first_name: orNull(el(nm1, 4)),
    // NM107 (JR, SR, II, ...) is part of the last name as the sender typed it (build-270.ts splits it off).
    last_name: orNull(el(nm1, 7) !== '' && el(nm1, 3) !== '' ? `${el(nm1, 3)} ${el(nm1, 7)}` : el(nm1, 3)),
    dob: dmg && el(dmg, 1) === 'D8' ? d8ToIso(el(dmg, 2)) : null,
    zip: name.n4 ? orNull(el(name.n4, 3)) : null,
  };
}

function firstOfKind(levels: readonly HlLevel[], kind: HlLevel['kind']): HlLevel | undefined {
  for (const l of levels) if (l.kind === kind) return l;
  return undefined;
}

function firstTrn1(trns: readonly Segment[]): Segment | undefined {
  for (const t of trns) if (el(t, 1) === '1') return t;
  return undefined;
}

function firstServiceDate(dtps: readonly Segment[]): IsoDate | null {
  for (const dtp of dtps) {
    if (el(dtp, 1) !== '291') continue;
    const range = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (range) return range.start;
  }
  return null;
}

/** The first readable DTP*291 of the level's name loops, then of its inquiry loops. */
function serviceDate(level: HlLevel): IsoDate | null {
  for (const n of level.names) {
    const date = firstServiceDate(n.dtp);
    if (date) return date;
  }
  for (const b of level.benefits) {
    const date = firstServiceDate(b.dtp);
    if (date) return date;
  }
  return null;
}

function serviceTypes(level: HlLevel, d: Delimiters): string[] {
  const out: string[] = [];
  for (const b of level.benefits) if (b.seg.id === 'EQ') for (const t of repetitions(el(b.seg, 1), d)) out.push(t);
  return out;
}

/** The procedure of the first EQ02 (C003: qualifier, code; HC, or CJ for CPT), and the first 2110 III*ZZ place of service, set on the inquiry when found. */
function addEncounterCodes(inquiry: Inquiry, level: HlLevel, d: Delimiters): void {
  let procedure: string | undefined;
  let place: string | undefined;
  for (const b of level.benefits) {
    if (b.seg.id !== 'EQ') continue;
    if (procedure === undefined) {
      const [qualifier, code] = components(el(b.seg, 2), d);
      if ((qualifier === 'HC' || qualifier === 'CJ') && code) procedure = code;
    }
    if (place === undefined) {
      for (const s of b.iii) {
        if (el(s, 1) === 'ZZ' && el(s, 2) !== '') {
          place = el(s, 2);
          break;
        }
      }
    }
  }
  // Set in this order, as the key order of the JSON answer is part of the output.
  if (procedure !== undefined) inquiry.procedure_code = procedure;
  if (place !== undefined) inquiry.place_of_service = place;
}

export function parse270(text: string): ParseResult<Inquiry> {
  return guarded(() => {
    const ic = readInterchange(text);
    if (!ic.ok) return ic;
    const found = findTransaction(ic.value, '270');
    if (!found) return wrongTransaction(ic.value, '270');
    const { tx } = found;
    const d = ic.value.delimiters;
    const { tree, warnings: loopWarnings } = buildLoopTree(tx.body);
    const warnings = ic.warnings.concat(loopWarnings);
    const at = { index: tx.st.index, id: 'ST', offset: tx.st.offset };
    const payerLevel = firstOfKind(tree.levels, 'payer');
    const payerName = payerLevel?.names[0];
    if (!payerName) return fail('the 270 names no payer (2000A/2100A NM1*PR)', at);
    const subscriberLevel = firstOfKind(tree.levels, 'subscriber');
    if (!subscriberLevel) return fail('the 270 has no subscriber level (2000C, HL03=22)', at);
    const dependentLevel = firstOfKind(subscriberLevel.children, 'dependent');
    const inquired = dependentLevel ?? subscriberLevel;
    const providerName = firstOfKind(tree.levels, 'receiver')?.names[0];
    if (!providerName) warnings.push('the 270 names no information receiver (2100B NM1)');
    const trn = firstTrn1(inquired.trn) ?? inquired.trn[0] ?? subscriberLevel.trn[0];
    if (!trn) warnings.push('the 270 has no TRN trace number');
    let date = serviceDate(inquired) ?? serviceDate(subscriberLevel);
    if (!date) {
      const bht = tree.header.find((s) => s.id === 'BHT');
      date = bht ? d8ToIso(el(bht, 4)) : null;
      if (!date) return fail('the 270 has no service date (DTP*291) and no valid BHT04 date', at);
      warnings.push('no DTP*291 service date; using the BHT04 creation date');
    }
    let types = serviceTypes(inquired, d);
    if (types.length === 0) types = serviceTypes(subscriberLevel, d);
    if (types.length === 0) {
      warnings.push('no EQ service type; assuming 30 (health benefit plan coverage)');
      types = ['30'];
    }
    const prov = providerName?.nm1;
    const provIsPerson = prov !== undefined && el(prov, 2) === '1';
    const prv = providerName?.prv;
    const taxonomy = prv && el(prv, 2) === 'PXC' ? orNull(el(prv, 3)) : null;
    const inquiry: Inquiry = {
      trace_number: trn ? el(trn, 2) : '',
      payer: { id: el(payerName.nm1, 9), name: orNull(el(payerName.nm1, 3)) },
      provider: {
        npi: prov && el(prov, 8) === 'XX' ? orNull(el(prov, 9)) : null,
        first_name: prov && provIsPerson ? orNull(el(prov, 4)) : null,
        last_name: prov && provIsPerson ? orNull(el(prov, 3)) : null,
        organization_name: prov && !provIsPerson ? orNull(el(prov, 3)) : null,
      },
      subscriber: inquiryPerson(subscriberLevel.names[0]),
      dependent: dependentLevel ? inquiryPerson(dependentLevel.names[0]) : null,
      service_types: types,
      date,
    };
    if (taxonomy) inquiry.provider.taxonomy = taxonomy;
    addEncounterCodes(inquiry, inquired.benefits.length > 0 ? inquired : subscriberLevel, d);
    return ok(inquiry, warnings);
  });
}
