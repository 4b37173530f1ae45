/**
 * lacksBehavioralDetail reads a 271 without tokenizing it (src/operations/service-types.ts); its answer
 * must be the one the tokenizing version below (its code before) gives on every input: built 271s,
 * the same mutated (segments dropped, doubled, re-identified, EB03s rewritten, blanks and line breaks
 * anywhere, other delimiters, non-ASCII, truncation), and junk.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lacksBehavioralDetail } from '../../src/operations/service-types.ts';
import { STRONG_BH_TIER, tierOf } from '../../src/x12/codes.ts';
import { build270, build271, build999, el, locateIsa, repetitions, tokenize } from '../../src/x12/index.ts';
import { coverageArbitrary, inquiryArbitrary } from '../x12/coverage-arbitrary.ts';
import { body271, interchange, SAMPLE, sample } from '../x12/x12-fixtures.ts';

/** The function before: tokenize the whole document, then read each EB's EB03 repetitions. */
function lacksBehavioralDetailBefore(x12: string): boolean {
  const tokens = tokenize(x12);
  if (!tokens.ok) return false;
  let benefits = 0;
  for (const seg of tokens.value.segments) {
    if (seg.id !== 'EB') continue;
    benefits++;
    for (const code of repetitions(el(seg, 3), tokens.value.delimiters)) {
      const tier = tierOf(code);
      if (tier >= 0 && tier <= STRONG_BH_TIER) return false;
    }
  }
  return benefits > 0;
}

const CODES = ['30', '98', 'MH', 'CF', 'A4', 'A6', 'A7', 'A8', 'AI', '1', '33', 'UC', 'BB', 'MHX', 'M', 'mh', 'A', ''];
const SEPARATORS = ['^', ':', '*', '~', '|', '', ' ', '\n'];
const code = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...CODES) }, { weight: 1, arbitrary: fc.string({ maxLength: 3, unit: 'binary' }) });
const eb03 = fc
  .tuple(fc.array(code, { maxLength: 4 }), fc.constantFrom(...SEPARATORS), fc.constantFrom('^', '^', '^', ''))
  .map(([codes, sep, rep]) => codes.join(sep === '' ? rep : sep));

/** An EB segment: its EB01, EB02, EB03 and a tail of elements (sometimes fewer than three elements). */
const ebSegment = fc
  .tuple(
    fc.constantFrom('1', 'B', 'C', 'A', 'L', 'U', 'R', ''),
    fc.constantFrom('', 'IND', 'FAM'),
    eb03,
    fc.constantFrom('', '*C1', '**27*25', '*****Y'),
    fc.nat(3),
  )
  .map(([eb01, eb02, codes, tail, shape]) => ['EB', `EB*${eb01}`, `EB*${eb01}*${eb02}`, `EB*${eb01}*${eb02}*${codes}${tail}`][shape === 3 ? 3 : shape]!);

const built271 = fc.tuple(coverageArbitrary, inquiryArbitrary).map(([coverage, inquiry]) => build271(inquiry, { kind: 'coverage', coverage }));
const handWritten271 = fc
  .array(
    fc.oneof({ weight: 4, arbitrary: ebSegment }, { weight: 1, arbitrary: fc.constantFrom('MSG*NOTE', 'III*ZZ*02', 'LS*2120', 'LE*2120', 'AAA*N**75*C') }),
    {
      maxLength: 8,
    },
  )
  .map((segs) => interchange('271', body271(segs)));
const documents = fc.oneof(
  built271,
  handWritten271,
  handWritten271,
  fc.constantFrom(...Object.values(SAMPLE).map(sample)),
  inquiryArbitrary.map((inquiry) => build270(inquiry)),
  inquiryArbitrary.map((inquiry) => build999(build270(inquiry), [{ segment_id: 'NM1', position: 5, code: '8', description: '' }])),
);

