/**
 * 999 implementation acknowledgments (005010X231A1): the reader tells whether a payer accepted
 * our 270 and why not; the builder lets the payer simulator reject a 270.
 *
 * Layout: AK1*HS*GS06*version, AK2*270*ST02*version, per segment error IK3*segment ID*position in
 * the transaction set**code (with optional IK4*element*reference*code*bad value), IK5*A|E|R*codes,
 * AK9*A|E|P|R*included*received*accepted. Errors without a segment become IK5 codes.
 */
import { X279_VERSION } from './build-270.ts';
import { codeIn } from './code-tables/index.ts';
import { findTransaction, readInterchange } from './envelope.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { cleanText } from './sanitize.ts';
import { el, type Segment } from './tokenizer.ts';
import { SegmentList, wrapInterchange, type EnvelopeOptions } from './writer.ts';

export interface Ack999Error {
  segment_id: string | null;
  position: number | null;
  code: string;
  description: string;
}

export interface Ack999 {
  accepted: boolean;
  transaction_set_control_number: string | null;
  errors: Ack999Error[];
}

/** IK304 segment syntax error codes. */
export const SEGMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'unrecognized segment ID',
  '2': 'unexpected segment',
  '3': 'required segment missing',
  '4': 'loop occurs over maximum times',
  '5': 'segment exceeds maximum use',
  '6': 'segment not in defined transaction set',
  '7': 'segment not in proper sequence',
  '8': 'segment has data element errors',
  I4: 'implementation "not used" segment present',
  I6: 'implementation dependent segment missing',
  I7: 'implementation loop occurs under minimum times',
  I8: 'implementation segment below minimum use',
  I9: 'implementation dependent "not used" segment present',
};

/** IK403 data element error codes. */
export const ELEMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'required data element missing',
  '2': 'conditional required data element missing',
  '3': 'too many data elements',
  '4': 'data element too short',
  '5': 'data element too long',
  '6': 'invalid character in data element',
  '7': 'invalid code value',
  '8': 'invalid date',
  '9': 'invalid time',
  '10': 'exclusion condition violated',
  '12': 'too many repetitions',
  '13': 'too many components',
  I10: 'implementation "not used" data element present',
  I11: 'implementation too few repetitions',
  I12: 'implementation pattern match failure',
  I13: 'implementation dependent "not used" data element present',
  I6: 'code value not used in implementation',
  I9: 'implementation dependent data element missing',
};

/** IK502-IK506 transaction set syntax error codes. */
export const TRANSACTION_ERRORS: Readonly<Record<string, string>> = {
  '1': 'transaction set not supported',
  '2': 'transaction set trailer missing',
  '3': 'transaction set control number in header and trailer do not match',
  '4': 'number of included segments does not match actual count',
  '5': 'one or more segments in error',
  '6': 'missing or invalid transaction set identifier',
  '7': 'missing or invalid transaction set control number',
  '8': 'authentication key name unknown',
  '9': 'encryption key name unknown',
  '10': 'requested service not available',
  '11': 'unknown security recipient',
  '12': 'incorrect message length',
  '13': 'message authentication code failed',
  '15': 'unknown security originator',
  '16': 'syntax error in decrypted text',
  '17': 'security not supported',
  '18': 'transaction set not in functional group',
  '19': 'invalid transaction set implementation convention reference',
  '23': 'transaction set control number not unique within the functional group',
  '24': 'S3E security end segment missing for S3S security start segment',
  '25': 'S3S security start segment missing for S3E end segment',
  '26': 'S4E security end segment missing for S4S security start segment',
  '27': 'S4S security start segment missing for S4E security end segment',
  I5: 'implementation one or more segments in error',
  I6: 'implementation convention not supported',
};

const describe = (table: Readonly<Record<string, string>>, code: string) => codeIn(table, code) ?? `error code ${code}`;

function positionOf(v: string): number | null {
  const n = Number(v);
  return v !== '' && Number.isInteger(n) ? n : null;
}

