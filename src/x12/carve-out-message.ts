/** A carve-out administrator named only in MSG prose beside an EB*U for mental health. */
import type { OtherEntity } from '../domain/coverage.ts';

const PHONE = /(?:1[-. ]?)?\(?(\d{3})\)?[-. ]?(\d{3})[-. ]?(\d{4})\b/;
const BY = /\b(?:ADMINISTERED|MANAGED|HANDLED|PROVIDED|COVERED) (?:BY|THROUGH)\s+(.+)|\bCARVED OUT TO\s+(.+)/;
const TAIL = /\s*(?:\bAT\b|\bPHONE\b|\bTEL\b|\bPH\b|[,;:(]|\d).*$/;

/** The administrator an MSG names ("MH ADMINISTERED BY MAGELLAN AT 800-555-0134"), or null when it names none. */
export function administratorFromMessage(text: string): OtherEntity | null {
  const t = text.toUpperCase().trim();
  const m = BY.exec(t);
  if (!m) return null;
  const name = (m[1] ?? m[2] ?? '')
    .replace(TAIL, '')
    .replace(/[.\s]+$/, '')
    .trim();
  if (name.length < 2) return null;
  const phone = PHONE.exec(t);
  return { name: name.slice(0, 60), payer_id: null, phone: phone ? `${phone[1]}${phone[2]}${phone[3]}` : null };
}
