/**
 * The one table of text cues read from free text (MSG, plan names EB05, 2120C names, the payer's
 * name): X12 has codes for most facts, and these are the ones payers also (or only) state in words
 * (docs/estimates.md sections 1.1 and 1.2). A phrase counts only when it is not negated: "NOT QMB",
 * "NON-MEDICARE", "PRE-MEDICARE", "EXCEPT QMB", "OFF-EXCHANGE", "QMB DOES NOT APPLY" name the opposite.
 */
import COST_SHARE_PHRASES from './cost-share-phrases.json' with { type: 'json' };
import STATUS_PHRASES from './status-phrases.json' with { type: 'json' };
import { msgWords } from './msg-words.ts';
import { d8ToIso } from '../values.ts';

export type Cue = 'qmb' | 'slmb' | 'medicare' | 'medicare_supplement' | 'medicare_advantage' | 'medicaid' | 'hdhp' | 'marketplace';

/** Plan or payer text that names a state Medicaid program (the program names of states that do not say "Medicaid"). */
const MEDICAID =
  /MEDICAID|MEDI-CAL|\bMEDI CAL\b|MASSHEALTH|TENNCARE|SOONERCARE|BADGERCARE|HUSKY HEALTH|APPLE HEALTH|KANCARE|HOOSIER HEALTHWISE|\bCHIP\b|MEDICAL ASSISTANCE PROGRAM|AHCCCS|DENALI ?CARE|HEALTH FIRST COLORADO|MAINECARE|MED-QUEST|NJ FAMILYCARE|HEALTHY CONNECTIONS|CENTENNIAL CARE|DR\.? DYNASAUR|GREEN MOUNTAIN CARE|MO HEALTHNET|NEBRASKA TOTAL CARE|LOUISIANA HEALTHCARE CONNECTIONS/g;

/**
 * An ACA marketplace (exchange) plan, 45 CFR 155.20: "exchange" alone is also an employer's private
 * exchange or data exchange, so it counts only in the forms that name the public one.
 */
const MARKETPLACE =
  /MARKETPLACE|QUALIFIED HEALTH PLAN|\bQHP\b|\bON[- ]?EXCHANGE\b|\b(?:HEALTH INSURANCE|HEALTH BENEFIT|INDIVIDUAL|PUBLIC|STATE|FEDERAL|ACA) EXCHANGE\b|\bEXCHANGE(?<!PRIVATE[- ]EXCHANGE) (?:MEMBER|PLAN|POLICY|PRODUCT|ENROLLEE|COVERAGE)/g;

export const PHRASES: Readonly<Record<Cue, RegExp>> = {
  qmb: /\bQMB\b|QUALIFIED MEDICARE BENEFICIAR/g,
  slmb: /\bSLMB\b|SPECIFIED LOW[- ]INCOME MEDICARE/g,
  medicare: /MEDICARE/g,
  medicare_supplement: /SUPPLEMENT|MEDIGAP|MEDICARE SUPP\b/g,
  medicare_advantage: /MEDICARE ADVANTAGE|\bMAPD\b|\bMA-PD\b/g,
  medicaid: MEDICAID,
  hdhp: /\bHDHP\b|\bHSA\b|HIGH DEDUCTIBLE|HEALTH SAVINGS ACCOUNT/g,
  marketplace: MARKETPLACE,
};

