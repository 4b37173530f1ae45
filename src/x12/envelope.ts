/**
 * Interchange structure: ISA/IEA, GS/GE and ST/SE. A missing SE or a misplaced envelope segment is
 * an error (the file is truncated or not X12); a missing GE or IEA after complete transaction sets,
 * and count and control-number mismatches, are warnings, because payers send such defects and the
 * content is still readable (test/fixtures/x12-samples/README.md, docs/estimates.md section 1.4).
 */
import type { Delimiters } from './delimiters.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { el, tokenize, type Segment } from './tokenizer.ts';

export interface Transaction {
  st: Segment;
  se: Segment;
  /** ST01: 270, 271, 999, ... */
  set_id: string;
  control_number: string;
  /** The segments between ST and SE. */
  body: Segment[];
}

export interface FunctionalGroup {
  gs: Segment;
  /** null when the sender left the GE out (read with a warning). */
  ge: Segment | null;
  transactions: Transaction[];
}

export interface Interchange {
  delimiters: Delimiters;
  isa: Segment;
  /** null when the sender left the IEA out (read with a warning). */
  iea: Segment | null;
  groups: FunctionalGroup[];
  segments: Segment[];
}

const where = (seg: Segment) => ({ index: seg.index, id: seg.id, offset: seg.offset });

/** Control numbers and counts compare as numbers: "000000907" equals "907". */
function trimZeros(s: string): string {
  const t = s.trim();
  let i = 0;
  while (i < t.length - 1 && t.charCodeAt(i) === 48) i++;
  return i === 0 ? t : t.slice(i);
}

/** The interchange's envelope and segments; never throws (result.ts guarded), as every reader of the engine. */
export function readInterchange(text: string): ParseResult<Interchange> {
  return guarded(() => readEnvelope(text));
}

