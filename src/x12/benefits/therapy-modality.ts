/**
 * Rows for one kind of psychotherapy (docs/estimates.md 1.1; therapy-modality.json): an EB05 plan coverage description
 * naming individual, family or group therapy limits a cost-share row to that kind, which the encounter's procedure is
 * or is not. Nothing is decided when the procedure is of no listed kind or the description names none, or several.
 */
import TABLE from './therapy-modality.json' with { type: 'json' };
import { msgWords } from './msg-words.ts';

type Modality = keyof typeof TABLE.descriptions;

const DESCRIPTIONS = Object.entries(TABLE.descriptions).map(([m, pattern]) => ({ modality: m as Modality, re: new RegExp(pattern) }));
const NEGATION = new RegExp(TABLE.negation);
const KINDS = new RegExp(TABLE.kinds, 'g');
const PROCEDURES: Readonly<Record<string, Modality | undefined>> = TABLE.procedures as Record<string, Modality>;

/** The one kind of psychotherapy a description names, or null. */
export function describedModality(description: string): Modality | null {
  const t = msgWords(description);
  if (t.trim() === '' || NEGATION.test(t) || new Set(t.match(KINDS)).size !== 1) return null;
  const named = DESCRIPTIONS.filter((d) => d.re.test(t));
  return named.length === 1 ? named[0]!.modality : null;
}

/** Why a row described as another kind of psychotherapy than the encounter's procedure is not the encounter's, or null. */
export function otherModality(description: string, procedure: string | null): string | null {
  const visit = procedure === null ? undefined : PROCEDURES[procedure];
  if (visit === undefined) return null;
  const row = describedModality(description);
  if (row === null || row === visit) return null;
  return `its description ("${description.trim()}", EB05 or MSG) is ${row} psychotherapy; the visit's ${procedure} is ${visit}`;
}
