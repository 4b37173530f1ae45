/**
 * Single-pass tokenizer: one charCode scan over the input records where each element ends;
 * elements are sliced out of the input only when read, components and repetitions split by the
 * readers that need them.
 */
import dtp2110 from './code-tables/dtp-2110.json' with { type: 'json' };
import eb01 from './code-tables/eb01.json' with { type: 'json' };
import eb02 from './code-tables/eb02.json' with { type: 'json' };
import eb03 from './code-tables/eb03.json' with { type: 'json' };
import eb04 from './code-tables/eb04.json' with { type: 'json' };
import eb06 from './code-tables/eb06.json' with { type: 'json' };
import eb12 from './code-tables/eb12.json' with { type: 'json' };
import iii from './code-tables/iii.json' with { type: 'json' };
import segments from './code-tables/segments.json' with { type: 'json' };
import { locateIsa, type Delimiters } from './delimiters.ts';
import { fail, ok, type ParseResult } from './result.ts';

/**
 * One segment. Its elements are sliced out of the input only when read (el), from the delimiter
 * positions the tokenizer recorded; most envelope elements are never read.
 */
export class Segment {
  // Fields declared, not defined: under ES2022 class fields every `new Segment` would first define
  // each one as undefined (a second pass over the object, and fields generalized to hold anything).
  declare readonly id: string;
  /** 1-based position in the interchange (ISA is 1). */
  declare readonly index: number;
  /** Character offset of the segment's first character. */
  declare readonly offset: number;
  /** Number of elements, the segment ID included. */
  declare readonly count: number;
  /** The whole document the segment was read from. */
  declare readonly text: string;
  /** Offsets of the separators that end each element (the last one is the terminator). */
  declare private bounds: number[];
  declare private readonly first: number;
  /** Set instead when the segment's text held line breaks, which are not data. */
  declare private readonly cleaned: string[] | null;

  constructor(id: string, index: number, offset: number, count: number, text: string, bounds: number[], first: number, cleaned: string[] | null) {
    this.id = id;
    this.index = index;
    this.offset = offset;
    this.count = count;
    this.text = text;
    this.bounds = bounds;
    this.first = first;
    this.cleaned = cleaned;
  }

  /** Used by tokenize only: the document's separator offsets, copied out of its scratch list once the scan is done. */
  settle(bounds: number[]): void {
    this.bounds = bounds;
  }

  /** Element n ('' when absent), so element(1) is e.g. EB01. */
  element(n: number): string {
    if (this.cleaned !== null) return this.cleaned[n] ?? '';
    if (n >= this.count || n < 0) return '';
    const start = n === 0 ? this.offset : this.bounds[this.first + n - 1]! + 1;
    const end = this.bounds[this.first + n]!;
    return end > start ? slice(this.text, start, end) : '';
  }

  /** The segment as sent, without its terminator (one slice; the elements joined by the element separator). */
  source(): string {
    if (this.cleaned !== null) return this.cleaned.join('\u0000');
    return slice(this.text, this.offset, this.bounds[this.first + this.count - 1]!);
  }

  /** Where source() lies in `text` ([offset, end)), or -1 when the segment was cleaned of line breaks and source() is not in it. */
  get end(): number {
    return this.cleaned !== null ? -1 : this.bounds[this.first + this.count - 1]!;
  }

  /** All elements; elements[0] is the segment ID. */
  get elements(): string[] {
    const out: string[] = [];
    for (let n = 0; n < this.count; n++) out.push(this.element(n));
    return out;
  }
}

export interface Tokens {
  delimiters: Delimiters;
  segments: Segment[];
}

function isBlank(c: number): boolean {
  return c === 13 || c === 10 || c === 32 || c === 9;
}

/*
 * Segment IDs, transaction set IDs and the codes of the TR3 code lists the readers act on
 * (code-tables/): a 2-3 character element found here is returned as the shared literal instead of
 * a fresh slice: no allocation, and comparisons with literals in the readers become pointer compares.
 */
