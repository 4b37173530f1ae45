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

function kindOf(code: string): HlKind {
  switch (code) {
    case '20':
      return 'payer';
    case '21':
      return 'receiver';
    case '22':
      return 'subscriber';
    case '23':
      return 'dependent';
    default:
      return 'other';
  }
}

/**
 * Most loops have no segments of most kinds: their lists start as this shared empty array and
 * get their own array on the first push (see add), which spares a 271 hundreds of allocations.
 * It is not frozen (a frozen array has another elements kind, which slows every loop over these
 * lists); add() is the only writer and never pushes into it.
 */
const NONE: never[] = [];

type ListKey<T> = { [K in keyof T]: T[K] extends Segment[] ? K : never }[keyof T] & string;

function add<T extends object>(owner: T, key: ListKey<T>, seg: Segment): void {
  const lists = owner as unknown as Record<string, Segment[]>;
  const list = lists[key]!;
  if (list === NONE) lists[key] = [seg];
  else list.push(seg);
}

function newName(nm1: Segment): NameLoop {
  return { nm1, ref: NONE, n3: null, n4: null, per: NONE, aaa: NONE, prv: null, dmg: null, ins: null, hi: NONE, dtp: NONE, mpi: NONE, other: NONE };
}

function newBenefit(seg: Segment): BenefitLoop {
  return { seg, hsd: NONE, ref: NONE, dtp: NONE, aaa: NONE, msg: NONE, iii: NONE, related: NONE, other: NONE };
}

function newRelated(nm1: Segment): RelatedEntity {
  return { nm1, n3: null, n4: null, per: NONE, prv: null };
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
      level = { hl: seg, id, parent_id: parentId, code, kind: kindOf(code), parent, children: [], trn: NONE, aaa: NONE, names: [], benefits: [], other: NONE };
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
        add(level, 'trn', seg);
        break;
      case 'NM1':
        if (benefit) {
          if (!inLs) warnings.push(`NM1 at segment ${seg.index} follows a benefit outside LS/LE; read as a 2120 entity`);
          related = newRelated(seg);
          benefit.related = benefit.related === NONE ? [related] : [...benefit.related, related];
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
          add(level, 'other', seg);
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
          add(benefit ?? level, 'other', seg);
        } else if (key === 'per') {
          add(target, 'per', seg);
        } else if (target[key] === null) {
          target[key] = seg;
        } else {
          add(benefit ?? name ?? level, 'other', seg);
        }
        break;
      }
      case 'AAA':
        add(benefit ?? name ?? level, 'aaa', seg);
        break;
      case 'REF':
      case 'DTP': {
        const key = seg.id === 'REF' ? 'ref' : 'dtp';
        if (benefit) add(benefit, key, seg);
        else if (name) add(name, key, seg);
        else add(level, 'other', seg);
        break;
      }
      case 'DMG':
      case 'INS': {
        const key = seg.id === 'DMG' ? 'dmg' : 'ins';
        if (name && !benefit && name[key] === null) name[key] = seg;
        else add(benefit ?? name ?? level, 'other', seg);
        break;
      }
      case 'HI':
      case 'MPI':
        if (name && !benefit) add(name, seg.id === 'HI' ? 'hi' : 'mpi', seg);
        else add(benefit ?? level, 'other', seg);
        break;
      case 'HSD':
      case 'MSG':
      case 'III':
        if (benefit) add(benefit, seg.id === 'HSD' ? 'hsd' : seg.id === 'MSG' ? 'msg' : 'iii', seg);
        else add(name ?? level, 'other', seg);
        break;
      default:
        add(benefit ?? name ?? level, 'other', seg);
    }
  }
  if (inLs) warnings.push('the last LS has no LE');
  return { tree: { header, levels, roots }, warnings };
}

/** The first AAA of a level's 2000 loop or its 2100 name loops. */
export function levelAaa(level: HlLevel): Segment | null {
  if (level.aaa.length > 0) return level.aaa[0]!;
  for (const n of level.names) if (n.aaa.length > 0) return n.aaa[0]!;
  return null;
}

/** The AAA segments inside a level's 2110 benefit loops. */
export function benefitAaa(level: HlLevel): Segment[] {
  const out: Segment[] = [];
  for (const b of level.benefits) if (b.aaa.length > 0) out.push(...b.aaa);
  return out;
}