/** Words just before a phrase that negate it ("NOT QMB", "NON-MEDICARE", "(NOT QMB)", "NOT A MARKETPLACE PLAN", "OFF-EXCHANGE"). */
const NEGATED_BEFORE = /(?:\bNOT|\bNON|\bNO|\bPRE|\bOFF|\bEXCEPT|\bEXCLUDING|\bWITHOUT|\bINELIGIBLE FOR)(?:[\s(-]+(?:A|AN|THE)\b)?[\s(-]*$/;
/** Words just after a phrase that negate it ("QMB DOES NOT APPLY"). */
const NEGATED_AFTER = /^[\s)]*(?:DOES NOT APPLY|DOESN'?T APPLY|NOT APPLICABLE|N\/A\b|EXCLUDED|NOT ELIGIBLE|INELIGIBLE|DENIED|TERMINATED)/;
/** A negation inside a phrase that allows one ("DEDUCTIBLE DOES NOT APPLY", "DEDUCTIBLE WON'T APPLY"). */
const NEGATED_WITHIN = /\bNOT\b|\b(?:DOESN|DON|WON|ISN)'?T\b/;

/** Whether the match of a phrase at [start, end) of `t` is negated before, within or after it. */
function negated(t: string, start: number, end: number): boolean {
  return NEGATED_BEFORE.test(t.slice(Math.max(0, start - 20), start)) || NEGATED_WITHIN.test(t.slice(start, end)) || NEGATED_AFTER.test(t.slice(end, end + 24));
}

/** Whether `text` states the cue: some match of its phrase that is not negated. */
export function saysCue(text: string | null | undefined, cue: Cue): boolean {
  if (!text) return false;
  const t = msgWords(text);
  const re = PHRASES[cue];
  re.lastIndex = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    if (!negated(t, m.index, m.index + m[0].length)) return true;
    if (m[0].length === 0) re.lastIndex++;
  }
  return false;
}

/** After "NO DEDUCTIBLE": the clause ends (text, punctuation) or goes on about the benefit, not about an accumulator ("NO DEDUCTIBLE MET"). */
const CLAUSE_END = String.raw`(?=\s*(?:$|[-,;.:()/]|(?:APPLIES|APPLY|APPLICABLE|REQUIRED|FOR|IN|WHEN|IF|WITH)\b))`;

/**
 * Statements of whether the deductible applies before a cost share, each with what it says when not
 * negated; a negated one says the opposite ("NO DEDUCTIBLE APPLIES", "NOT SUBJECT TO DEDUCTIBLE",
 * "DEDUCTIBLE DOES NOT APPLY"). A deductible named with nothing said of its applying ("NO DEDUCTIBLE
 * MET", "DEDUCTIBLE REMAINING", "FAMILY DEDUCTIBLE", "DEDUCTIBLE: $500") matches none.
 */
/** Whose deductible a statement names ("AFTER THE MH DEDUCTIBLE", "SUBJECT TO OUT OF NETWORK DEDUCTIBLE"): the row's own, as the accumulator rows state it. */
const WHOSE_DEDUCTIBLE = String.raw`(?:(?:IN[- ]NETWORK|OUT[- ]OF[- ]NETWORK|MENTAL HEALTH(?:/SUBSTANCE ABUSE)?|BEHAVIORAL HEALTH|MH(?:/SA)?|SEPARATE|INDIVIDUAL|FAMILY)\s+)?`;
const DEDUCTIBLE_STATEMENTS: readonly (readonly [string, boolean])[] = [
  [String.raw`DEDUCTIBLE\s+(?:(?:DOES|DO|WILL|SHALL|IS|DOESN'?T|DON'?T|WON'?T|ISN'?T)\s+)?(?:NOT\s+)?APPL(?:Y|IES|IED|ICABLE)\b`, true],
  [String.raw`SUBJECT TO (?:THE |A )?${WHOSE_DEDUCTIBLE}DEDUCTIBLE`, true],
  [String.raw`AFTER (?:THE )?${WHOSE_DEDUCTIBLE}DEDUCTIBLE`, true],
  [String.raw`(?:ONCE|UNTIL) (?:THE )?DEDUCTIBLE (?:IS |HAS BEEN )?(?:MET|SATISFIED)|DEDUCTIBLE MUST BE (?:MET|SATISFIED)`, true],
  [String.raw`DEDUCTIBLE\s+(?:IS\s+)?(?:NOT\s+)?WAIVED|WAIVES? (?:THE )?DEDUCTIBLE`, false],
  [String.raw`BEFORE (?:THE )?DEDUCTIBLE`, false],
  [String.raw`DEDUCTIBLE\s*[:-]?\s*N\/A\b`, false],
  [String.raw`\b(?:NO|WITHOUT)\s+(?:A\s+|THE\s+)?DEDUCTIBLE` + CLAUSE_END, false],
];
/** The statements as one pattern, a capturing group each (one scan of the text finds them all). */
const DEDUCTIBLE_STATEMENT = new RegExp(DEDUCTIBLE_STATEMENTS.map(([source]) => `(${source})`).join('|'), 'g');

const NETWORK_WORDS = String.raw`(?:(OUT[- ]OF[- ]NETWORK|OON|NON[- ]?NETWORK|NON[- ]?PAR(?:TICIPATING)?)|(IN[- ]NETWORK|INN|PAR(?:TICIPATING)?))(?: (?:BENEFITS?|PROVIDERS?|SERVICES?|CLAIMS?))?`;
/** Just after a statement: it holds for one network only ("... TO OUT OF NETWORK ONLY", "... ONLY FOR IN-NETWORK"). */
const NETWORK_ONLY = new RegExp(
  String.raw`^\s*(?:(?:TO|FOR|ON|IN|WITH) (?:THE )?)?${NETWORK_WORDS} ONLY\b|^\s*ONLY (?:(?:TO|FOR|ON|IN|WITH) (?:THE )?)?${NETWORK_WORDS}`,
);

/**
 * Just after a statement: it holds for a facility's (or a professional's) charges only ("DEDUCTIBLE APPLIES TO
 * FACILITY CHARGES ONLY"). The session priced is a professional one (cost-share-phrases.json facility_only).
 */
const CHARGES_ONLY = /^\s*(?:(?:TO|FOR|ON) (?:THE )?)?(?:(FACILITY)|PROFESSIONAL) (?:CHARGES?|FEES?|SERVICES?|COMPONENT|CLAIMS?) ONLY\b/;

/** What a statement ending at `end` is restricted to: a facility's charges (not this session) or a professional's, or null. */
function chargesOnly(t: string, end: number): 'facility' | 'professional' | null {
  const m = CHARGES_ONLY.exec(t.slice(end, end + 48));
  if (!m) return null;
  return m[1] !== undefined ? 'facility' : 'professional';
}

/** The network a statement ending at `end` is restricted to, or null. */
function networkOnly(t: string, end: number): 'in' | 'out' | null {
  const m = NETWORK_ONLY.exec(t.slice(end, end + 48));
  if (!m) return null;
  return m[1] !== undefined || m[3] !== undefined ? 'out' : 'in';
}

/**
 * What `text` says of the deductible applying before the cost share: true it applies, false it does
 * not (waived), null nothing, or statements that contradict each other. A statement restricted to one
 * network ("DEDUCTIBLE APPLIES TO OUT OF NETWORK ONLY") says the opposite of the other network's row,
 * and nothing of a row for both networks (`network` null).
 */
export function saysDeductible(text: string, network: 'in' | 'out' | null = null): boolean | null {
  const t = msgWords(text);
  if (!t.includes('DEDUCTIBLE')) return null;
  let said: boolean | null = null;
  const re = DEDUCTIBLE_STATEMENT;
  re.lastIndex = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    const applies = DEDUCTIBLE_STATEMENTS[m.findIndex((g, i) => i > 0 && g !== undefined) - 1]![1];
    const stated = negated(t, m.index, m.index + m[0].length) ? !applies : applies;
    const only = networkOnly(t, m.index + m[0].length);
    if (only !== null && network === null) continue;
    // For a facility's charges only, it says the opposite of this professional session.
    const charges = only === null ? chargesOnly(t, m.index + m[0].length) : null;
    const says = charges === 'facility' ? !stated : only === null || only === network ? stated : !stated;
    if (said !== null && said !== says) return null;
    said = says;
  }
  return said;
}