/** Three-character codes of digits and capitals ('0'..'Z', 43 characters) by (a - 48) * 1849 + (b - 48) * 43 + (c - 48). */
const CODES3: (string | undefined)[] = new Array<string | undefined>(43 * 43 * 43).fill(undefined);
const code3Index = (a: number, b: number, c: number) =>
  a >= 48 && a <= 90 && b >= 48 && b <= 90 && c >= 48 && c <= 90 ? (a - 48) * 1849 + (b - 48) * 43 + (c - 48) : -1;
/** Two-character codes by (first - 32) * 96 + (second - 32): an array index is cheaper than a hash. */
const CODES2: (string | undefined)[] = new Array<string | undefined>(96 * 96).fill(undefined);
const codeLists = [segments.segments, segments.transaction_sets, ...[dtp2110, eb01, eb02, eb03, eb04, eb06, eb12, iii].map((table) => table.codes)];
for (const code of codeLists.flatMap((list) => Object.keys(list))) {
  if (code.length === 2) CODES2[(code.charCodeAt(0) - 32) * 96 + code.charCodeAt(1) - 32] = code;
  else if (code.length === 3) {
    const k = code3Index(code.charCodeAt(0), code.charCodeAt(1), code.charCodeAt(2));
    if (k < 0) throw new Error(`code ${code} outside the three-character table`);
    CODES3[k] = code;
  }
}

