import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_DELIMITERS, locateIsa, normalize271, tokenize, type Delimiters, type Segment } from '../../src/x12/index.ts';
import { SAMPLE, sample } from './x12-fixtures.ts';

interface Style {
  element: string;
  repetition: string;
  component: string;
  segment: string;
  after: string;
}

/** Re-serializes an interchange with other delimiters (the data holds none of them). */
function redelimit(text: string, s: Style): string {
  const t = tokenize(text);
  assert.ok(t.ok);
  const d = t.value.delimiters;
  const swap = (v: string) => v.split(d.repetition!).join(s.repetition).split(d.component).join(s.component);
  return t.value.segments
    .map((seg) => {
      const els = seg.elements.map((v, i) => (seg.id === 'ISA' && i === 11 ? s.repetition : seg.id === 'ISA' && i === 16 ? s.component : swap(v)));
      return els.join(s.element) + s.segment + s.after;
    })
    .join('');
}

/** Segments as comparable strings, repetitions and components in a neutral notation. */
const shape = (segs: Segment[], d: Delimiters = DEFAULT_DELIMITERS) =>
  segs.map((s) =>
    [s.id, ...s.elements.slice(1)]
      .map((v) =>
        s.id === 'ISA'
          ? v
          : v
              .split(d.repetition ?? '^')
              .join('\u0001')
              .split(d.component)
              .join('\u0002'),
      )
      .join('|'),
  );

test('tokenizes the sample with the delimiters its ISA declares', () => {
  const t = tokenize(sample(SAMPLE.subscriber271));
  assert.ok(t.ok);
  assert.deepEqual(t.value.delimiters, { element: '*', repetition: '^', component: ':', segment: '~' });
  const segs = t.value.segments;
  assert.equal(segs.length, 26);
  assert.equal(segs[0]!.id, 'ISA');
  assert.equal(segs[0]!.index, 1);
  assert.equal(segs[0]!.offset, 0);
  assert.equal(segs[1]!.id, 'GS');
  assert.equal(segs[1]!.offset, 107, 'the line break after the terminator is skipped');
  assert.deepEqual(segs.at(-1)!.elements, ['IEA', '1', '000000907']);
  assert.ok(t.value.segments.every((s, i) => s.index === i + 1));
});

test('non-default delimiters, newline terminators and CRLF read to the same segments and coverage', () => {
  const original = sample(SAMPLE.subscriber271);
  const base = tokenize(original);
  assert.ok(base.ok);
  const expected = normalize271(original);
  assert.ok(expected.ok);
  const styles: Style[] = [
    { element: '|', repetition: '^', component: '>', segment: '!', after: '' },
    { element: '|', repetition: '{', component: '\\', segment: '\n', after: '' },
    { element: '*', repetition: '^', component: ':', segment: '~', after: '\r\n' },
    { element: '*', repetition: '^', component: ':', segment: '~', after: '' },
    { element: '!', repetition: '+', component: '@', segment: "'", after: '\n' },
  ];
  for (const style of styles) {
    const text = redelimit(original, style);
    const t = tokenize(text);
    assert.ok(t.ok, JSON.stringify(style));
    assert.equal(t.value.delimiters.element, style.element);
    assert.equal(t.value.delimiters.segment, style.segment);
    assert.equal(t.value.delimiters.repetition, style.repetition);
    assert.equal(t.value.delimiters.component, style.component);
    assert.deepEqual(shape(t.value.segments, t.value.delimiters).slice(1), shape(base.value.segments).slice(1));
    const n = normalize271(text);
    assert.ok(n.ok);
    assert.deepEqual(n.value, expected.value, JSON.stringify(style));
  }
});

test('CRLF after the ISA makes CR the terminator; a stray CR inside a newline-terminated file is not data', () => {
  const lf = redelimit(sample(SAMPLE.subscriber271), { element: '*', repetition: '^', component: ':', segment: '\n', after: '' });
  const allCrlf = tokenize(lf.replace(/\n/g, '\r\n'));
  assert.ok(allCrlf.ok);
  assert.equal(allCrlf.value.delimiters.segment, '\r');
  const firstLine = lf.indexOf('\n') + 1;
  const mixed = tokenize(lf.slice(0, firstLine) + lf.slice(firstLine).replace(/\n/g, '\r\n'));
  assert.ok(mixed.ok);
  assert.equal(mixed.value.delimiters.segment, '\n');
  for (const t of [allCrlf, mixed]) {
    assert.ok(t.value.segments.every((s) => s.elements.every((v) => !v.includes('\r'))));
    assert.deepEqual(t.value.segments.at(-1)!.elements, ['IEA', '1', '000000907']);
    assert.equal(t.value.segments.length, 26);
  }
});

test('a file wrapped at 80 columns reads as if unwrapped', () => {
  const flat = sample(SAMPLE.dependent271).replace(/\n/g, '');
  const wrapped = flat.match(/.{1,80}/g)!.join('\r\n');
  const a = tokenize(flat);
  const b = tokenize(wrapped);
  assert.ok(a.ok && b.ok);
  assert.deepEqual(shape(b.value.segments), shape(a.value.segments));
});

test('ISA11 that is not a separator (pre-5010 "U") means no repetition separator', () => {
  const text = sample(SAMPLE.subscriber271).replace('*^*00501*', '*U*00501*');
  const t = tokenize(text);
  assert.ok(t.ok);
  assert.equal(t.value.delimiters.repetition, null);
});

