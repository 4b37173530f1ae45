/**
 * Our code tables (src/x12/code-tables/) checked against an outside, machine-readable copy of the TR3:
 * pyx12's map of the 005010X279A1 271 (test/fixtures/pyx12/README.md says where it comes from). Every
 * element with a code list in loops 2000C/D to 2120C/D must be decided by elements.json: by a table
 * holding each of the map's values (an effect, "ignored, because ..." or "unknown: ..."), or by one
 * decision for the whole element. The tables stay ours; the map only proves them complete.
 *
 * The map is read from PYX12_271_MAP, else from test/fixtures/pyx12/271.5010.X279.A1.xml; without
 * either the test is skipped with the reason (the always-run lists in code-tables.test.ts stand in).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ELEMENT_RULES, codeTable } from '../../src/x12/code-tables/index.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/pyx12/271.5010.X279.A1.xml', import.meta.url));
const MAP = process.env['PYX12_271_MAP'] ?? (existsSync(FIXTURE) ? FIXTURE : null);

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
function ruleKey(e: MapElement): string | null {
  const loop = e.loop.slice(0, 4);
  const full = `${loop} ${e.element}`;
  if (Object.hasOwn(ELEMENT_RULES, full)) return full;
  const segment = `${loop} ${/^[A-Z][A-Z0-9]*?(?=\d\d)/.exec(e.element)?.[0] ?? e.element}`;
  return Object.hasOwn(ELEMENT_RULES, segment) ? segment : null;
}

const MEMBER_LOOP = /^2(000|100|110|115|120)[CD]$/;

test(
  'every coded element of 2000C/D to 2120C/D in pyx12’s 271 map is decided by our tables, value by value',
  { skip: MAP === null ? 'no pyx12 map: set PYX12_271_MAP (test/fixtures/pyx12/README.md)' : false },
  () => {
    const elements = codedElements(readFileSync(MAP!, 'utf8')).filter((e) => MEMBER_LOOP.test(e.loop));
    // The map is the whole 271: a parse that found few elements read the wrong file.
    assert.ok(elements.length > 100, `only ${elements.length} coded elements in the member loops`);
    const missing: string[] = [];
    for (const e of elements) {
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
    assert.deepEqual(missing, []);
  },
);

test(
  'the map reader finds EB13-01, III01 and the 2100C DTP qualifiers (so a changed map cannot pass empty)',
  { skip: MAP === null ? 'no pyx12 map' : false },
  () => {
    const elements = codedElements(readFileSync(MAP!, 'utf8'));
    const codesOf = (loop: string, element: string) => elements.find((e) => e.loop === loop && e.element === element)?.codes ?? [];
    assert.deepEqual(codesOf('2110C', 'EB13-01'), ['AD', 'CJ', 'HC', 'ID', 'IV', 'N4', 'ZZ']);
    assert.deepEqual(codesOf('2115D', 'III01'), ['GR', 'NI', 'ZZ']);
    assert.ok(codesOf('2100C', 'DTP01').includes('341'));
    assert.equal(codesOf('2110C', 'EB03').length, 187);
  },
);

test('elements.json names only tables that exist, and decides a whole element with a reason', () => {
  for (const [key, rule] of Object.entries(ELEMENT_RULES)) {
    assert.match(key, /^2(000|100|110|115|120) [A-Z][A-Z0-9]*(-\d\d)?$/, key);
    if (rule.table !== undefined) assert.ok(codeTable(rule.table)?.codes, `${key}: table ${rule.table}`);
    else assert.ok((rule.decision ?? '').length > 10, `${key}: a decision with its reason`);
  }
});