/** Numbers payers write as words: a count of visits ("FIRST FIVE VISITS") or a visit's place ("THE SIXTH VISIT"). */
const CARDINALS: Readonly<Record<string, number>> = {
  ONE: 1,
  TWO: 2,
  THREE: 3,
  FOUR: 4,
  FIVE: 5,
  SIX: 6,
  SEVEN: 7,
  EIGHT: 8,
  NINE: 9,
  TEN: 10,
  ELEVEN: 11,
  TWELVE: 12,
  FIFTEEN: 15,
  TWENTY: 20,
};
const ORDINALS: Readonly<Record<string, number>> = {
  FIRST: 1,
  SECOND: 2,
  THIRD: 3,
  FOURTH: 4,
  FIFTH: 5,
  SIXTH: 6,
  SEVENTH: 7,
  EIGHTH: 8,
  NINTH: 9,
  TENTH: 10,
  ELEVENTH: 11,
  TWELFTH: 12,
  TWENTIETH: 20,
};
const COUNT = String.raw`(?:\d{1,3}|${Object.keys(CARDINALS).join('|')})`;
const ORDINAL = String.raw`(?:\d{1,3}(?:ST|ND|RD|TH)|${Object.keys(ORDINALS).join('|')})`;
const VISIT = String.raw`(?:OFFICE |OUTPATIENT |THERAPY |PSYCHOTHERAPY )?(?:VISITS?|SESSIONS?)`;
/**
 * A cost share stated for some visits of the year only ("FIRST 5 OFFICE VISITS", "BEGINNING WITH 6TH
 * VISIT", "AFTER 10 VISITS", "VISITS 1-5", "6TH VISIT AND AFTER"): which visit of the year this one is,
 * the 271 does not say (docs/estimates.md 1.1, "Cost shares by visit count").
 */
