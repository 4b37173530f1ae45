/**
 * A 271 as raw segments, for property tests that move, add or rewrite whole 2110 loops in the
 * corpus (corpus-properties.test.ts, corpus-metamorphic.test.ts): each piece as sent, terminator removed.
 */
export interface Pieces {
  prefix: string;
  terminator: string;
  element: string;
  component: string;
  pieces: string[];
}

/** A [start, end) piece range: one 2110C/2110D loop (EB and its subordinate segments). */
export type Loop = [number, number];

export function piecesOf(text: string): Pieces | null {
  const isa = text.indexOf('ISA');
  if (isa < 0 || text.length < isa + 106) return null;
  const terminator = text[isa + 105]!;
  const out = { prefix: text.slice(0, isa), terminator, element: text[isa + 3]!, component: text[isa + 104]!, pieces: text.slice(isa).split(terminator) };
  return join(out) === text ? out : null;
}

export const join = (p: Pieces) => p.prefix + p.pieces.join(p.terminator);
export const withPieces = (p: Pieces, pieces: string[]) => join({ ...p, pieces });
export const idOf = (p: Pieces, piece: string) => piece.trimStart().split(p.element)[0];

const LOOP_END = new Set(['EB', 'HL', 'SE', 'GE', 'IEA']);

/** Runs of consecutive 2110C/2110D loops, as piece ranges. */
export function loopRuns(p: Pieces): Loop[][] {
  const runs: Loop[][] = [];
  let run: Loop[] = [];
  let i = 0;
  while (i < p.pieces.length) {
    if (idOf(p, p.pieces[i]!) !== 'EB') {
      if (run.length > 0) runs.push(run);
      run = [];
      i++;
      continue;
    }
    let j = i + 1;
    while (j < p.pieces.length && !LOOP_END.has(idOf(p, p.pieces[j]!)!)) j++;
    run.push([i, j]);
    i = j;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** ISA11, the repetition separator, or null when it is not one (pre-5010 `U`). */
export function repetitionOf(p: Pieces): string | null {
  const r = p.pieces[0]!.split(p.element)[11] ?? '';
  return r.length === 1 && !/[A-Za-z0-9 ]/.test(r) ? r : null;
}

/** A segment written with `*`, `:` and `^` in the 271's own delimiters. */
export function enc(p: Pieces, seg: string): string {
  const rep = repetitionOf(p) ?? '^';
  return [...seg].map((ch) => (ch === '*' ? p.element : ch === ':' ? p.component : ch === '^' ? rep : ch)).join('');
}

/** The 271 with extra 2110 loops (segments written with `*`, `:`, `^`) appended after the last loop of the last run. */
export function withRows(p: Pieces, rows: string[][]): string {
  const runs = loopRuns(p);
  const at = runs[runs.length - 1]![runs[runs.length - 1]!.length - 1]![1];
  const extra = rows.map((segs) => segs.map((s) => enc(p, s)).join(p.terminator));
  return join({ ...p, pieces: [...p.pieces.slice(0, at), ...extra, ...p.pieces.slice(at)] });
}

export const d8 = (iso: string) => iso.replaceAll('-', '');

/** The fields of the answer that say what the session costs. */
export const MONEY_FIELDS = [
  'benefit_structure',
  'copayment',
  'coinsurance',
  'deductible',
  'remaining_deductible',
  'family_deductible',
  'family_remaining_deductible',
  'oop_max',
  'remaining_oop_max',
  'family_oop_max',
  'family_remaining_oop_max',
  'member_obligation',
  'payer_obligation',
  'pre_deductible_member_obligation',
  'pre_deductible_payer_obligation',
  'post_deductible_member_obligation',
  'post_deductible_payer_obligation',
  'post_oop_max_member_obligation',
  'post_oop_max_payer_obligation',
  'remaining_sessions_before_deductible',
  'remaining_sessions_before_oop_max',
  'telehealth',
  'visits_remaining',
] as const;
