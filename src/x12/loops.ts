/**
 * The HL tree of a 270 or 271 transaction set: 2000A payer, 2000B information receiver,
 * 2000C subscriber, 2000D dependent; under each level its 2100 name loop, 2110 benefit (EB) or
 * inquiry (EQ) loops with their 2115 III segments and 2120 (LS ... LE) related entities.
 */
import type { Segment } from './tokenizer.ts';
import { el } from './tokenizer.ts';

export type HlKind = 'payer' | 'receiver' | 'subscriber' | 'dependent' | 'other';

/** 2120: an entity named inside a benefit (PCP, carve-out administrator, other payer, ...). */
export interface RelatedEntity {
  nm1: Segment;
  n3: Segment | null;
  n4: Segment | null;
  per: Segment[];
  prv: Segment | null;
}

/** 2110 (EB in a 271, EQ in a 270) with its 2115 III segments and 2120 entities. */
export interface BenefitLoop {
  seg: Segment;
  hsd: Segment[];
  ref: Segment[];
  dtp: Segment[];
  aaa: Segment[];
  msg: Segment[];
  iii: Segment[];
  related: RelatedEntity[];
  other: Segment[];
}

/** 2100: the person or organization of an HL level. */
export interface NameLoop {
  nm1: Segment;
  ref: Segment[];
  n3: Segment | null;
  n4: Segment | null;
  per: Segment[];
  aaa: Segment[];
  prv: Segment | null;
  dmg: Segment | null;
  ins: Segment | null;
  hi: Segment[];
  dtp: Segment[];
  mpi: Segment[];
  other: Segment[];
}

export interface HlLevel {
  hl: Segment;
  id: string;
  parent_id: string;
  /** HL03: 20 payer, 21 receiver, 22 subscriber, 23 dependent. */
  code: string;
  kind: HlKind;
  parent: HlLevel | null;
  children: HlLevel[];
  trn: Segment[];
  /** AAA directly in the 2000 level (before any NM1). */
  aaa: Segment[];
  names: NameLoop[];
  benefits: BenefitLoop[];
  other: Segment[];
}

export interface LoopTree {
  /** BHT and anything else before the first HL. */
  header: Segment[];
  /** Every HL level in document order. */
  levels: HlLevel[];
  roots: HlLevel[];
}

const KINDS: Record<string, HlKind> = { '20': 'payer', '21': 'receiver', '22': 'subscriber', '23': 'dependent' };

function newName(nm1: Segment): NameLoop {
  return { nm1, ref: [], n3: null, n4: null, per: [], aaa: [], prv: null, dmg: null, ins: null, hi: [], dtp: [], mpi: [], other: [] };
}

function newBenefit(seg: Segment): BenefitLoop {
  return { seg, hsd: [], ref: [], dtp: [], aaa: [], msg: [], iii: [], related: [], other: [] };
}

function newRelated(nm1: Segment): RelatedEntity {
  return { nm1, n3: null, n4: null, per: [], prv: null };
}

