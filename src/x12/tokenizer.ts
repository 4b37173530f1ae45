/**
 * Single-pass tokenizer: one charCode scan over the whole interchange, slicing elements straight
 * out of the input. Components and repetitions are split lazily by the readers that need them.
 */
import { locateIsa, type Delimiters } from './delimiters.ts';
import { fail, ok, type ParseResult } from './result.ts';

export interface Segment {
  id: string;
  /** elements[0] is the segment ID, so elements[1] is e.g. EB01. */
  elements: string[];
  /** 1-based position in the interchange (ISA is 1). */
  index: number;
  /** Character offset of the segment's first character. */
  offset: number;
}

export interface Tokens {
  delimiters: Delimiters;
  segments: Segment[];
}

const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;

function isBlank(c: number): boolean {
  return c === CR || c === LF || c === SPACE || c === TAB;
}

function validId(id: string): boolean {
  if (id.length < 2 || id.length > 3) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    if (!(upper || (i > 0 && c >= 48 && c <= 57))) return false;
  }
  return true;
}

/** Line breaks inside a segment come from files wrapped at a fixed width; they are not data. */
function stripLineBreaks(elements: string[]): void {
  for (let i = 0; i < elements.length; i++) {
    const v = elements[i]!;
    if (v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) elements[i] = v.replace(/[\r\n]/g, '');
  }
}

export function tokenize(text: string): ParseResult<Tokens> {
  const isa = locateIsa(text);
  if (!isa.ok) return isa;
  const { delimiters, start } = isa.value;
  const E = delimiters.element.charCodeAt(0);
  const S = delimiters.segment.charCodeAt(0);
  const segments: Segment[] = [];
  const warnings: string[] = [];
  const n = text.length;
  let i = start;
  let segStart = i;
  let elStart = i;
  let elements: string[] = [];
  let dirty = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === E) {
      elements.push(text.slice(elStart, i));
      elStart = i + 1;
    } else if (c === S) {
      elements.push(text.slice(elStart, i));
      if (dirty) stripLineBreaks(elements);
      const id = elements[0]!;
      const index = segments.length + 1;
      if (id === '' && elements.length === 1) {
        warnings.push(`empty segment skipped at offset ${segStart}`);
      } else if (!validId(id)) {
        return fail(`invalid segment ID "${id.slice(0, 10)}" at segment ${index}`, { index, id: id.slice(0, 10), offset: segStart });
      } else {
        segments.push({ id, elements, index, offset: segStart });
      }
      i++;
      while (i < n && isBlank(text.charCodeAt(i))) i++;
      segStart = elStart = i;
      elements = [];
      dirty = false;
      continue;
    } else if (c === LF || c === CR) {
      dirty = true;
    }
    i++;
  }
  if (segStart < n) {
    const id = text.slice(segStart, Math.min(n, segStart + 3)).split(delimiters.element)[0] ?? '';
    return fail(`truncated input: the last segment (${id || '?'}) has no segment terminator "${delimiters.segment}"`, {
      index: segments.length + 1,
      id: id || null,
      offset: segStart,
    });
  }
  return ok({ delimiters, segments }, warnings);
}

/** Element n of a segment ('' when absent). */
export function el(seg: Segment, n: number): string {
  return seg.elements[n] ?? '';
}

/** The repetitions of a repeating element, empty ones dropped. */
export function repetitions(value: string, d: Delimiters): string[] {
  if (value === '') return [];
  if (d.repetition === null || value.indexOf(d.repetition) < 0) return [value];
  return value.split(d.repetition).filter((v) => v !== '');
}

/** The components of a composite element. */
export function components(value: string, d: Delimiters): string[] {
  return value.indexOf(d.component) < 0 ? [value] : value.split(d.component);
}