export function parse999(text: string): ParseResult<Ack999> {
  return guarded(() => {
    const ic = readInterchange(text);
    if (!ic.ok) return ic;
    const found = findTransaction(ic.value, '999');
    if (!found) return fail('expected a 999 transaction set', { index: ic.value.isa.index, id: 'ISA', offset: 0 });
    const warnings = [...ic.warnings];
    const errors: Ack999Error[] = [];
    let controlNumber: string | null = null;
    let ik5: Segment | null = null;
    let ak9: Segment | null = null;
    let current: Segment | null = null;
    for (const seg of found.tx.body) {
      switch (seg.id) {
        case 'AK2':
          if (controlNumber === null) controlNumber = el(seg, 2) || null;
          else warnings.push(`the 999 acknowledges more than one transaction set; only the first is reported`);
          break;
        case 'IK3':
          current = seg;
          errors.push({
            segment_id: el(seg, 1) || null,
            position: positionOf(el(seg, 2)),
            code: el(seg, 4),
            description: el(seg, 4) ? describe(SEGMENT_ERRORS, el(seg, 4)) : 'segment error',
          });
          break;
        case 'IK4': {
          const bad = el(seg, 4);
          errors.push({
            segment_id: current ? el(current, 1) || null : null,
            position: current ? positionOf(el(current, 2)) : null,
            code: el(seg, 3),
            description: `element ${el(seg, 1)}: ${describe(ELEMENT_ERRORS, el(seg, 3))}${bad ? ` ("${bad}")` : ''}`,
          });
          break;
        }
        case 'IK5':
          ik5 ??= seg;
          break;
        case 'AK9':
          ak9 = seg;
          break;
      }
    }
    if (ik5) {
      for (let i = 2; i <= 6; i++) {
        const code = el(ik5, i);
        if (code && code !== '5' && code !== 'I5') errors.push({ segment_id: null, position: null, code, description: describe(TRANSACTION_ERRORS, code) });
      }
    }
    const status = ik5 ? el(ik5, 1) : ak9 ? el(ak9, 1) : '';
    if (!status) return fail('the 999 has neither IK5 nor AK9', { index: found.tx.se.index, id: 'SE', offset: found.tx.se.offset });
    const accepted = ik5 ? status === 'A' || status === 'E' : status === 'A' || status === 'E' || status === 'P';
    return ok({ accepted, transaction_set_control_number: controlNumber, errors }, warnings);
  });
}

/** A 999 acknowledging (and, when errors are given, rejecting) the 270 in `rejected270`. */
export function build999(rejected270: string, errors: Ack999Error[], env?: EnvelopeOptions): string {
  const list = new SegmentList();
  const ic = readInterchange(rejected270);
  const found = ic.ok ? findTransaction(ic.value, '270') : null;
  const gs06 = found ? el(found.group.gs, 6) : '0';
  const st02 = found ? found.tx.control_number : '0000';
  const version = (found && el(found.group.gs, 8)) || X279_VERSION;
  const sender = ic.ok ? el(ic.value.isa, 8).trim() : 'PAYER';
  const receiver = ic.ok ? el(ic.value.isa, 6).trim() : 'COVERAGE';
  const text = (v: string | null, max: number) => cleanText(v, list.d, max);
  list.add('AK1', 'HS', text(gs06, 9) || '0', text(version, 12));
  list.add('AK2', '270', text(st02, 9) || '0000', text(version, 35));
  const txCodes: string[] = [];
  for (const e of errors) {
    if (e.segment_id === null) {
      if (e.code) txCodes.push(text(e.code, 3));
      continue;
    }
    list.add('IK3', text(e.segment_id, 3), e.position === null ? '' : String(Math.max(1, Math.trunc(e.position))), '', text(e.code, 3) || '8');
  }
  const rejected = errors.length > 0;
  if (rejected && errors.some((e) => e.segment_id !== null)) txCodes.unshift('5');
  list.addAll('IK5', [rejected ? 'R' : 'A', ...txCodes.slice(0, 5)]);
  list.add('AK9', rejected ? 'R' : 'A', '1', '1', rejected ? '0' : '1');
  return wrapInterchange({ functional_id: 'FA', set_id: '999', version: '005010X231A1', body: list, sender, receiver, env });
}
