/** Reads the delimiters an interchange declares in its fixed-layout ISA header. */
import { fail, ok, type ParseResult } from './result.ts';

export interface Delimiters {
  element: string;
  /** ISA11 in 005010; null when ISA11 is a letter (pre-5010 standards identifier). */
  repetition: string | null;
  component: string;
  segment: string;
}

export const DEFAULT_DELIMITERS: Delimiters = { element: '*', repetition: '^', component: ':', segment: '~' };

export interface IsaLocation {
  delimiters: Delimiters;
  /** Offset of the "I" of ISA. */
  start: number;
  /** Offset of the ISA segment terminator. */
  end: number;
}

const ISA_ELEMENTS = 16;

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Offset of the first character that is not whitespace or a byte-order mark. */
export function skipLeadingBlank(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0xfeff || c === 32 || c === 9 || c === 10 || c === 13) i++;
    else break;
  }
  return i;
}

/**
 * Finds the ISA and its delimiters: the element separator is the character after "ISA", ISA16
 * (after the 16th element separator) is the component separator and the next character is the
 * segment terminator. Counting separators rather than trusting fixed offsets also accepts
 * senders that do not pad the ISA fields.
 */
export function locateIsa(text: string): ParseResult<IsaLocation> {
  const first = skipLeadingBlank(text);
  if (first >= text.length) return fail('empty input: no ISA interchange header', { offset: 0 });
  if (text.startsWith('ISA', first)) return locateIsaAt(text, first, []);
  // Captured answers may keep the remains of a transport envelope (a MIME part header, a SOAP
  // fragment) before the ISA: read from the first ISA that parses, and say what was skipped.
  for (let at = text.indexOf('ISA', first); at >= 0; at = text.indexOf('ISA', at + 3)) {
    const c = text.charCodeAt(at + 3);
    if (Number.isNaN(c) || isAlnum(c) || c === 32 || c === 10 || c === 13) continue;
    const found = locateIsaAt(text, at, [`${at - first} character(s) before the ISA header ignored`]);
    if (found.ok) return found;
  }
  const head = text.slice(first, first + 3);
  return fail(`the input does not start with an ISA header (found "${head}")`, { index: 1, offset: first });
}

function locateIsaAt(text: string, start: number, warnings: string[]): ParseResult<IsaLocation> {
  if (start + 3 >= text.length) return fail('truncated ISA header', { index: 1, id: 'ISA', offset: text.length });
  const element = text.charAt(start + 3);
  const elementCode = element.charCodeAt(0);
  if (isAlnum(elementCode) || elementCode === 32 || elementCode === 10 || elementCode === 13) {
    return fail(`garbled ISA: "${element}" cannot be the element separator`, { index: 1, id: 'ISA', offset: start + 3 });
  }
  let seps = 0;
  let p = start + 3;
  let isa11 = 0;
  let isa12 = 0;
  // A well-formed ISA is 106 characters; allow some slack for unpadded or over-padded fields.
  const limit = Math.min(text.length, start + 200);
  for (; p < limit; p++) {
    if (text.charCodeAt(p) !== elementCode) continue;
    seps++;
    if (seps === 11) isa11 = p + 1;
    else if (seps === 12) isa12 = p;
    else if (seps === ISA_ELEMENTS) break;
  }
  if (seps < ISA_ELEMENTS) {
    return p >= text.length
      ? fail('truncated ISA header', { index: 1, id: 'ISA', offset: text.length })
      : fail(`garbled ISA: expected ${ISA_ELEMENTS} elements`, { index: 1, id: 'ISA', offset: start });
  }
  if (p + 2 >= text.length) return fail('truncated ISA header', { index: 1, id: 'ISA', offset: text.length });
  const component = text.charAt(p + 1);
  const segment = text.charAt(p + 2);
  const repetitionCode = isa12 === isa11 + 1 ? text.charCodeAt(isa11) : -1;
  const repetition = repetitionCode >= 0 && !isAlnum(repetitionCode) && repetitionCode !== 32 ? text.charAt(isa11) : null;
  const delimiters: Delimiters = { element, repetition, component, segment };
  const problem = delimiterProblem(delimiters);
  if (problem) return fail(`garbled ISA: ${problem}`, { index: 1, id: 'ISA', offset: p + 1 });
  if (repetition !== null && repetition === component) {
    // 271 readers split repetitions only in repeating simple elements (EB03) and components only in composites, so a shared character stays readable.
    warnings.push(`ISA11 repetition separator and ISA16 component separator are both "${component}"; read by element kind`);
  }
  return ok({ delimiters, start, end: p + 2 }, warnings);
}

function delimiterProblem(d: Delimiters): string | null {
  const { element: e, component: c, segment: s, repetition: r } = d;
  if (e === c || e === s || c === s || (r !== null && (r === e || r === s))) {
    return `delimiters are not distinct (${JSON.stringify([e, c, s, ...(r ? [r] : [])])})`;
  }
  return unfit(d.component, 'component separator') ?? unfit(d.segment, 'segment terminator');
}

/** Why `ch` cannot be the delimiter `name`, or null (called per delimiter: a list of pairs to loop over was allocated per interchange). */
function unfit(ch: string, name: string): string | null {
  const c = ch.charCodeAt(0);
  return isAlnum(c) || c === 32 ? `"${ch}" cannot be the ${name}` : null;
}
