/**
 * Person names as an X12 270 can carry them. X12's basic character set has upper-case Latin
 * letters, digits, space and some punctuation, so a name is NFKC-normalized, Latin letters lose
 * their diacritics ("José" -> "JOSE") or are spelled out ("ß" -> "SS", "Æ" -> "AE"), and a name
 * with a letter that has no such spelling (李, Иван, Σοφία) is refused, never sent with the letter dropped.
 */

/** Latin letters that Unicode does not decompose into a base letter plus marks. */
const SPELLED: Record<string, string> = {
  Ø: 'O',
  ø: 'O',
  Æ: 'AE',
  æ: 'AE',
  Œ: 'OE',
  œ: 'OE',
  Ł: 'L',
  ł: 'L',
  Đ: 'D',
  đ: 'D',
  Ð: 'D',
  ð: 'D',
  Þ: 'TH',
  þ: 'TH',
  ß: 'SS',
  ẞ: 'SS',
  ı: 'I',
  Ħ: 'H',
  ħ: 'H',
  Ŧ: 'T',
  ŧ: 'T',
  Ŋ: 'NG',
  ŋ: 'NG',
  ĸ: 'K',
  // Typographic apostrophes (what spreadsheets and phones type in O’Brien) as the X12 apostrophe.
  '\u2018': "'",
  '\u2019': "'",
  '\u02bc': "'",
};
const SPELLED_RE = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** NFKC, spelled-out letters, upper case, diacritics removed. Characters without a Latin spelling are left as they are. */
export function transliterate(value: string): string {
  // Printable ASCII (nearly every name and payer text) is its own NFKC and NFD form, with no marks.
  if (PRINTABLE_ASCII.test(value)) return value.toUpperCase();
  return value
    .normalize('NFKC')
    .replace(SPELLED_RE, (ch) => SPELLED[ch]!)
    .toUpperCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** A mark with no letter to sit on: nothing to transliterate it with. */
const LONE_MARK = /(?:^|[^\p{L}\p{M}])\p{M}/u;
const X12_NAME = /^[A-Z .,'-]*$/;

/**
 * The name as the 270 writes it (upper case, single spaces, trimmed), or null when a character of
 * it cannot be written in the X12 basic character set.
 */
export function x12Name(value: string): string | null {
  if (LONE_MARK.test(value.normalize('NFKC'))) return null;
  const out = transliterate(value);
  if (!X12_NAME.test(out)) return null;
  return out.replace(/ +/g, ' ').trim();
}

/**
 * The name as compared with another (a payer's record against the request): transliterated as a 270 sends it,
 * spaces collapsed, so "Grünewald" agrees with the GRUNEWALD a payer or a vendor's reader writes.
 */
export const comparableName = (value: string | null | undefined): string =>
  transliterate(value ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** The 'person-name' format of the request schemas. */
export const isX12Name = (value: string): boolean => x12Name(value) !== null;

/** Generational suffixes, as a last name typed in one cell ends with them: "Bell, Jr.", "Walsh III". */
const SUFFIX = /^(.*?[A-Z].*?)[ ,]+(JR|SR|II|III|IV)\.?$/;

/**
 * An X12-clean last name (upper case) split into the name and its generational suffix, which the
 * 270 sends apart in NM107 (Name Suffix), so "BELL, JR." is matched as the payer stores it: BELL, JR.
 */
export function splitSuffix(last: string): { last: string; suffix: string } {
  const m = SUFFIX.exec(last);
  return m ? { last: m[1]!.replace(/[ ,]+$/, ''), suffix: m[2]! } : { last, suffix: '' };
}
