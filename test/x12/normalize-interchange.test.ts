/**
 * normalizeInterchange reads an answer whose interchange a caller already read (ask-payer.ts reads a
 * route's first answer once for lacksBehavioralDetail and for the Coverage): it must answer exactly as
 * normalize271 on the text, on the corpus, the samples, random 271s and broken input alike, and
 * lacksBehavioralDetail must say the same of the read interchange as of the text.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { lacksBehavioralDetail } from '../../src/operations/service-types.ts';
import { build271, normalize271, normalizeInterchange, readInterchange, type TraceEntry } from '../../src/x12/index.ts';
import { corpus, encounterOf } from './corpus.ts';
import { coverageArbitrary, inquiryArbitrary } from './coverage-arbitrary.ts';
import { SAMPLES } from './x12-fixtures.ts';

function assertSame(text: string, what: string): void {
  const trace: TraceEntry[] = [];
  const again: TraceEntry[] = [];
  const encounter = { date_of_service: '2026-06-15', procedure_code: '90837', place_of_service: '02' };
  assert.deepEqual(normalizeInterchange(readInterchange(text)), normalize271(text), what);
  assert.deepEqual(normalizeInterchange(readInterchange(text), { trace, encounter }), normalize271(text, { trace: again, encounter }), what);
  assert.deepEqual(trace, again, `${what}: trace`);
  const read = readInterchange(text);
  if (read.ok) assert.equal(lacksBehavioralDetail(read), lacksBehavioralDetail(text), `${what}: lacksBehavioralDetail`);
}

test('normalizeInterchange answers as normalize271 on the corpus and the samples, whole and cut short', () => {
  const texts: [string, string][] = corpus().map((c) => [c.name, c.text]);
  for (const f of readdirSync(SAMPLES).filter((f) => f.endsWith('.271'))) texts.push([f, readFileSync(new URL(f, SAMPLES), 'latin1')]);
  assert.ok(texts.length > 20, 'the corpus is there');
  for (const [name, text] of texts) {
    assertSame(text, name);
    assertSame(text.slice(0, Math.floor(text.length / 2)), `${name}, first half`);
  }
  const c = corpus()[0]!;
  assert.deepEqual(normalizeInterchange(readInterchange(c.text), { encounter: encounterOf(c) }), normalize271(c.text, { encounter: encounterOf(c) }));
  assertSame('not x12', 'not x12');
});

test('normalizeInterchange answers as normalize271 on random 271s', () => {
  fc.assert(
    fc.property(coverageArbitrary, inquiryArbitrary, fc.nat(40), (coverage, inquiry, cut) => {
      const text = build271(inquiry, { kind: 'coverage', coverage }, { control_number: 7 });
      assertSame(text, 'built');
      // An edit inside the body: a segment dropped.
      const lines = text.split('\n');
      if (lines.length > 8)
        assertSame([...lines.slice(0, 4 + (cut % (lines.length - 6))), ...lines.slice(5 + (cut % (lines.length - 6)))].join('\n'), 'edited');
    }),
    { numRuns: 150 },
  );
});
