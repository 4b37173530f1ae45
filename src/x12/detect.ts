/** A cheap look at ST01 without tokenizing the whole interchange. */
import { locateIsa } from './delimiters.ts';

export function detectTransactionSet(text: string): '270' | '271' | '999' | null {
  try {
    const isa = locateIsa(text);
    if (!isa.ok) return null;
    const { element, segment } = isa.value.delimiters;
    let from = isa.value.end;
    const st = `ST${element}`;
    for (;;) {
      const at = text.indexOf(st, from);
      if (at < 0) return null;
      let before = at - 1;
      // Line breaks after a terminator are not data, unless the line break is the terminator itself.
      while (before > 0 && text.charAt(before) !== segment && (text.charCodeAt(before) === 10 || text.charCodeAt(before) === 13)) before--;
      if (text.charAt(before) === segment) {
        // ST01 is the three characters after "ST*" when the element or the text ends there.
        const start = at + 3;
        const id = text.slice(start, start + 3);
        const ends = start + 3 >= text.length || text.charAt(start + 3) === element;
        return ends && (id === '270' || id === '271' || id === '999') ? id : null;
      }
      from = at + 3;
    }
  } catch {
    return null;
  }
}
