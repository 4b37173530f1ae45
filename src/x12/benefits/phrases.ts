/**
 * The one table of text cues read from free text (MSG, plan names EB05, 2120C names, the payer's
 * name): X12 has codes for most facts, and these are the ones payers also (or only) state in words
 * (docs/estimates.md section 1.2). A phrase counts only when it is not negated: "NOT QMB",
 * "NON-MEDICARE", "PRE-MEDICARE", "EXCEPT QMB", "QMB DOES NOT APPLY" name the opposite.
 */

export type Cue = 'qmb' | 'slmb' | 'medicare' | 'medicare_supplement' | 'medicare_advantage' | 'medicaid' | 'hdhp';

/** Plan or payer text that names a state Medicaid program (the program names of states that do not say "Medicaid"). */
const MEDICAID =
  /MEDICAID|MEDI-CAL|\bMEDI CAL\b|MASSHEALTH|TENNCARE|SOONERCARE|BADGERCARE|HUSKY HEALTH|APPLE HEALTH|KANCARE|HOOSIER HEALTHWISE|\bCHIP\b|MEDICAL ASSISTANCE PROGRAM|AHCCCS|DENALI ?CARE|HEALTH FIRST COLORADO|MAINECARE|MED-QUEST|NJ FAMILYCARE|HEALTHY CONNECTIONS|CENTENNIAL CARE|DR\.? DYNASAUR|GREEN MOUNTAIN CARE|MO HEALTHNET|NEBRASKA TOTAL CARE|LOUISIANA HEALTHCARE CONNECTIONS/g;

export const PHRASES: Readonly<Record<Cue, RegExp>> = {
  qmb: /\bQMB\b|QUALIFIED MEDICARE BENEFICIAR/g,
  slmb: /\bSLMB\b|SPECIFIED LOW[- ]INCOME MEDICARE/g,
  medicare: /MEDICARE/g,
  medicare_supplement: /SUPPLEMENT|MEDIGAP|MEDICARE SUPP\b/g,
  medicare_advantage: /MEDICARE ADVANTAGE|\bMAPD\b|\bMA-PD\b/g,
  medicaid: MEDICAID,
  hdhp: /\bHDHP\b|\bHSA\b|HIGH DEDUCTIBLE|HEALTH SAVINGS ACCOUNT/g,
};

/** Words before a phrase that negate it, in the same clause ("NOT QMB", "NON-MEDICARE", "(NOT QMB)"). */
const NEGATED_BEFORE = /(?:\bNOT|\bNON|\bNO|\bPRE|\bEXCEPT|\bEXCLUDING|\bWITHOUT|\bINELIGIBLE FOR)[\s(-]*$/;
/** Words after a phrase that negate it ("QMB DOES NOT APPLY"). */
const NEGATED_AFTER = /^[\s)]*(?:DOES NOT APPLY|NOT APPLICABLE|N\/A\b|EXCLUDED|NOT ELIGIBLE|INELIGIBLE|DENIED|TERMINATED)/;

/** Whether `text` states the cue: some match of its phrase that is not negated. */
export function saysCue(text: string | null | undefined, cue: Cue): boolean {
  if (!text) return false;
  const t = text.toUpperCase();
  const re = PHRASES[cue];
  re.lastIndex = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    const before = t.slice(Math.max(0, m.index - 16), m.index);
    const after = t.slice(m.index + m[0].length, m.index + m[0].length + 24);
    if (!NEGATED_BEFORE.test(before) && !NEGATED_AFTER.test(after)) return true;
    if (m[0].length === 0) re.lastIndex++;
  }
  return false;
}
