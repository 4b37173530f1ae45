/**
 * Reads pyx12's machine-readable map of the 005010X279A1 271 (an outside copy of the TR3's code lists)
 * and finds what our code tables (src/x12/code-tables/, decided by elements.json) leave undecided in
 * loops 2000C/D to 2120C/D. The map is vendored in test/fixtures/pyx12/ (README.md there says where it
 * comes from) and test/x12/code-tables-pyx12.test.ts runs the check on it;
 * `node --import tsx scripts/check-code-tables-pyx12.ts MAP.xml` runs it on another copy.
 */
import { ELEMENT_RULES, codeTable } from '../src/x12/code-tables/index.ts';

/** One coded element of the map: its loop (2110C), element (EB13-01) and listed values (none for an external list). */
export interface MapElement {
  loop: string;
  element: string;
  codes: string[];
  external: string | null;
}

/** Every element with a code list (<valid_codes>), with the loop it sits in, from pyx12's map XML. */
export function codedElements(xml: string): MapElement[] {
  const out: MapElement[] = [];
  const loops: string[] = [];
  let element: MapElement | null = null;
  let inCodes = false;
  for (const m of xml.matchAll(/<(\/?)(loop|element|valid_codes|code)\b([^>]*)>([^<]*)/g)) {
    const [, close, tag, attrs, text] = m;
    if (tag === 'loop') {
      if (close) loops.pop();
      else loops.push(/xid="([^"]+)"/.exec(attrs!)?.[1] ?? '');
    } else if (tag === 'element') {
      if (close) {
        if (element !== null && (element.codes.length > 0 || element.external !== null)) out.push(element);
        element = null;
      } else element = { loop: loops[loops.length - 1] ?? '', element: /xid="([^"]+)"/.exec(attrs!)?.[1] ?? '', codes: [], external: null };
    } else if (tag === 'valid_codes') {
      inCodes = !close && !attrs!.trimEnd().endsWith('/');
      if (!close && element) element.external = /external="([^"]+)"/.exec(attrs!)?.[1] ?? null;
    } else if (tag === 'code' && !close && inCodes && element) element.codes.push(text!.trim());
  }
  return out;
}

/** The elements.json key of a map element: "2110 EB13-01", or the segment alone ("2100 HI") when only it is listed. */
export function ruleKey(e: MapElement): string | null {
  const loop = e.loop.slice(0, 4);
  const full = `${loop} ${e.element}`;
  if (Object.hasOwn(ELEMENT_RULES, full)) return full;
  const segment = `${loop} ${/^[A-Z][A-Z0-9]*?(?=\d\d)/.exec(e.element)?.[0] ?? e.element}`;
  return Object.hasOwn(ELEMENT_RULES, segment) ? segment : null;
}

export const MEMBER_LOOP = /^2(000|100|110|115|120)[CD]$/;

/** Each value of a member-loop element of the map that no table decides ("2110C EB13-01 ZZ: not in eb13.json"). */
export function undecided(elements: readonly MapElement[]): string[] {
  const missing: string[] = [];
  for (const e of elements.filter((x) => MEMBER_LOOP.test(x.loop))) {
    const key = ruleKey(e);
    if (key === null) {
      missing.push(`${e.loop} ${e.element}: no rule in elements.json`);
      continue;
    }
    const rule = ELEMENT_RULES[key]!;
    if (rule.table === undefined) continue;
    const codes = codeTable(rule.table).codes;
    for (const c of e.codes) if (!Object.hasOwn(codes, c)) missing.push(`${e.loop} ${e.element} ${c}: not in ${rule.table}.json`);
  }
  return missing;
}
