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
 * Most loops have no segments of most kinds, and most levels no children: their lists start as
 * this shared empty array and get their own array on the first item (see added), which spares a
 * 271 hundreds of allocations.
 * It is not frozen (a frozen array has another elements kind, which slows every loop over these
 * lists); added() is the only writer and never pushes into it.
 */
const NONE: never[] = [];

/**
 * `list` with `item` appended. Each caller names the list it grows (owner.msg = added(owner.msg, seg)):
 * a property named in the code is a fixed-offset load and store, where a key passed in a variable
 * was a generic keyed access on every segment.
 */
function added<T>(list: T[], item: T): T[] {
  if (list === NONE) return [item];
  list.push(item);
  return list;
}

function addOther(owner: HlLevel | NameLoop | BenefitLoop, seg: Segment): void {
  owner.other = added(owner.other, seg);
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
  let header: Segment[] = NONE;
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
      level = {
        hl: seg,
        id,
        parent_id: parentId,
        code,
        kind: kindOf(code),
        parent,
        children: NONE,
        trn: NONE,
        aaa: NONE,
        names: NONE,
        benefits: NONE,
        other: NONE,
      };
      if (byId.has(id)) warnings.push(`duplicate HL ID ${id} at segment ${seg.index}`);
      byId.set(id, level);
      levels.push(level);
      if (parent) parent.children = added(parent.children, level);
      else roots.push(level);
      name = null;
      benefit = null;
      inLs = false;
      related = null;
      continue;
    }
    if (!level) {
      header = added(header, seg);
      continue;
    }
    // Cases in the order of how often a 271 holds them: a switch on strings tests them one by one.
    switch (seg.id) {
      case 'EB':
      case 'EQ':
        if (inLs) warnings.push(`LS before segment ${seg.index} has no LE`);
        benefit = newBenefit(seg);
        level.benefits = added(level.benefits, benefit);
        inLs = false;
        related = null;
        break;
      case 'NM1':
        if (benefit) {
          if (!inLs) warnings.push(`NM1 at segment ${seg.index} follows a benefit outside LS/LE; read as a 2120 entity`);
          related = newRelated(seg);
          benefit.related = added(benefit.related, related);
        } else {
          name = newName(seg);
          level.names = added(level.names, name);
        }
        break;
      case 'MSG':
        if (benefit) benefit.msg = added(benefit.msg, seg);
        else addOther(name ?? level, seg);
        break;
      case 'DTP':
        if (benefit) benefit.dtp = added(benefit.dtp, seg);
        else if (name) name.dtp = added(name.dtp, seg);
        else level.other = added(level.other, seg);
        break;
      case 'REF':
        if (benefit) benefit.ref = added(benefit.ref, seg);
        else if (name) name.ref = added(name.ref, seg);
        else level.other = added(level.other, seg);
        break;
      case 'III':
        if (benefit) benefit.iii = added(benefit.iii, seg);
        else addOther(name ?? level, seg);
        break;
      case 'LS':
        if (benefit) {
          inLs = true;
          related = null;
        } else {
          level.other = added(level.other, seg);
        }
        break;
      case 'LE':
        if (!inLs) warnings.push(`LE at segment ${seg.index} without LS`);
        inLs = false;
        related = null;
        break;
      case 'PER':
        if (related) related.per = added(related.per, seg);
        else if (name && !benefit) name.per = added(name.per, seg);
        else addOther(benefit ?? name ?? level, seg);
        break;
      case 'N3':
      case 'N4':
      case 'PRV': {
        const target = related ?? (benefit ? null : name);
        const key = seg.id === 'N3' ? 'n3' : seg.id === 'N4' ? 'n4' : 'prv';
        if (target && target[key] === null) target[key] = seg;
        else addOther(benefit ?? name ?? level, seg);
        break;
      }
      case 'AAA':
        if (benefit) benefit.aaa = added(benefit.aaa, seg);
        else if (name) name.aaa = added(name.aaa, seg);
        else level.aaa = added(level.aaa, seg);
        break;
      case 'TRN':
        level.trn = added(level.trn, seg);
        break;
      case 'DMG':
        if (name && !benefit && name.dmg === null) name.dmg = seg;
        else addOther(benefit ?? name ?? level, seg);
        break;
      case 'INS':
        if (name && !benefit && name.ins === null) name.ins = seg;
        else addOther(benefit ?? name ?? level, seg);
        break;
      case 'HSD':
        if (benefit) benefit.hsd = added(benefit.hsd, seg);
        else addOther(name ?? level, seg);
        break;
      case 'HI':
        if (name && !benefit) name.hi = added(name.hi, seg);
        else addOther(benefit ?? name ?? level, seg);
        break;
      case 'MPI':
        if (name && !benefit) name.mpi = added(name.mpi, seg);
        else addOther(benefit ?? name ?? level, seg);
        break;
      default:
        addOther(benefit ?? name ?? level, seg);
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