function slice(text: string, start: number, end: number): string {
  const len = end - start;
  if (len === 2) {
    const a = text.charCodeAt(start) - 32;
    const b = text.charCodeAt(start + 1) - 32;
    if (a >= 0 && a < 96 && b >= 0 && b < 96) {
      const known = CODES2[a * 96 + b];
      if (known !== undefined) return known;
    }
  } else if (len === 3) {
    const a = text.charCodeAt(start);
    const b = text.charCodeAt(start + 1);
    const c = text.charCodeAt(start + 2);
    const k = code3Index(a, b, c);
    if (k >= 0) {
      const known = CODES3[k];
      if (known !== undefined) return known;
    }
  }
  return text.slice(start, end);
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
function withoutLineBreaks(elements: string[]): string[] {
  for (let i = 0; i < elements.length; i++) elements[i] = elements[i]!.replace(/[\r\n]/g, '');
  return elements;
}

const SCRATCH_LIMIT = 1 << 20;
let scratch = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * The document's characters as bytes when it is all ASCII (then byte i is character i), else null.
 * A typed array reads faster than charCodeAt. The buffer is reused: 3 bytes per character hold any
 * UTF-16 string's UTF-8 form, so the bytes written equal the length only when every character is ASCII.
 */
function asciiBytes(text: string): Uint8Array | null {
  const n = text.length;
  if (n > SCRATCH_LIMIT) return null;
  if (scratch.length < 3 * n) scratch = new Uint8Array(Math.max(3 * n, 1 << 14));
  return encoder.encodeInto(text, scratch).written === n ? scratch : null;
}

const isStop = (c: number, E: number, S: number) => c === E || c === S || c === 10 || c === 13;

/** 1 at the element separator, the segment terminator and the line breaks; kept for the last delimiters seen. */
const STOPS = new Uint8Array(128);
let stopsFor = -1;

function stopTable(E: number, S: number): Uint8Array {
  const key = E * 128 + S;
  if (key !== stopsFor) {
    STOPS.fill(0);
    for (const c of [E, S, 10, 13]) if (c < 128) STOPS[c] = 1;
    stopsFor = key;
  }
  return STOPS;
}

/**
 * The separator offsets of the document being scanned, reused: each document keeps an exact copy
 * (settle), where a list allocated per document had to guess its size (and fill it with holes).
 */
let marks: number[] = [0];

function settle(segments: Segment[], used: number): void {
  const exact = marks.slice(0, used);
  for (const seg of segments) seg.settle(exact);
  // A very large interchange's list is not kept.
  if (marks.length > 1 << 16) marks = [0];
}

/** ISA, IEA, GS, GE, ST, SE and TA1 start with I, G, S or T; most content segments do not. */
export function isEnvelopeId(id: string): boolean {
  const c = id.charCodeAt(0);
  if (c !== 73 && c !== 71 && c !== 83 && c !== 84) return false;
  return id === 'ISA' || id === 'IEA' || id === 'GS' || id === 'GE' || id === 'ST' || id === 'SE' || id === 'TA1';
}

/**
 * The segments of an interchange. `envelope`, when given, receives the positions in `segments` of
 * the envelope segments (isEnvelopeId), so readInterchange need not look at every content segment.
 */
export function tokenize(text: string, envelope?: number[]): ParseResult<Tokens> {
  const isa = locateIsa(text);
  if (!isa.ok) return isa;
  const { delimiters, start } = isa.value;
  const E = delimiters.element.charCodeAt(0);
  const S = delimiters.segment.charCodeAt(0);
  const segments: Segment[] = [];
  const warnings: string[] = isa.warnings.length > 0 ? [...isa.warnings] : [];
  const n = text.length;
  // The segments read from the scratch list until settle gives them the document's own copy.
  const bounds = marks;
  let used = 0;
  let first = 0;
  let segStart = start;
  let dirty = false;
  let i = start;
  const bytes = asciiBytes(text);
  const stops = bytes !== null ? stopTable(E, S) : null;
  while (i < n) {
    // Skip to the next separator or line break: the test per character is all most characters get.
    if (bytes !== null) while (i < n && stops![bytes[i]!] === 0) i++;
    else while (i < n && !isStop(text.charCodeAt(i), E, S)) i++;
    if (i >= n) break;
    const c = bytes !== null ? bytes[i]! : text.charCodeAt(i);
    if (c === E || c === S) {
      bounds[used++] = i;
      if (c === S) {
        const count = used - first;
        const cleaned = dirty ? withoutLineBreaks(text.slice(segStart, i).split(delimiters.element)) : null;
        const id = cleaned ? cleaned[0]! : slice(text, segStart, bounds[first]!);
        const index = segments.length + 1;
        if (id === '' && count === 1) {
          warnings.push(`empty segment skipped at offset ${segStart}`);
        } else if (!validId(id)) {
          return fail(`invalid segment ID "${id.slice(0, 10)}" at segment ${index}`, { index, id: id.slice(0, 10), offset: segStart });
        } else {
          if (envelope !== undefined && isEnvelopeId(id)) envelope.push(segments.length);
          segments.push(new Segment(id, index, segStart, count, text, bounds, first, cleaned));
        }
        i++;
        while (i < n && isBlank(bytes !== null ? bytes[i]! : text.charCodeAt(i))) i++;
        segStart = i;
        first = used;
        dirty = false;
        continue;
      }
    } else if (c === 10 || c === 13) {
      dirty = true;
    }
    i++;
  }
  if (segStart < n) {
    const id = text.slice(segStart, Math.min(n, segStart + 3)).split(delimiters.element)[0] ?? '';
    // A trailer without its terminator at the very end is still a whole segment.
    if ((id === 'IEA' || id === 'GE') && text.indexOf(delimiters.element, segStart) > 0) {
      let end = n;
      while (end > segStart && isBlank(text.charCodeAt(end - 1))) end--;
      const tail = text.slice(segStart, end).split(delimiters.element);
      envelope?.push(segments.length);
      segments.push(new Segment(id, segments.length + 1, segStart, tail.length, text, bounds, first, tail));
      warnings.push(`the last segment (${id}) has no segment terminator "${delimiters.segment}"`);
      settle(segments, used);
      return ok({ delimiters, segments }, warnings);
    }
    return fail(`truncated input: the last segment (${id || '?'}) has no segment terminator "${delimiters.segment}"`, {
      index: segments.length + 1,
      id: id || null,
      offset: segStart,
    });
  }
  settle(segments, used);
  return ok({ delimiters, segments }, warnings);
}

/** Element n of a segment ('' when absent). */
export function el(seg: Segment, n: number): string {
  return seg.element(n);
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
