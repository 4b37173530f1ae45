/**
 * The bundle's source maps map our sources token by token and the dependencies line by line
 * (scripts/source-maps.mjs): every generated position keeps its original file and line, and in src/
 * its column. Checked with Node's own source map reader on random maps.
 */
import assert from 'node:assert/strict';
import { SourceMap } from 'node:module';
import { test } from 'node:test';
import fc from 'fast-check';
import { coarsenMappings, decodeMappings, encodeMappings, type Segment } from '../../scripts/source-maps.mjs';

const SOURCES = ['../../../src/x12/a.ts', '../../../node_modules/dep/b.js', '../../../src/http/c.ts', '../../../node_modules/@s/d/e.js'];
const isOurs = (source: string) => !source.includes('node_modules/');

/** Lines of segments with increasing columns, some unmapped (one number), some named. */
const lines = fc.array(
  fc
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: 40 }),
        fc.option(fc.tuple(fc.integer({ min: 0, max: SOURCES.length - 1 }), fc.nat(500), fc.nat(120), fc.option(fc.nat(2))), { freq: 5 }),
      ),
      { maxLength: 8 },
    )
    .map((raw) => {
      let column = -1;
      return raw.map(([step, mapped]): Segment => {
        column += step + 1;
        if (!mapped) return [column];
        const [source, line, col, name] = mapped;
        return name === null ? [column, source, line, col] : [column, source, line, col, name];
      });
    }),
  { minLength: 1, maxLength: 25 },
);

test('mappings decode to what was encoded', () => {
  fc.assert(fc.property(lines, (l) => assert.deepEqual(decodeMappings(encodeMappings(l)), l)));
});

test('every generated position keeps its file and line, and its column in our sources', () => {
  fc.assert(
    fc.property(lines, (l) => {
      const original = {
        version: 3,
        file: 'chunk.js',
        sourceRoot: '',
        sourcesContent: [],
        sources: SOURCES,
        names: ['x', 'y', 'z'],
        mappings: encodeMappings(l),
      };
      const coarse = coarsenMappings(original, isOurs);
      // Both read with a trailing ';': Node's reader takes a one-number segment that ends the string for a mapped one.
      const before = new SourceMap({ ...original, mappings: `${original.mappings};` });
      const after = new SourceMap({ ...coarse, mappings: `${coarse.mappings};` });
      for (let line = 0; line <= l.length; line++) {
        for (let column = 0; column < 340; column += 3) {
          const was = before.findEntry(line, column) as { originalSource?: string; originalLine?: number; originalColumn?: number };
          const now = after.findEntry(line, column) as typeof was;
          assert.deepEqual([now.originalSource, now.originalLine], [was.originalSource, was.originalLine], `${line}:${column}`);
          if (was.originalSource !== undefined && isOurs(was.originalSource)) assert.equal(now.originalColumn, was.originalColumn, `${line}:${column}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('the dependencies keep one segment per line, ours every one', () => {
  const map = {
    version: 3,
    sources: SOURCES,
    names: [],
    mappings: encodeMappings([
      [
        [0, 1, 10, 0],
        [4, 1, 10, 4],
        [9, 1, 10, 9],
        [12, 0, 3, 0],
        [15, 0, 3, 3],
        [20, 1, 10, 20],
        [24, 1, 11, 0],
      ],
    ]),
  };
  assert.deepEqual(decodeMappings(coarsenMappings(map, isOurs).mappings), [
    [
      [0, 1, 10, 0],
      [12, 0, 3, 0],
      [15, 0, 3, 3],
      [20, 1, 10, 20],
      [24, 1, 11, 0],
    ],
  ]);
});
