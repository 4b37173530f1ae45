/** Writes segments and wraps a transaction set body in ST/SE, GS/GE and ISA/IEA. */
import { DEFAULT_DELIMITERS, type Delimiters } from './delimiters.ts';
import { cleanText } from './sanitize.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export interface EnvelopeOptions {
  sender_id?: string;
  receiver_id?: string;
  control_number?: number;
  now?: Date;
  usage?: 'T' | 'P';
}

export type Element = string | null | undefined;

/** Collects the segments of a transaction set body. Values must already be clean (see sanitize.ts). */
export class SegmentList {
  readonly lines: string[] = [];
  constructor(readonly d: Delimiters = DEFAULT_DELIMITERS) {}

  /** One segment: its ID and elements, trailing empty ones left out. */
  add(id: string, ...elements: Element[]): void {
    this.addAll(id, elements);
  }

  /** add() for elements held in an array. */
  addAll(id: string, elements: readonly Element[]): void {
    let last = elements.length;
    while (last > 0 && !elements[last - 1]) last--;
    let s = id;
    for (let i = 0; i < last; i++) s += this.d.element + (elements[i] ?? '');
    this.lines.push(s);
  }

  /** Joins codes with the repetition separator (EB03, EQ01). */
  repeat(values: readonly string[]): string {
    return values.join(this.d.repetition ?? '^');
  }

  get count(): number {
    return this.lines.length;
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

interface Stamp {
  date8: string;
  date6: string;
  time4: string;
}

/** The stamp of the last minute asked for: every interchange written in that UTC minute has the same one. */
let lastMinute = NaN;
let lastStamp: Stamp | null = null;

function stamp(now: Date): Stamp {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMinute && lastStamp) return lastStamp;
  const y = now.getUTCFullYear();
  const date8 = `${pad(y, 4)}${pad(now.getUTCMonth() + 1, 2)}${pad(now.getUTCDate(), 2)}`;
  const time4 = `${pad(now.getUTCHours(), 2)}${pad(now.getUTCMinutes(), 2)}`;
  lastMinute = minute;
  return (lastStamp = { date8, date6: date8.slice(2), time4 });
}

/** The shared stamp of that minute (no copy: callers only read it). */
export function dateTimeStamp(now: Date): { readonly date8: string; readonly time4: string } {
  return stamp(now);
}

export interface EnvelopeParams {
  functional_id: 'HS' | 'HB' | 'FA' | 'HP';
  set_id: '270' | '271' | '999' | '835';
  version: string;
  body: SegmentList;
  sender: string;
  receiver: string;
  env: EnvelopeOptions | undefined;
}

/**
 * The interchange text before ISA13 and between ISA13 and GS06: the same for every interchange of
 * one sender, receiver, minute and delimiter set, so the last one is kept (a sandbox or a client
 * writes runs of them for one payer).
 */
interface Head {
  d: Delimiters;
  sender: string;
  receiver: string;
  stamp: Stamp;
  usage: string;
  functional_id: string;
  /** ISA01 to ISA12 with the separator after ISA12. */
  isa: string;
  /** ISA14 to GS05 with the separator after GS05. */
  gs: string;
}
let lastHead: Head | null = null;

function head(d: Delimiters, senderId: string, receiverId: string, st: Stamp, usage: string, functionalId: string): Head {
  const h = lastHead;
  if (h && h.d === d && h.sender === senderId && h.receiver === receiverId && h.stamp === st && h.usage === usage && h.functional_id === functionalId) return h;
  const sender = cleanText(senderId, d, 15) || 'UNKNOWN';
  const receiver = cleanText(receiverId, d, 15) || 'UNKNOWN';
  const e = d.element;
  const end = `${d.segment}\n`;
  return (lastHead = {
    d,
    sender: senderId,
    receiver: receiverId,
    stamp: st,
    usage,
    functional_id: functionalId,
    isa:
      `ISA${e}00${e}${BLANK10}${e}00${e}${BLANK10}${e}ZZ${e}${sender.padEnd(15)}${e}ZZ${e}${receiver.padEnd(15)}${e}${st.date6}${e}${st.time4}` +
      `${e}${d.repetition ?? 'U'}${e}00501${e}`,
    gs: `${e}0${e}${usage}${e}${d.component}${end}GS${e}${functionalId}${e}${sender}${e}${receiver}${e}${st.date8}${e}${st.time4}${e}`,
  });
}

/** A whole interchange around one transaction set; segments end with the terminator and a line break. */
export function wrapInterchange(p: EnvelopeParams): string {
  const d = p.body.d;
  const env = p.env ?? {};
  const h = head(d, env.sender_id ?? p.sender, env.receiver_id ?? p.receiver, stamp(env.now ?? dateOf(systemClock)), env.usage ?? 'T', p.functional_id);
  const control = Math.abs(Math.trunc(env.control_number ?? 1)) % 1_000_000_000 || 1;
  const st02 = pad(control % 10_000, 4);
  const e = d.element;
  const end = `${d.segment}\n`;
  const control9 = pad(control, 9);
  const count = p.body.count;
  // One join over the body's own array: no copy of the body lines.
  return (
    `${h.isa}${control9}${h.gs}${control}${e}X${e}${p.version}${end}` +
    `ST${e}${p.set_id}${e}${st02}${e}${p.version}${end}${p.body.lines.join(end)}${count > 0 ? end : ''}` +
    `SE${e}${count + 2}${e}${st02}${end}GE${e}1${e}${control}${end}IEA${e}1${e}${control9}${end}`
  );
}

const BLANK10 = ' '.repeat(10);
