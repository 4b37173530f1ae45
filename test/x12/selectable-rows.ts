/** Benefit rows (EB loops with their HSD, DTP, MSG...) read from segments as normalize-271 hands them to the benefit readers. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Selectable } from '../../src/x12/benefits/rows.ts';
import { buildLoopTree, el, tokenize } from '../../src/x12/index.ts';

const ISA = 'ISA*00*          *00*          *ZZ*S              *ZZ*R              *261127*0103*^*00501*000000004*0*T*:~';
const TIER: Record<string, number> = { MH: 0, A4: 1, '30': 3 };

/** The rows of `segments` (EB and what follows each), for the service types MH, A4 and 30, priced anywhere, restricted to no procedure. */
export function selectableRows(segments: readonly string[]): Selectable[] {
  const t = tokenize(`${ISA}HL*1**22*0~${segments.join('~')}~`);
  assert.ok(t.ok);
  return buildLoopTree(t.value.segments.slice(1))
    .tree.levels.flatMap((l) => l.benefits)
    .map((loop) => ({
      loop,
      info: el(loop.seg, 1),
      level: el(loop.seg, 2),
      tier: TIER[el(loop.seg, 3)]!,
      period: el(loop.seg, 6),
      net: el(loop.seg, 12),
      place: 'any',
      status: false,
      cost: true,
      deductibleHint: null,
      procedure: null,
    }));
}

/** Up to `maxLength` segments of `row`, with a permutation of their positions: another order to offer them in. */
export function inAnyOrder(row: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<[string[], number[]]> {
  return fc.array(row, { maxLength }).chain((segs) =>
    fc.tuple(
      fc.constant(segs),
      fc.shuffledSubarray(
        segs.map((_, i) => i),
        { minLength: segs.length, maxLength: segs.length },
      ),
    ),
  );
}
