/**
 * byContent (src/x12/benefits/content-order.ts) orders EB rows by their content key without building it:
 * here the key is built as its definition says (the EB segment, then each subordinate segment, as
 * sent, joined by line breaks) and the orders compared, on loops close enough to share prefixes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { byContent } from '../../src/x12/benefits/content-order.ts';
import { buildLoopTree, tokenize, type BenefitLoop } from '../../src/x12/index.ts';

function contentKey(loop: BenefitLoop): string {
  let key = loop.seg.source();
  for (const list of [loop.hsd, loop.ref, loop.dtp, loop.msg, loop.iii]) for (const s of list) key += `\n${s.source()}`;
  for (const r of loop.related) key += `\n${r.nm1.source()}`;
  return key;
}

const ISA = 'ISA*00*          *00*          *ZZ*S              *ZZ*R              *261127*0103*^*00501*000000004*0*T*:~';
// Short pieces, so that EB segments are often equal or prefixes of each other; a tab and a control
// character sort below the key's line break; a line break inside a segment is cleaned out of it.
const ebTail = fc.array(fc.constantFrom('1', 'A', 'B', '*', '', 'MH', '30', '\t', '\u0001', '\r\n', 'é'), { maxLength: 6 });
const segment = fc.oneof(
  ebTail.map((xs) => `EB*${xs.join('')}`),
  fc.constantFrom('MSG*X', 'MSG*X*', 'DTP*348*D8*20200101', 'III*ZZ*11', 'REF*G1*1', 'LS*2120', 'NM1*PR*2*A', 'LE*2120', 'HSD*VS*1'),
);

test('byContent orders rows as their content keys compare, stable for equal keys, at any size', () => {
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 90 }), (segs) => {
      const t = tokenize(`${ISA}HL*1**22*0~${segs.join('~')}~`);
      if (!t.ok) return;
      const rows = buildLoopTree(t.value.segments.slice(1))
        .tree.levels.flatMap((l) => l.benefits)
        .map((loop) => ({ loop, info: '', key: contentKey(loop) }));
      const expected = rows.slice().sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      assert.deepEqual(
        byContent(rows).map((r) => r.loop.seg.index),
        expected.map((r) => r.loop.seg.index),
      );
    }),
    { numRuns: 1000 },
  );
});
