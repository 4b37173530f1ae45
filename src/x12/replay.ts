/**
 * What replaying a recorded 271 needs: who it is about (the 2100C subscribers' member IDs, and the
 * member's name and date of birth) and the same text answering another 270 (its trace and control
 * numbers put in). Used by `coverage simulate-payer --replay DIR`.
 */
import { locateIsa } from './delimiters.ts';
import { readInterchange, findTransaction } from './envelope.ts';
import { buildLoopTree } from './loops.ts';
import { el } from './tokenizer.ts';
import { d8ToIso } from './values.ts';

export interface RecordedMember {
  /** Each subscriber level's 2100C NM109 (or REF*1W), upper-cased; empty when the 271 names none. */
  member_ids: string[];
  /** The people the 271 is about (each subscriber, and the dependents when there are some). */
  people: { first_name: string; last_name: string; dob: string | null }[];
}

/** Who a recorded 271 is about, or null when it cannot be read. */
export function recordedMember(text: string): RecordedMember | null {
  const ic = readInterchange(text);
  if (!ic.ok) return null;
  const found = findTransaction(ic.value, '271');
  if (!found) return null;
  const { tree } = buildLoopTree(found.tx.body);
  const subscribers = tree.levels.filter((l) => l.kind === 'subscriber');
  if (subscribers.length === 0) return null;
  const people: RecordedMember['people'] = [];
  const memberIds: string[] = [];
  for (const subscriber of subscribers) {
    for (const level of [subscriber, ...subscriber.children.filter((c) => c.kind === 'dependent')]) {
      const name = level.names[0];
      if (!name) continue;
      if (level === subscriber) {
        const ref1w = name.ref.find((r) => el(r, 1) === '1W');
        const id = (el(name.nm1, 9) || (ref1w ? el(ref1w, 2) : '')).trim().toUpperCase();
        if (id !== '') memberIds.push(id);
      }
      const dob = name.dmg && el(name.dmg, 1) === 'D8' ? d8ToIso(el(name.dmg, 2)) : null;
      people.push({ first_name: el(name.nm1, 4).trim().toUpperCase(), last_name: el(name.nm1, 3).trim().toUpperCase(), dob });
    }
  }
  return { member_ids: memberIds, people };
}

/**
 * The recorded 271 answering another 270: every TRN*2 carries `trace` (TRN02), and the ISA13/IEA02
 * and GS06/GE02 control numbers are `isaControl` and `gsControl`. Everything else, defects
 * included, is left as recorded.
 */
export function withNumbers(text: string, trace: string, isaControl: string, gsControl: string): string {
  const isa = locateIsa(text);
  if (!isa.ok) return text;
  const { element: E, segment: S } = isa.value.delimiters;
  const head = text.slice(0, isa.value.start);
  const pieces = text.slice(isa.value.start).split(S);
  const isa13 = isaControl.replace(/\D/g, '').slice(-9).padStart(9, '0');
  return (
    head +
    pieces
      .map((piece) => {
        const lead = /^\s*/.exec(piece)![0];
        const parts = piece.slice(lead.length).split(E);
        switch (parts[0]) {
          case 'ISA':
            if (parts.length > 13) parts[13] = isa13;
            break;
          case 'IEA':
            if (parts.length > 2) parts[2] = parts[2]!.replace(/\S+/, isa13);
            break;
          case 'GS':
            if (parts.length > 6) parts[6] = gsControl;
            break;
          case 'GE':
            if (parts.length > 2) parts[2] = parts[2]!.replace(/\S+/, gsControl);
            break;
          case 'TRN':
            if (parts[1] === '2' && parts.length > 2) parts[2] = trace;
            break;
          default:
            return piece;
        }
        return lead + parts.join(E);
      })
      .join(S)
  );
}
