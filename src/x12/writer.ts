/** Writes segments and wraps a transaction set body in ST/SE, GS/GE and ISA/IEA. */
import { DEFAULT_DELIMITERS, type Delimiters } from './delimiters.ts';
import { cleanText } from './sanitize.ts';

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

  add(id: string, ...elements: Element[]): void {
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

function stamp(now: Date) {
  const y = now.getUTCFullYear();
  const date8 = `${pad(y, 4)}${pad(now.getUTCMonth() + 1, 2)}${pad(now.getUTCDate(), 2)}`;
  const time4 = `${pad(now.getUTCHours(), 2)}${pad(now.getUTCMinutes(), 2)}`;
  return { date8, date6: date8.slice(2), time4 };
}

export function dateTimeStamp(now: Date): { date8: string; time4: string } {
  const s = stamp(now);
  return { date8: s.date8, time4: s.time4 };
}

export interface EnvelopeParams {
  functional_id: 'HS' | 'HB' | 'FA';
  set_id: '270' | '271' | '999';
  version: string;
  body: SegmentList;
  sender: string;
  receiver: string;
  env: EnvelopeOptions | undefined;
}

/** A whole interchange around one transaction set; segments end with the terminator and a line break. */
export function wrapInterchange(p: EnvelopeParams): string {
  const d = p.body.d;
  const env = p.env ?? {};
  const now = env.now ?? new Date();
  const { date8, date6, time4 } = stamp(now);
  const control = Math.abs(Math.trunc(env.control_number ?? 1)) % 1_000_000_000 || 1;
  const sender = cleanText(env.sender_id ?? p.sender, d, 15) || 'UNKNOWN';
  const receiver = cleanText(env.receiver_id ?? p.receiver, d, 15) || 'UNKNOWN';
  const st02 = pad(control % 10_000, 4);
  const e = d.element;
  const isa = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    'ZZ',
    sender.padEnd(15),
    'ZZ',
    receiver.padEnd(15),
    date6,
    time4,
    d.repetition ?? 'U',
    '00501',
    pad(control, 9),
    '0',
    env.usage ?? 'T',
    d.component,
  ].join(e);
  const lines = [
    isa,
    ['GS', p.functional_id, sender, receiver, date8, time4, String(control), 'X', p.version].join(e),
    ['ST', p.set_id, st02, p.version].join(e),
    ...p.body.lines,
    ['SE', String(p.body.count + 2), st02].join(e),
    ['GE', '1', String(control)].join(e),
    ['IEA', '1', pad(control, 9)].join(e),
  ];
  return lines.join(`${d.segment}\n`) + `${d.segment}\n`;
}