const VISIT_RANGE = new RegExp(
  [
    String.raw`\bFIRST ${COUNT} ${VISIT}`,
    String.raw`\b(?:BEGINNING|STARTING|COMMENCING) (?:WITH|AT|ON|FROM) (?:THE )?${ORDINAL} ${VISIT}`,
    String.raw`\bAFTER (?:THE )?(?:FIRST )?${COUNT} ${VISIT}`,
    String.raw`\b${VISIT} ${COUNT} ?(?:-|TO|THRU|THROUGH) ?${COUNT}\b`,
    String.raw`\b${ORDINAL} ${VISIT} (?:AND (?:AFTER|BEYOND|THEREAFTER|UP|ON)|ONWARDS?|\+)`,
  ].join('|'),
);

/** Whether `text` restricts a cost share to a range of the year's visits. */
export function saysVisitRange(text: string): boolean {
  return VISIT_RANGE.test(msgWords(text));
}

/** A count or an ordinal, in digits ("10", "11TH") or in words. */
const numberOf = (word: string) => CARDINALS[word] ?? ORDINALS[word] ?? Number.parseInt(word, 10);
const SOME_WORDS = String.raw`(?:[A-Z-]+ ){0,6}?`;
/** "FIRST 10 ... VISITS": the visits up to a number. */
const FIRST_VISITS = new RegExp(String.raw`\bFIRST (${COUNT}) ${SOME_WORDS}(?:VISITS?|SESSIONS?)\b`);
/** "BEGINNING WITH THE 11TH VISIT", "11TH VISIT AND AFTER", "VISITS 11 AND LATER": the visits from a number on. */
const FROM_VISIT = new RegExp(
  [
    String.raw`\b(?:BEGINNING|STARTING|COMMENCING) (?:WITH|AT|ON|FROM) (?:THE )?(${ORDINAL}) ${SOME_WORDS}(?:VISIT|SESSION)`,
    String.raw`\b(${ORDINAL}) ${SOME_WORDS}(?:VISIT|SESSION)S? (?:AND (?:AFTER|BEYOND|THEREAFTER|LATER|UP|ON)|ONWARDS?|\+)`,
    String.raw`\b(?:VISITS?|SESSIONS?) (${COUNT}) (?:AND (?:AFTER|BEYOND|THEREAFTER|LATER|UP|ON)|ONWARDS?|\+)`,
  ].join('|'),
);
/** "AFTER 10 VISITS", "AFTER THE FIRST 10 VISITS": the visits from the next number on. */
const AFTER_VISITS = new RegExp(String.raw`\bAFTER (?:THE )?(?:FIRST )?(${COUNT}) ${SOME_WORDS}(?:VISITS?|SESSIONS?)\b`);

