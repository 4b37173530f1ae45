/**
 * An MSG's text as the MSG rules read it (docs/estimates.md 1.1): upper case, each payer abbreviation of
 * msg-abbreviations.json read as the words it stands for ("BH OV COPAY AFTER DED": BEHAVIORAL HEALTH OFFICE
 * VISIT COPAY AFTER DEDUCTIBLE). Every reader of MSG words (phrases, qualifiers, the closed world, age
 * conditions, hints) starts here, so an abbreviation means one thing everywhere.
 */
import TABLE from './msg-abbreviations.json' with { type: 'json' };

const WORDS: Readonly<Record<string, string>> = TABLE.words;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/&-]/g, '\\$&');
/** The longest first, so MH/SA is read before a shorter form inside it. */
const ABBREVIATION = new RegExp(
  `(?<![A-Z0-9&-])(?:${Object.keys(WORDS)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![A-Z0-9&-])`,
  'g',
);
const seen = new Map<string, string>();

export function msgWords(text: string): string {
  const known = seen.get(text);
  if (known !== undefined) return known;
  const out = text.toUpperCase().replace(ABBREVIATION, (w) => WORDS[w]!);
  // The same texts come again and again; any text a sender writes is not kept without bound.
  if (seen.size < 4096) seen.set(text, out);
  return out;
}