function readEnvelope(text: string): ParseResult<Interchange> {
  // Positions of the envelope segments: the content segments between them are only checked to lie inside a transaction set.
  const envelope: number[] = [];
  const tokens = tokenize(text, envelope);
  if (!tokens.ok) return tokens;
  const { delimiters, segments } = tokens.value;
  const warnings = [...tokens.warnings];
  const isa = segments[0];
  if (!isa) return fail('no ISA segment', { offset: 0 });
  if (isa.count !== 17) warnings.push(`ISA has ${isa.count - 1} elements, expected 16`);
  const groups: FunctionalGroup[] = [];
  let gs: Segment | null = null;
  let groupTx: Transaction[] = [];
  let st: Segment | null = null;
  let iea: Segment | null = null;
  let stCount = 0;
  let k = 1;
  for (let e = 0; e <= envelope.length; e++) {
    const next = e < envelope.length ? envelope[e]! : segments.length;
    if (next < k) continue;
    if (k < next) {
      // Content segments k .. next - 1.
      if (iea) {
        warnings.push(`${segments.length - k} segment(s) after IEA ignored`);
        break;
      }
      if (!st) {
        const first = segments[k]!;
        return fail(`${first.id} at segment ${first.index} is outside a transaction set (ST/SE)`, where(first));
      }
    }
    if (next === segments.length) break;
    k = next + 1;
    const seg = segments[next]!;
    if (iea) {
      warnings.push(
        seg.id === 'ISA'
          ? `a second interchange starts at segment ${seg.index}; only the first is read`
          : `${segments.length - next} segment(s) after IEA ignored`,
      );
      break;
    }
    switch (seg.id) {
      case 'ISA':
        return fail(`ISA at segment ${seg.index} inside an open interchange (missing IEA)`, where(seg));
      case 'GS':
        if (st) return fail(`GS at segment ${seg.index} inside an open transaction set (missing SE)`, where(seg));
        if (gs) return fail(`GS at segment ${seg.index} inside an open functional group (missing GE)`, where(seg));
        gs = seg;
        groupTx = [];
        break;
      case 'ST':
        if (!gs) return fail(`ST at segment ${seg.index} outside a functional group (missing GS)`, where(seg));
        if (st) return fail(`ST at segment ${seg.index} inside an open transaction set (missing SE)`, where(seg));
        st = seg;
        stCount++;
        break;
      case 'SE': {
        if (!st) return fail(`SE at segment ${seg.index} without a matching ST`, where(seg));
        const count = seg.index - st.index + 1;
        if (el(seg, 1).trim() !== String(count)) {
          warnings.push(`SE01 segment count ${el(seg, 1)} at segment ${seg.index} does not match the ${count} segments of the transaction set`);
        }
        if (el(seg, 2).trim() !== el(st, 2).trim()) {
          warnings.push(`SE02 control number ${el(seg, 2)} at segment ${seg.index} does not match ST02 ${el(st, 2)}`);
        }
        groupTx.push({ st, se: seg, set_id: el(st, 1), control_number: el(st, 2), body: segments.slice(st.index, seg.index - 1) });
        st = null;
        break;
      }
      case 'GE':
        if (st) return fail(`GE at segment ${seg.index} inside an open transaction set (missing SE)`, where(seg));
        if (!gs) return fail(`GE at segment ${seg.index} without a matching GS`, where(seg));
        if (trimZeros(el(seg, 1)) !== String(groupTx.length)) {
          warnings.push(`GE01 transaction count ${el(seg, 1)} at segment ${seg.index} does not match the ${groupTx.length} transaction set(s)`);
        }
        if (trimZeros(el(seg, 2)) !== trimZeros(el(gs, 6))) {
          warnings.push(`GE02 control number ${el(seg, 2)} at segment ${seg.index} does not match GS06 ${el(gs, 6)}`);
        }
        groups.push({ gs, ge: seg, transactions: groupTx });
        gs = null;
        break;
      case 'IEA':
        if (st) return fail(`IEA at segment ${seg.index} inside an open transaction set (missing SE)`, where(seg));
        if (gs) {
          // Every transaction set is closed: the GE alone is missing and the content is whole.
          warnings.push(`the functional group (GS at segment ${gs.index}) has no GE; closed at the IEA at segment ${seg.index}`);
          groups.push({ gs, ge: null, transactions: groupTx });
          gs = null;
        }
        if (trimZeros(el(seg, 1)) !== String(groups.length)) {
          warnings.push(`IEA01 group count ${el(seg, 1)} at segment ${seg.index} does not match the ${groups.length} functional group(s)`);
        }
        if (trimZeros(el(seg, 2)) !== trimZeros(el(isa, 13))) {
          warnings.push(`IEA02 control number ${el(seg, 2)} at segment ${seg.index} does not match ISA13 ${el(isa, 13)}`);
        }
        iea = seg;
        break;
      case 'TA1':
        if (gs) return fail(`TA1 at segment ${seg.index} inside a functional group`, where(seg));
        break;
    }
  }
  const end = { index: segments.length + 1, offset: text.length };
  if (st) return fail(`truncated: transaction set ${el(st, 2)} (ST at segment ${st.index}) has no SE`, { ...end, id: 'SE' });
  if (gs) {
    warnings.push(`the functional group (GS at segment ${gs.index}) has no GE; its transaction sets are complete`);
    groups.push({ gs, ge: null, transactions: groupTx });
  }
  if (!iea) warnings.push('the interchange has no IEA; its transaction sets are complete');
  if (stCount === 0) {
    const last = iea ?? segments[segments.length - 1]!;
    return fail('the interchange holds no transaction set (no ST)', { index: last.index, id: last.id, offset: last.offset });
  }
  return ok({ delimiters, isa, iea, groups, segments }, warnings);
}

/** The first transaction set with the given ST01, with the GS that holds it. */
export function findTransaction(ic: Interchange, setId: string): { group: FunctionalGroup; tx: Transaction } | null {
  for (const group of ic.groups) {
    for (const tx of group.transactions) if (tx.set_id === setId) return { group, tx };
  }
  return null;
}

/** The error of a reader that found no `setId` transaction set in the interchange: what the first one is instead. */
export function wrongTransaction<T>(ic: Interchange, setId: string): ParseResult<T> {
  const first = allTransactions(ic)[0];
  return fail(`expected a ${setId} transaction set, found ${first ? first.set_id : 'none'}`, {
    index: first?.st.index ?? null,
    id: 'ST',
    offset: first?.st.offset ?? null,
  });
}

export function allTransactions(ic: Interchange): Transaction[] {
  if (ic.groups.length === 1) return ic.groups[0]!.transactions;
  const out: Transaction[] = [];
  for (const g of ic.groups) out.push(...g.transactions);
  return out;
}