/**
 * The statements this module decides (a deductible applying, a range or split of the year's visits, a relation
 * of cost-share-phrases.json), for share-messages.ts: words inside them are read by a rule, not left undecided.
 */
export function decidedPhrases(): readonly RegExp[] {
  return [DEDUCTIBLE_STATEMENT, VISIT_RANGE, FIRST_VISITS, FROM_VISIT, AFTER_VISITS, ...RELATIONS.map((r) => r.re)];
}

/**
 * Where a cost share stated for some visits of the year splits them (saysVisitRange): `split` the last
 * visit of the early part, `side` the part the text puts its own cost share on ("FIRST 10 VISITS" before,
 * "BEGINNING WITH THE 11TH VISIT" or "AFTER 10 VISITS" after); null when the text states no split, or two.
 */
export function visitSplitOf(text: string): { split: number; side: 'before' | 'after' } | null {
  const t = msgWords(text);
  const upTo = FIRST_VISITS.exec(t);
  const from = FROM_VISIT.exec(t);
  const after = AFTER_VISITS.exec(t);
  const fromWord = from ? (from[1] ?? from[2] ?? from[3])! : null;
  const fromSplit = fromWord !== null ? numberOf(fromWord) - 1 : null;
  const afterSplit = after && !upTo ? numberOf(after[1]!) : null;
  if (upTo) {
    const split = numberOf(upTo[1]!);
    // "FIRST 10 VISITS ...; VISITS 11 AND LATER ..." states one split, its own cost share before it.
    if ((fromSplit !== null && fromSplit !== split) || !Number.isInteger(split) || split < 1) return null;
    return { split, side: 'before' };
  }
  const splits = [fromSplit, afterSplit].filter((x): x is number => x !== null);
  if (splits.length !== 1 || !Number.isInteger(splits[0]) || splits[0]! < 0) return null;
  return { split: splits[0]!, side: 'after' };
}

/** What a phrase of cost-share-phrases.json says of the row's cost share (docs/estimates.md 1.1, "Cost shares related in words"). */
export type ShareRelation =
  | 'greater'
  | 'lesser'
  | 'sum'
  | 'facility_only'
  | 'professional_only'
  | 'same_as_primary_care'
  | 'same_as_specialist'
  | 'copay_only'
  | 'coinsurance_only'
  | 'relates';

const RELATIONS = COST_SHARE_PHRASES.phrases.map((p) => ({ effect: p.effect as ShareRelation, re: new RegExp(p.pattern, 'g') }));
/** Relations between two cost shares count only in text that names a cost share. */
const NAMES_SHARE = /CO-?PAY|CO-?INS|COINSURANCE|%|\$|PERCENT/;
const BETWEEN_SHARES: ReadonlySet<ShareRelation> = new Set(['greater', 'lesser', 'sum', 'copay_only', 'coinsurance_only', 'relates']);

/**
 * The relations `text` states (cost-share-phrases.json), each once, a negated phrase not counted ("NOT SAME AS
 * PRIMARY CARE"); 'relates' (words relating two cost shares that no rule reads) only when no rule reads them.
 */