export function buildLoopTree(body: readonly Segment[]): { tree: LoopTree; warnings: string[] } {
  const header: Segment[] = [];
  const levels: HlLevel[] = [];
  const roots: HlLevel[] = [];
  const byId = new Map<string, HlLevel>();
  const warnings: string[] = [];
  let level: HlLevel | null = null;
  let name: NameLoop | null = null;
  let benefit: BenefitLoop | null = null;
  let inLs = false;
  let related: RelatedEntity | null = null;

  for (const seg of body) {
    if (seg.id === 'HL') {
      if (inLs) warnings.push(`LS at ${benefit?.seg.index ?? '?'} has no LE before HL at segment ${seg.index}`);
      const id = el(seg, 1);
      const parentId = el(seg, 2);
      const code = el(seg, 3);
      const parent = parentId ? (byId.get(parentId) ?? null) : null;
      if (parentId && !parent) warnings.push(`HL at segment ${seg.index} names parent ${parentId}, which does not precede it`);
      level = { hl: seg, id, parent_id: parentId, code, kind: KINDS[code] ?? 'other', parent, children: [], trn: [], aaa: [], names: [], benefits: [], other: [] };
      if (byId.has(id)) warnings.push(`duplicate HL ID ${id} at segment ${seg.index}`);
      byId.set(id, level);
      levels.push(level);
      (parent ? parent.children : roots).push(level);
      name = null;
      benefit = null;
      inLs = false;
      related = null;
      continue;
    }
    if (!level) {
      header.push(seg);
      continue;
    }
    switch (seg.id) {
      case 'TRN':
        level.trn.push(seg);
        break;
      case 'NM1':
        if (inLs && benefit) {
          related = newRelated(seg);
          benefit.related.push(related);
        } else if (benefit) {
          warnings.push(`NM1 at segment ${seg.index} follows a benefit outside LS/LE; read as a 2120 entity`);
          related = newRelated(seg);
          benefit.related.push(related);
        } else {
          name = newName(seg);
          level.names.push(name);
        }
        break;
      case 'EB':
      case 'EQ':
        if (inLs) warnings.push(`LS before segment ${seg.index} has no LE`);
        benefit = newBenefit(seg);
        level.benefits.push(benefit);
        inLs = false;
        related = null;
        break;
      case 'LS':
        if (benefit) {
          inLs = true;
          related = null;
        } else {
          level.other.push(seg);
        }
        break;
      case 'LE':
        if (!inLs) warnings.push(`LE at segment ${seg.index} without LS`);
        inLs = false;
        related = null;
        break;
      case 'N3':
      case 'N4':
      case 'PRV':
      case 'PER': {
        const key = seg.id === 'N3' ? 'n3' : seg.id === 'N4' ? 'n4' : seg.id === 'PRV' ? 'prv' : 'per';
        const target = related ?? (benefit ? null : name);
        if (!target) {
          (benefit ?? level).other.push(seg);
        } else if (key === 'per') {
          target.per.push(seg);
        } else if (target[key] === null) {
          target[key] = seg;
        } else {
          (benefit ?? name ?? level).other.push(seg);
        }
        break;
      }
      case 'AAA':
        (benefit ?? name ?? level).aaa.push(seg);
        break;
      case 'REF':
      case 'DTP':
        if (benefit) (seg.id === 'REF' ? benefit.ref : benefit.dtp).push(seg);
        else if (name) (seg.id === 'REF' ? name.ref : name.dtp).push(seg);
        else level.other.push(seg);
        break;
      case 'DMG':
      case 'INS':
        if (name && !benefit && name[seg.id === 'DMG' ? 'dmg' : 'ins'] === null) name[seg.id === 'DMG' ? 'dmg' : 'ins'] = seg;
        else (benefit ?? name ?? level).other.push(seg);
        break;
      case 'HI':
      case 'MPI':
        if (name && !benefit) name[seg.id === 'HI' ? 'hi' : 'mpi'].push(seg);
        else (benefit ?? level).other.push(seg);
        break;
      case 'HSD':
      case 'MSG':
      case 'III':
        if (benefit) benefit[seg.id === 'HSD' ? 'hsd' : seg.id === 'MSG' ? 'msg' : 'iii'].push(seg);
        else (name ?? level).other.push(seg);
        break;
      default:
        (benefit ?? name ?? level).other.push(seg);
    }
  }
  if (inLs) warnings.push('the last LS has no LE');
  return { tree: { header, levels, roots }, warnings };
}

/** All AAA segments of a level, in document order: the 2000 level, its 2100 loops, its 2110 loops. */
export function levelAaa(level: HlLevel): { seg: Segment; loop: '2000' | '2100' | '2110' }[] {
  const out: { seg: Segment; loop: '2000' | '2100' | '2110' }[] = [];
  for (const seg of level.aaa) out.push({ seg, loop: '2000' });
  for (const n of level.names) for (const seg of n.aaa) out.push({ seg, loop: '2100' });
  for (const b of level.benefits) for (const seg of b.aaa) out.push({ seg, loop: '2110' });
  return out;
}
