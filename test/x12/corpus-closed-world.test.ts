/**
 * The closed world over the whole 271 corpus (docs/estimates.md 1.1, "Closed world"): a value inserted
 * into any EB row or its 2110/2115/2120 companions changes the /v1/estimate answer only to that value's
 * decided effect or to unknown, never to another price. Values are drawn from the code tables themselves
 * (every listed value of the elements below) and from outside them:
 *
 * - decided "ignored, because ..." (or an effect that says the price is unchanged: EB11): the money
 *   fields stay as they were;
 * - decided "unknown: ...", or outside every table: each money field that changes becomes null (the
 *   status may become 206 with an UNKNOWN_* code); none takes another value.
 *
 * Values decided as an effect that moves the price (EB13 HC restricting the row, a DTP 348 dating it,
 * III*ZZ*11 placing it, an NM101 PR naming a carve-out administrator) are the rules' own tests'.
 * Insertions: REF, DTP, AAA, III (GR/NI, and ZZ with an unassigned place), a 2120 loop (NM101 with
 * NM108 and PRV01), EB11, EB12, EB13-01, an EB03 repetition, HSD07/HSD08 in an HSD already sent, and
 * a 2100C/D DTP before the first EB.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { isCostInfo } from '../../src/x12/eb-benefit.ts';
import { isShareInfo } from '../../src/x12/benefits/rows.ts';
import { codeTable, decisionOf, type CodeTableName } from '../../src/x12/code-tables/index.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { corpus, encounterOf, type CorpusCase } from './corpus.ts';
import { d8, enc, idOf, loopRuns, MONEY_FIELDS as MONEY, piecesOf, repetitionOf, withPieces, type Loop, type Pieces } from './x12-pieces.ts';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function answer(c: CorpusCase, text: string): Answer | null {
  const encounter = encounterOf(c);
  const r = normalize271(text, { encounter, memberId: c.expect.request.member_id });
  if (!r.ok || r.value.kind !== 'coverage') return null;
  const { status, body } = estimateBody(withoutMedicalPrice(r.value.coverage), c.expect.request as EstimateRequest, c.expect.today, encounter.date_of_service);
  return { status, body: body as unknown as Record<string, unknown> };
}

const cases = corpus()
  .map((c) => ({ c, p: piecesOf(c.text) }))
  .filter((x): x is { c: CorpusCase; p: Pieces } => x.p !== null && loopRuns(x.p).length > 0)
  .map((x) => ({ ...x, base: answer(x.c, x.c.text), loops: loopRuns(x.p).flat() }))
  .filter((x): x is typeof x & { base: Answer } => x.base !== null);
type Case = (typeof cases)[number];

const UNKNOWN_CODES = new Set(['UNKNOWN_COSTSHARE', 'UNKNOWN_REMAININGS']);
const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/** '' when the money fields are unchanged. */
function same(a: Answer, b: Answer): string {
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} -> ${b.status}`);
  for (const k of [...MONEY, 'error_code']) if (!isDeepStrictEqual(a.body[k], b.body[k])) out.push(`${k} ${show(a.body[k])} -> ${show(b.body[k])}`);
  return out.join('; ');
}

/**
 * A field that states no figure: null, or a telehealth share whose copay and coinsurance are unknown (its
 * obligation is filled only when the known facts determine it, as under a gate: docs/estimates.md 9).
 */
function unknownValue(v: unknown): boolean {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  const t = v as Record<string, unknown>;
  return t['copayment'] === null && t['coinsurance'] === null;
}

/** '' when every money field that changed became unknown (null), and the answer became no more known. */
function towardUnknown(a: Answer, b: Answer): string {
  const out: string[] = [];
  if (a.status === 206 && b.status === 200) out.push('status 206 -> 200');
  for (const k of MONEY) if (!isDeepStrictEqual(a.body[k], b.body[k]) && !unknownValue(b.body[k])) out.push(`${k} ${show(a.body[k])} -> ${show(b.body[k])}`);
  const code = b.body['error_code'];
  if (!isDeepStrictEqual(a.body['error_code'], code) && !(typeof code === 'string' && UNKNOWN_CODES.has(code))) out.push(`error_code -> ${show(code)}`);
  return out.join('; ');
}

type Expect = 'same' | 'unknown';

/** A change to one 271: the text it gives (null: not applicable to this case), what to expect, and words for a finding. */
interface Change {
  text: string | null;
  expect: Expect;
  what: string;
}

/** Codes of a table with the decision on a row stating a figure or not; outside values are drawn separately. */
function decided(name: CodeTableName, figureRow: boolean, keep: (code: string) => boolean = () => true): { code: string; expect: Expect }[] {
  const out: { code: string; expect: Expect }[] = [];
  for (const [code, entry] of Object.entries(codeTable(name).codes)) {
    if (!keep(code)) continue;
    const d = decisionOf(entry, figureRow);
    if (d !== 'effect') out.push({ code, expect: d === 'unknown' ? 'unknown' : 'same' });
  }
  return out;
}

/** Codes in no table of the element: never a TR3 value (letters and digits no list uses). */
const OUTSIDE = ['Q7', 'QQ9', 'XZ', '0Q'];
const outsideOf = (name: CodeTableName) => OUTSIDE.filter((c) => !Object.hasOwn(codeTable(name).codes, c));
const UNKNOWN: Expect = 'unknown';
const SAME: Expect = 'same';
const outside = (name: CodeTableName) => outsideOf(name).map((code) => ({ code, expect: UNKNOWN }));

/** The TR3 order of a 2110 loop's segments: a new one goes after those listed before it. */
const AFTER: Record<string, ReadonlySet<string>> = {
  REF: new Set(['HSD', 'REF']),
  DTP: new Set(['HSD', 'REF', 'DTP']),
  AAA: new Set(['HSD', 'REF', 'DTP', 'AAA']),
  III: new Set(['HSD', 'REF', 'DTP', 'AAA', 'MSG', 'III']),
  LS: new Set(['HSD', 'REF', 'DTP', 'AAA', 'MSG', 'III', 'LS', 'NM1', 'N3', 'N4', 'PER', 'PRV', 'LE']),
};

function inLoop(p: Pieces, [a, b]: Loop, segs: string[]): string {
  const id = segs[0]!.split('*')[0]!;
  let at = a + 1;
  while (at < b && AFTER[id]!.has(idOf(p, p.pieces[at]!)!)) at++;
  return withPieces(p, [...p.pieces.slice(0, at), ...segs.map((s) => enc(p, s)), ...p.pieces.slice(at)]);
}

/** The piece with element n set (trailing elements padded). */
function setElement(p: Pieces, piece: string, n: number, value: string): string {
  const parts = piece.split(p.element);
  while (parts.length <= n) parts.push('');
  parts[n] = value;
  return parts.join(p.element);
}

const ebOf = (x: Case, loop: Loop) => x.p.pieces[loop[0]]!.split(x.p.element);
const figureRow = (info: string) => isCostInfo(info) || info === 'F' || isShareInfo(info);
const replaced = (x: Case, at: number, piece: string) =>
  withPieces(
    x.p,
    x.p.pieces.map((s, i) => (i === at ? piece : s)),
  );

/** Every change the property draws for one loop of one case, by kind. */
const KINDS: Record<string, (x: Case, loop: Loop, pick: number) => Change> = {
  REF(x, loop, pick) {
    const all = [...decided('ref-2110', true, (c) => c !== '18' && c !== 'G1'), ...outside('ref-2110')];
    const v = all[pick % all.length]!;
    return { text: inLoop(x.p, loop, [`REF*${v.code}*X12345`]), expect: v.expect, what: `REF*${v.code}` };
  },
  DTP(x, loop, pick) {
    const all = [...decided('dtp-2110', true), ...outside('dtp-2110')];
    const v = all[pick % all.length]!;
    return { text: inLoop(x.p, loop, [`DTP*${v.code}*D8*${d8(encounterOf(x.c).date_of_service)}`]), expect: v.expect, what: `DTP*${v.code}` };
  },
  AAA(x, loop, pick) {
    const all = [...decided('aaa03-2110', true), ...outside('aaa03-2110')];
    const v = all[pick % all.length]!;
    return { text: inLoop(x.p, loop, [`AAA*Y**${v.code}*C`]), expect: v.expect, what: `AAA*Y**${v.code}` };
  },
  III(x, loop, pick) {
    const all = [
      ...decided('iii', true).map((v) => ({ seg: `III*${v.code}*A1`, expect: v.expect })),
      ...['30', '77', '98'].map((place) => ({ seg: `III*ZZ*${place}`, expect: UNKNOWN })),
    ];
    const v = all[pick % all.length]!;
    return { text: inLoop(x.p, loop, [v.seg]), expect: v.expect, what: v.seg };
  },
  ENTITY(x, loop, pick) {
    // On a row stating a figure an entity is unknown (a provider the figure is with) or prices nothing; on another row
    // it names the entity (a carve-out administrator, the PCP, another payer): the rules' own tests'.
    if (!figureRow(ebOf(x, loop)[1] ?? '')) return { text: null, expect: 'same', what: '2120' };
    const nm101 = [
      ...Object.entries(codeTable('nm101-2120').codes).map(([code, e]) => ({
        code,
        expect: decisionOf(e, true) === 'unknown' ? UNKNOWN : SAME,
      })),
      ...outside('nm101-2120'),
    ];
    const nm108 = Object.keys(codeTable('nm108-2120').codes);
    const prv = Object.keys(codeTable('prv01').codes);
    const v = nm101[pick % nm101.length]!;
    const segs = ['LS*2120', `NM1*${v.code}*2*NAMED ENTITY*****${nm108[pick % nm108.length]}*ID77`, `PRV*${prv[pick % prv.length]}*PXC*101Y00000X`, 'LE*2120'];
    return { text: inLoop(x.p, loop, segs), expect: v.expect, what: segs.join('~') };
  },
  EB11(x, loop, pick) {
    const eb = ebOf(x, loop);
    if ((eb[11] ?? '') !== '') return { text: null, expect: 'same', what: 'EB11' };
    // Every EB11 value leaves the price as it was (an authorization is a condition of the claim); an outside one is unknown.
    const all = [...Object.keys(codeTable('eb11').codes).map((code) => ({ code, expect: SAME })), ...outside('eb11')];
    const v = all[pick % all.length]!;
    return { text: replaced(x, loop[0], setElement(x.p, x.p.pieces[loop[0]]!, 11, v.code)), expect: v.expect, what: `EB11 ${v.code}` };
  },
  EB12(x, loop, pick) {
    const eb = ebOf(x, loop);
    if ((eb[12] ?? '') !== '') return { text: null, expect: 'same', what: 'EB12' };
    const v = outsideOf('eb12')[pick % outsideOf('eb12').length]!;
    return { text: replaced(x, loop[0], setElement(x.p, x.p.pieces[loop[0]]!, 12, v)), expect: 'unknown', what: `EB12 ${v}` };
  },
  EB13(x, loop, pick) {
    const eb = ebOf(x, loop);
    if ((eb[13] ?? '') !== '') return { text: null, expect: 'same', what: 'EB13' };
    const all = [...decided('eb13-qualifier', true), ...outside('eb13-qualifier')];
    const v = all[pick % all.length]!;
    const procedure = encounterOf(x.c).procedure_code ?? '90834';
    const value = `${v.code}${x.p.component}${procedure}`;
    return { text: replaced(x, loop[0], setElement(x.p, x.p.pieces[loop[0]]!, 13, value)), expect: v.expect, what: `EB13 ${v.code}:${procedure}` };
  },
  EB03(x, loop, pick) {
    const eb = ebOf(x, loop);
    const rep = repetitionOf(x.p);
    if ((eb[3] ?? '') === '' || rep === null) return { text: null, expect: 'same', what: 'EB03' };
    // A repetition of a type that is no behavioral-health one and no inpatient/outpatient-only care: ignored.
    const ignored = Object.entries(codeTable('eb03').codes)
      .filter(([, e]) => decisionOf(e) === 'ignored' && e.tier === null && e.care === null)
      .map(([code]) => ({ code, expect: SAME }));
    const all = [...ignored, ...outside('eb03')];
    const v = all[pick % all.length]!;
    return { text: replaced(x, loop[0], setElement(x.p, x.p.pieces[loop[0]]!, 3, `${eb[3]}${rep}${v.code}`)), expect: v.expect, what: `EB03 +${v.code}` };
  },
  HSD(x, loop, pick) {
    for (let i = loop[0] + 1; i < loop[1]; i++) {
      if (idOf(x.p, x.p.pieces[i]!) !== 'HSD') continue;
      const parts = x.p.pieces[i]!.split(x.p.element);
      const n = pick % 2 === 0 ? 7 : 8;
      if ((parts[n] ?? '') !== '') continue;
      const table = n === 7 ? 'hsd07' : 'hsd08';
      const all = [...decided(table, true), ...outside(table)];
      const v = all[Math.floor(pick / 2) % all.length]!;
      return { text: replaced(x, i, setElement(x.p, x.p.pieces[i]!, n, v.code)), expect: v.expect, what: `HSD0${n} ${v.code}` };
    }
    return { text: null, expect: 'same', what: 'HSD' };
  },
  MEMBER_DTP(x, _loop, pick) {
    const dos = encounterOf(x.c).date_of_service;
    const before = pick % 2 === 0;
    const shifted = new Date(Date.parse(`${dos}T00:00:00Z`) + (before ? -40 : 40) * 86_400_000).toISOString().slice(0, 10);
    const all: { code: string; expect: Expect }[] = [];
    for (const [code, e] of Object.entries(codeTable('dtp-2100').codes)) {
      if (e.bounds) all.push({ code, expect: (e.bounds === 'end') === before ? 'unknown' : 'same' });
      else if (decisionOf(e) === 'ignored') all.push({ code, expect: 'same' });
    }
    all.push(...outside('dtp-2100'));
    const v = all[Math.floor(pick / 2) % all.length]!;
    const first = x.loops[0]![0];
    const seg = `DTP*${v.code}*D8*${d8(shifted)}`;
    return { text: withPieces(x.p, [...x.p.pieces.slice(0, first), enc(x.p, seg), ...x.p.pieces.slice(first)]), expect: v.expect, what: `2100 ${seg}` };
  },
};

const SEED = 271_005_011;

for (const [kind, change] of Object.entries(KINDS)) {
  test(`closed world over the corpus: a ${kind} value changes the answer only to its decided effect or to unknown`, () => {
    const findings: string[] = [];
    for (const x of cases) {
      const r = fc.check(
        fc.property(fc.nat(x.loops.length - 1), fc.nat(400), (l, pick) => {
          const ch = change(x, x.loops[l]!, pick);
          if (ch.text === null) return true;
          const next = answer(x.c, ch.text);
          if (next === null) return true;
          return (ch.expect === 'same' ? same(x.base, next) : towardUnknown(x.base, next)) === '';
        }),
        { numRuns: 25, seed: SEED },
      );
      if (r.failed && r.counterexample) {
        const [l, pick] = r.counterexample;
        const ch = change(x, x.loops[l]!, pick);
        const next = answer(x.c, ch.text!)!;
        findings.push(`${x.c.name}: ${ch.what} (${ch.expect}) => ${ch.expect === 'same' ? same(x.base, next) : towardUnknown(x.base, next)}`);
      }
    }
    assert.deepEqual(findings, []);
  });
}