export function shareRelations(text: string): ShareRelation[] {
  const t = msgWords(text);
  const out: ShareRelation[] = [];
  const namesShare = NAMES_SHARE.test(t);
  // Where a phrase with a rule matched: words of 'relates' inside one ("COPAY APPLIES INSTEAD OF COINSURANCE") are its own.
  const read: [number, number][] = [];
  for (const { effect, re } of RELATIONS) {
    if (BETWEEN_SHARES.has(effect) && !namesShare) continue;
    re.lastIndex = 0;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) {
      const end = m.index + m[0].length;
      if (m[0].length === 0) re.lastIndex++;
      if (effect === 'relates' && read.some(([a, b]) => m.index >= a && end <= b)) continue;
      // "DEDUCTIBLE APPLIES TO FACILITY CHARGES ONLY" restricts the deductible (saysDeductible), not the row's cost share.
      if ((effect === 'facility_only' || effect === 'professional_only') && restrictsDeductible(t, m.index)) continue;
      if (!negated(t, m.index, end)) {
        out.push(effect);
        read.push([m.index, end]);
        break;
      }
    }
  }
  return out.includes('relates') && out.some((r) => r === 'greater' || r === 'lesser' || r === 'sum') ? out.filter((r) => r !== 'relates') : out;
}

/** Whether the clause before `at` (from the last , ; . or :) speaks of the deductible: what follows restricts it. */
function restrictsDeductible(t: string, at: number): boolean {
  const before = t.slice(0, at);
  const start = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf('.'), before.lastIndexOf(':')) + 1;
  return /DEDUCTIBLE/.test(before.slice(start));
}

/** Primary care or a specialist named as the office visit a row prices ("PRIMARY CARE PHYSICIAN", "PCP", "SPECIALIST"), not negated. */
export function namesOfficeKind(text: string, kind: 'primary_care' | 'specialist'): boolean {
  const t = msgWords(text);
  // "PAID AT THE PRIMARY CARE COPAY" names the office visit the row's share is the same as, not the one it is.
  if (shareRelations(t).includes(kind === 'primary_care' ? 'same_as_primary_care' : 'same_as_specialist')) return false;
  const re = kind === 'primary_care' ? /PRIMARY CARE|\bPCP\b/g : /SPECIALISTS?\b/g;
  for (let m = re.exec(t); m !== null; m = re.exec(t))
    if (!negated(t, m.index, m.index + m[0].length) && !/SAME AS (?:THE |A |YOUR )?$/.test(t.slice(0, m.index))) return true;
  return false;
}

const ENDED = new RegExp(STATUS_PHRASES.ended.pattern, 'g');
const PAST = new RegExp(STATUS_PHRASES.ended.past);
const DATE_AFTER = new RegExp(STATUS_PHRASES.date_after);
const AGE_AFTER = new RegExp(STATUS_PHRASES.age_after);

/** A date as MSG text writes it (10/31/2026, 10-31-2026, 2026-10-31, 20261031), as ISO; null when not a date. */
function isoOfWords(s: string): string | null {
  const us = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(s);
  return d8ToIso(us ? `${us[3]}${us[1]!.padStart(2, '0')}${us[2]!.padStart(2, '0')}` : s.replaceAll('-', ''));
}

/**
 * The words of an active status row's MSG that state the coverage ended by the date of service (status-phrases.json
 * `ended`): an end dated on or before `dos`, or one in the past tense without a date; null when none (no end, an end
 * after `dos`, a future end without a date, a negated one, an age limit).
 */
export function endStatedBy(text: string, dos: string): string | null {
  const t = msgWords(text);
  ENDED.lastIndex = 0;
  for (let m = ENDED.exec(t); m !== null; m = ENDED.exec(t)) {
    const end = m.index + m[0].length;
    if (negated(t, m.index, end) || AGE_AFTER.test(t.slice(end))) continue;
    const dated = DATE_AFTER.exec(t.slice(end));
    const date = dated ? isoOfWords(dated[1]!) : null;
    if (date !== null ? date <= dos : PAST.test(m[0])) return text.trim();
  }
  return null;
}
