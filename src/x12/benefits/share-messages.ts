/**
 * The closed world for MSG on the cost-share rows that compete for the session's figure (docs/estimates.md 1.1,
 * "Closed world for MSG on cost shares"; share-messages.json): every word of such an MSG is read by a rule (a
 * relation of cost-share-phrases.json, a qualifier of share-qualifiers.json, the deductible or a range of visits:
 * phrases.ts) or belongs to an informational class that does not change the share; any other word relates or
 * conditions the share in a way no rule decides, and the share is unknown, never charged as if the words were absent.
 */
import TABLE from './share-messages.json' with { type: 'json' };
import { isCanonicalHint } from '../hints.ts';
import { decidedPhrases } from './phrases.ts';
import { qualifierPhrases } from './share-qualifiers.ts';

let informational: readonly { re: RegExp; providerNamed: boolean }[] | null = null;
let statements: readonly RegExp[] | null = null;
const STOPWORD = new RegExp(`^(?:${TABLE.stopwords})$`);

/**
 * The words of `text` that no rule reads and no informational class holds (upper case), or none. `providerNamed`: the
 * row names its provider in a 2120C loop, whose rule decides the provider (the classes `when` provider_named apply).
 */
export function undecidedWords(text: string, providerNamed = false): string[] {
  if (isCanonicalHint(text)) return [];
  informational ??= TABLE.classes.map((c) => ({ re: new RegExp(c.pattern, 'g'), providerNamed: 'when' in c && c.when === 'provider_named' }));
  statements ??= TABLE.statements.map((c) => new RegExp(c.pattern, 'g'));
  let t = ` ${text.toUpperCase()} `;
  // The statements a rule decides first (their words are theirs), then the informational classes.
  const classes = informational.filter((c) => providerNamed || !c.providerNamed).map((c) => c.re);
  for (const re of [...statements, ...decidedPhrases(), ...qualifierPhrases(), ...classes]) {
    re.lastIndex = 0;
    t = t.replace(re, (s) => ' '.repeat(s.length));
  }
  return t
    .split(/[^A-Z0-9'-]+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter((w) => w !== '' && !STOPWORD.test(w));
}
