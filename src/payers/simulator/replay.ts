/**
 * `coverage simulate-payer --replay DIR`: answer each 270 with the recorded 271 in DIR whose 2100C
 * member ID matches the 270's (or, when the 270 sends no ID, whose member name and date of birth
 * do), with the 270's trace number and control numbers put in; no match is AAA 75. DIR is read at
 * each request, so a recorded answer can be changed between two checks. Any file name is read
 * (.271, .x12, .edi, .txt as users save them): what counts is that the file holds a 271.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Inquiry } from '../../domain/inquiry.ts';
import { build271, el, readInterchange, recordedMember, withNumbers } from '../../x12/index.ts';

const norm = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();

/** Larger files are no recorded 271 (one member's answer is a few KiB). */
const MAX_RECORDED_BYTES = 1 << 20;

function isCandidate(dir: string, file: string): boolean {
  if (file.startsWith('.')) return false;
  const st = statSync(join(dir, file), { throwIfNoEntry: false });
  return st !== undefined && st.isFile() && st.size <= MAX_RECORDED_BYTES;
}

/** The recorded 271 (file name order decides between two that match), or null. */
export function findRecorded(dir: string, inquiry: Inquiry): string | null {
  const id = norm(inquiry.subscriber.member_id ?? inquiry.dependent?.member_id);
  const person = inquiry.dependent ?? inquiry.subscriber;
  const byName = id === '' && norm(person.last_name) !== '' && norm(person.first_name) !== '' && person.dob !== null;
  if (id === '' && !byName) return null;
  for (const file of readdirSync(dir)
    .filter((f) => isCandidate(dir, f))
    .sort()) {
    const text = readFileSync(join(dir, file), 'latin1');
    const who = recordedMember(text);
    if (!who) continue;
    if (
      id !== ''
        ? who.member_ids.includes(id)
        : who.people.some((p) => p.last_name === norm(person.last_name) && p.first_name === norm(person.first_name) && p.dob === person.dob)
    ) {
      return text;
    }
  }
  return null;
}

export function replayAnswer(dir: string, payload270: string, inquiry: Inquiry): string {
  const recorded = findRecorded(dir, inquiry);
  if (recorded === null) return build271(inquiry, { kind: 'reject', level: inquiry.dependent ? 'dependent' : 'subscriber', reason_code: '75', followup: 'C' });
  const ic = readInterchange(payload270);
  const isa13 = ic.ok ? el(ic.value.isa, 13) : '1';
  const gs06 = ic.ok ? (ic.value.groups[0] ? el(ic.value.groups[0].gs, 6) : '1') : '1';
  return withNumbers(recorded, inquiry.trace_number, isa13, gs06);
}