/** The document's segments without terminators or the blanks after them. */
function segmentsOf(doc: string): string[] {
  const isa = locateIsa(doc);
  const terminator = isa.ok ? isa.value.delimiters.segment : '~';
  return doc
    .split(terminator)
    .map((s) => s.replace(/^[\r\n\t ]+/, ''))
    .filter((s) => s !== '');
}

const junkId = fc.constantFrom('EB', 'eb', 'E B', 'EB1', 'EBX', 'E', 'E\nB', 'E\r\nB', '', '1EB', 'É', 'IEA', 'GE', 'ISA', 'ZZZZ');
const blank = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('', '\n', '\r\n', '\r', ' ', '\t', '\n\n') },
  { weight: 1, arbitrary: fc.constantFrom('\u00a0', '\ufeff', 'x') },
);
const odd = fc.oneof(
  fc.constantFrom('\n', '\r', '\r\n', ' ', '\t', 'é', '€', '\u{1f600}', '\u0000', '~', '*', '^', ':', '|'),
  fc.string({ maxLength: 3, unit: 'binary' }),
);

type Edit =
  | { op: 'drop' | 'double' | 'empty'; at: number }
  | { op: 'eb03'; at: number; value: string }
  | { op: 'id'; at: number; id: string }
  | { op: 'insert'; at: number; pos: number; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constantFrom('drop' as const, 'double' as const, 'empty' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('eb03' as const), at: fc.nat(), value: eb03 }),
  fc.record({ op: fc.constant('id' as const), at: fc.nat(), id: junkId }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), pos: fc.nat(), text: odd }),
);

function applyEdit(segs: string[], e: Edit): void {
  if (segs.length === 0) return;
  const ebs = segs.flatMap((s, i) => (s.startsWith('EB') ? [i] : []));
  const at = (e.op === 'eb03' || e.op === 'id') && ebs.length > 0 && e.at % 2 === 0 ? ebs[e.at % ebs.length]! : e.at % segs.length;
  const seg = segs[at]!;
  switch (e.op) {
    case 'drop':
      segs.splice(at, 1);
      break;
    case 'double':
      segs.splice(at, 0, seg);
      break;
    case 'empty':
      segs.splice(at, 0, '');
      break;
    case 'eb03': {
      const els = seg.split('*');
      while (els.length < 4) els.push('');
      els[3] = e.value;
      segs[at] = els.join('*');
      break;
    }
    case 'id':
      segs[at] = e.id + seg.slice(seg.indexOf('*') < 0 ? seg.length : seg.indexOf('*'));
      break;
    case 'insert': {
      const pos = e.pos % (seg.length + 1);
      segs[at] = seg.slice(0, pos) + e.text + seg.slice(pos);
      break;
    }
  }
}

/** Other delimiters for the same document: element, repetition, component, segment (a letter repetition is none). */
const delimiterSets = fc.constantFrom(
  ['*', '^', ':', '~'],
  ['|', '^', '>', '\n'],
  ['\t', '!', ':', '~'],
  ['*', 'U', ':', '~'],
  ['*', ':', ':', '~'],
  ['+', '{', '}', "'"],
  ['*', '\r', ':', '~'],
  ['*', '^', ':', '\r'],
  ['~', '^', ':', '*'],
);

function redelimit(doc: string, [e, r, c, s]: readonly string[]): string {
  const map: Record<string, string> = { '*': e!, '^': r!, ':': c!, '~': s! };
  // The repetition separator is read from ISA11 and the component one from ISA16; both are rewritten with the rest.
  return doc.replace(/[*^:~]/g, (ch) => map[ch]!);
}

