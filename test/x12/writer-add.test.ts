/** SegmentList.add and addAll (elements in an array) write what the former add wrote. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SegmentList, type Element } from '../../src/x12/writer.ts';

/** The former add(id, ...elements). */
function reference(id: string, elements: Element[]): string {
  let last = elements.length;
  while (last > 0 && !elements[last - 1]) last--;
  let s = id;
  for (let i = 0; i < last; i++) s += '*' + (elements[i] ?? '');
  return s;
}

const element = fc.oneof(fc.constant(''), fc.constant(null), fc.constant(undefined), fc.stringMatching(/^[A-Z0-9]{1,4}$/));

test('add and addAll equal the rest-array add for 0 to 13 elements', () => {
  fc.assert(
    fc.property(fc.array(element, { maxLength: 13 }), (elements) => {
      const a = new SegmentList();
      const b = new SegmentList();
      const [e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13] = elements;
      a.add('EB', e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13);
      b.addAll('EB', elements);
      const want = reference('EB', elements);
      assert.equal(a.lines[0], want);
      assert.equal(b.lines[0], want);
    }),
    { numRuns: 3000 },
  );
});
