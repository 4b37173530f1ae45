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
import { msgWords } from './msg-words.ts';

/** What a class's `when` asks of the row: its provider named in a 2120C loop, or its EB12 naming one network. */
export interface RowContext {
  providerNamed: boolean;
  network: 'in' | 'out' | null;
}
const holds = (when: string | null, row: RowContext) =>
  when === null ||
  (when === 'provider_named' && row.providerNamed) ||
  (when === 'in_network' && row.network === 'in') ||
  (when === 'out_of_network' && row.network === 'out');

let informational: readonly { re: RegExp; when: string | null }[] | null = null;
let statements: readonly RegExp[] | null = null;
const STOPWORD = new RegExp(`^(?:${TABLE.stopwords})$`);

/** A percent in the words, and the payer paying it ("PLAN PAYS 80%": the member's share is the rest). */
const PERCENT = new RegExp(TABLE.share_figures.percent, 'g');
const PAYER_PAYS = new RegExp(`${TABLE.share_figures.payer_pays}$`);
/** An amount the words state as the member's share ("COPAY $40", "MEMBER PAYS $40", "THE $40 COPAY"). */
const SHARE_AMOUNTS = [new RegExp(TABLE.share_figures.amount, 'g'), new RegExp(TABLE.share_figures.amount_first, 'g')];

/**
 * The figures the competing rows state: their copays in dollars (EB07) and their coinsurance in percent (EB08 x 100);
 * words relating two of them ("COPAY OR 50% COINSURANCE WHICHEVER IS LESS") name the figures of the rows.
 */
export interface OwnFigures {
  amounts: readonly number[];
  percents: readonly number[];
}
const same = (a: number, bs: readonly number[]) => bs.some((b) => Math.abs(a - b) < 1e-6);

/**
 * The figures of `text` that state the member's share and differ from the competing rows' (share-messages.json
 * `share_figures`): a percent other than their coinsurance (or, paid by the plan, other than its rest), an amount
 * named as the copay or what the member pays other than their copay. The figures class never reads them.
 */
function contradicting(t: string, own: OwnFigures): string[] {
  const out: string[] = [];
  PERCENT.lastIndex = 0;
  for (let m = PERCENT.exec(t); m !== null; m = PERCENT.exec(t)) {
    const p = Number(m[1]);
    const member = PAYER_PAYS.test(t.slice(Math.max(0, m.index - 32), m.index)) ? 100 - p : p;
    if (!same(member, own.percents)) out.push(m[0].replace(/\s/g, ''));
  }
  for (const re of SHARE_AMOUNTS) {
    re.lastIndex = 0;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) {
      if (!same(Number(m[1]!.replace(/,/g, '')), own.amounts)) out.push(`$${m[1]}`);
    }
  }
  return out;
}

/**
 * The words of `text` that no rule reads and no informational class holds (upper case), or none. `row`: whether the
 * row names its provider in a 2120C loop, whose rule decides the provider (the classes `when` provider_named apply),
 * and the one network its EB12 names (the classes `when` in_network or out_of_network apply).
 * `own`: the competing rows' figures; a figure of the words stating the member's share otherwise is undecided, never read as
 * an informational figure.
 */
export function undecidedWords(text: string, row: RowContext = { providerNamed: false, network: null }, own?: OwnFigures): string[] {
  if (isCanonicalHint(text)) return [];
  informational ??= TABLE.classes.map((c) => ({ re: new RegExp(c.pattern, 'g'), when: 'when' in c && typeof c.when === 'string' ? c.when : null }));
  statements ??= TABLE.statements.map((c) => new RegExp(c.pattern, 'g'));
  let t = ` ${msgWords(text)} `;
  const against = own ? contradicting(t, own) : [];
  // The statements a rule decides first (their words are theirs), then the informational classes.
  const classes = informational.filter((c) => holds(c.when, row)).map((c) => c.re);
  for (const re of [...statements, ...decidedPhrases(), ...qualifierPhrases(), ...classes]) {
    re.lastIndex = 0;
    t = t.replace(re, (s) => ' '.repeat(s.length));
  }
  return [
    ...against,
    ...t
      .split(/[^A-Z0-9'-]+/)
      .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
      .filter((w) => w !== '' && !STOPWORD.test(w)),
  ];
}