test('leading byte-order mark and blank lines before ISA are accepted', () => {
  const t = tokenize(`\uFEFF\r\n  ${sample(SAMPLE.subscriber271)}`);
  assert.ok(t.ok);
  assert.equal(t.value.segments[0]!.id, 'ISA');
});

test('an unpadded ISA still yields its delimiters', () => {
  const isa = 'ISA*00**00**ZZ*S*ZZ*R*250101*1200*^*00501*1*0*T*:~';
  const loc = locateIsa(`${isa}GS*HB~`);
  assert.ok(loc.ok);
  assert.deepEqual(loc.value.delimiters, { element: '*', repetition: '^', component: ':', segment: '~' });
});

test('tokenizer errors carry a position', () => {
  const good = sample(SAMPLE.subscriber271);
  const cases: [string, string, RegExp, number | null][] = [
    ['empty', '', /empty input/, null],
    ['no ISA at all', `GS*HB*1~${good.replace(/ISA/g, 'IXA')}`, /does not start with an ISA/, 1],
    ['garbled separator', good.replace('ISA*', 'ISAX'), /garbled ISA/, 1],
    ['truncated ISA', good.slice(0, 60), /truncated ISA/, 1],
    ['delimiters not distinct', good.replace('*^*00501', '***00501'), /garbled ISA/, 1],
    ['unterminated last content segment', `${good.split('SE*')[0]!.trimEnd().slice(0, -1)}`, /no segment terminator/, 23],
    ['invalid segment id', good.replace('BHT*', 'B#T*'), /invalid segment ID "B#T"/, 4],
  ];
  for (const [name, text, message, index] of cases) {
    const t = tokenize(text);
    assert.equal(t.ok, false, name);
    if (t.ok) continue;
    assert.match(t.error.message, message, name);
    assert.equal(t.error.segment_index, index, name);
    assert.ok(t.error.offset !== null, `${name}: offset`);
  }
});

test('bytes before the ISA, an unterminated IEA and colliding ISA11/ISA16 are read with a warning (issue 14)', () => {
  const good = sample(SAMPLE.subscriber271);
  const prefixed = tokenize(`--MIMEBoundary\r\nContent-Type: application/EDI-X12\r\n\r\n${good}`);
  assert.ok(prefixed.ok);
  assert.equal(prefixed.value.segments.length, 26);
  assert.match(prefixed.warnings[0]!, /character\(s\) before the ISA header ignored/);
  const unterminated = tokenize(good.trimEnd().slice(0, -1));
  assert.ok(unterminated.ok);
  assert.equal(unterminated.value.segments.at(-1)?.element(2), '000000907');
  assert.match(unterminated.warnings[0]!, /last segment \(IEA\) has no segment terminator/);
  const collide = tokenize(good.replace('*^*00501', '*:*00501'));
  assert.ok(collide.ok);
  assert.equal(collide.value.delimiters.repetition, ':');
  assert.match(collide.warnings[0]!, /both ":"/);
});

test('an empty segment (doubled terminator) is skipped with a warning', () => {
  const t = tokenize(sample(SAMPLE.subscriber271).replace('BHT*', '~BHT*'));
  assert.ok(t.ok);
  assert.equal(t.value.segments.length, 26);
  assert.match(t.warnings[0]!, /empty segment/);
});

test('property: the tokenizer reads what a naive split by terminator and element separator reads', () => {
  const isa = sample(SAMPLE.subscriber271).slice(0, 106);
  assert.ok(isa.endsWith('~'));
  // Values hold the repetition and component separators (data to the tokenizer) and spaces, never a line break.
  const value = fc.string({ unit: fc.constantFrom('A', 'z', '0', '9', ' ', '.', '-', ':', '^', '&', '/'), maxLength: 8 });
  const segment = fc.tuple(fc.constantFrom('EB', 'NM1', 'DTP', 'REF', 'N3', 'HL', 'LS', 'LE', 'MSG', 'III', 'SE'), fc.array(value, { maxLength: 14 }));
  const after = fc.constantFrom('', '', '\n', '\r\n', ' ', '\t\n');
  fc.assert(
    fc.property(fc.array(fc.tuple(segment, after), { maxLength: 30 }), after, (segments, afterIsa) => {
      const text = isa + afterIsa + segments.map(([[id, values], gap]) => [id, ...values].join('*') + '~' + gap).join('');
      const naive = text
        .split('~')
        .map((s) => s.replace(/^[\r\n\t ]+/, ''))
        .filter((s) => s !== '')
        .map((s) => s.split('*'));
      const t = tokenize(text);
      assert.ok(t.ok, t.ok ? '' : t.error.message);
      assert.deepEqual(
        t.value.segments.map((s) => s.elements),
        naive,
      );
      assert.deepEqual(
        t.value.segments.map((s) => s.index),
        naive.map((_, i) => i + 1),
      );
    }),
    { numRuns: 300 },
  );
});

test('segments keep their own separator offsets after later documents reuse the scratch list', () => {
  const first = sample(SAMPLE.subscriber271);
  const a = tokenize(first);
  assert.ok(a.ok);
  const before = a.value.segments.map((s) => s.elements);
  // A longer document, then a shorter one, overwrite the scratch list the first was scanned into.
  assert.ok(tokenize(sample(SAMPLE.dependent271) + sample(SAMPLE.dependent271).slice(106)).ok);
  assert.ok(tokenize(sample(SAMPLE.subscriber270)).ok);
  assert.deepEqual(
    a.value.segments.map((s) => s.elements),
    before,
  );
  assert.equal(a.value.segments.at(-1)!.end, first.lastIndexOf('~'));
});