/** `arb` one time in `odds + 1`, else null. */
const sometimes = <T>(odds: number, arb: fc.Arbitrary<T>) => fc.oneof({ weight: odds, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const mutated = fc
  .record({
    doc: documents,
    edits: fc.array(edit, { maxLength: 4 }),
    joins: fc.array(blank, { minLength: 1, maxLength: 4 }),
    delimiters: sometimes(2, delimiterSets),
    cut: sometimes(4, fc.double({ min: 0, max: 1, noNaN: true })),
    prefix: fc.constantFrom('', '', '', ' \n', '\ufeff', 'Content-Type: x12\r\n\r\n', 'junk ISA '),
    lastTerminator: fc.boolean(),
  })
  .map(({ doc, edits, joins, delimiters, cut, prefix, lastTerminator }) => {
    const segs = segmentsOf(doc);
    for (const e of edits) applyEdit(segs, e);
    let out = segs.map((s, i) => s + (i < segs.length - 1 || lastTerminator ? '~' : '') + joins[i % joins.length]!).join('');
    if (delimiters) out = redelimit(out, delimiters);
    if (cut !== null) out = out.slice(0, Math.floor(cut * out.length));
    return prefix + out;
  });

const junk = fc.oneof(
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.string({ maxLength: 200, unit: fc.constantFrom('I', 'S', 'A', 'E', 'B', 'M', 'H', '*', '~', '^', ':', '\n', ' ', '0', '3') }),
  fc
    .array(
      fc.constantFrom(
        'ISA*00*          *00*          *ZZ*S *ZZ*R *250101*1200*^*00501*000000042*0*T*:',
        'EB*1**30',
        'EB*1**MH',
        'EB',
        'GE*1',
        'IEA*1*1',
        'IEA',
      ),
      { maxLength: 6 },
    )
    .map((segs) => segs.join('~')),
);

function compare(arb: fc.Arbitrary<string>, numRuns: number): { yes: number; no: number; unread: number } {
  const seen = { yes: 0, no: 0, unread: 0 };
  fc.assert(
    fc.property(arb, (doc) => {
      const expected = lacksBehavioralDetailBefore(doc);
      assert.equal(lacksBehavioralDetail(doc), expected, JSON.stringify(doc));
      seen[expected ? 'yes' : tokenize(doc).ok ? 'no' : 'unread']++;
    }),
    { numRuns },
  );
  return seen;
}

test('lacksBehavioralDetail answers as the tokenizing version on built 271s and the other documents', () => {
  const seen = compare(documents, 600);
  assert.ok(seen.yes > 50 && seen.no > 50, JSON.stringify(seen));
});

test('lacksBehavioralDetail answers as the tokenizing version on mutated documents', () => {
  const seen = compare(mutated, 3000);
  assert.ok(seen.yes > 200 && seen.no > 200 && seen.unread > 200, JSON.stringify(seen));
});

test('lacksBehavioralDetail answers as the tokenizing version on junk', () => {
  compare(junk, 2000);
});

test('lacksBehavioralDetail: the edge cases by hand', () => {
  const eb = (segs: string[]) => interchange('271', body271(segs));
  const cases = [
    eb(['EB*1**30']),
    eb(['EB*1**30^MH']),
    eb(['EB*1**30^^98']),
    eb(['EB*1**^MH^']),
    eb(['EB*1**MH:30']),
    eb(['EB*1*MH']),
    eb(['EB*1**MHX']),
    eb(['EB*1**30', 'E\nB*1**MH']),
    eb(['EB*1**30', 'EB*1**M\r\nH']),
    eb(['EB*1**MH', 'eb*1']),
    eb(['EB*1**30']).replace('IEA*1*000000042~\n', 'IEA*1*000000042'),
    eb(['EB*1**30']).replace('IEA*1*000000042~\n', 'IEA'),
    eb(['EB*1**30']).replace('GE*1*42~\nIEA*1*000000042~\n', 'GE*1'),
    eb(['EB*1**30']).replace('GE*1*42~\nIEA*1*000000042~\n', 'GE'),
    eb(['EB*1**30']).replace('~\n', '~~\n'),
    eb(['EB*1**30']).replace('*^*', '*U*'),
    eb(['EB*1**30^MH']).replace('*^*', '*U*'),
    'not x12',
    '',
  ];
  for (const doc of cases) assert.equal(lacksBehavioralDetail(doc), lacksBehavioralDetailBefore(doc), JSON.stringify(doc));
});
