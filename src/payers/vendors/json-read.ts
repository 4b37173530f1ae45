/** Reading vendor JSON without trusting its shape: every access yields a known type. */
import type { Delimiters } from '../../x12/delimiters.ts';

export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** A string, or null when the value is no non-empty string. */
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** Whether an object holds any field of its own (most optional sub-objects of an answer are empty). */
export function hasField(o: Obj): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}

/** How a connector cleans a value for an element of its 271 (cleanText, or stedi-read's text). */
export type Clean = (value: string, d: Delimiters, max: number) => string;

/**
 * C003-01: the product/service ID qualifier code (Stedi spells the field `ID`, the v3 model `Id`), as
 * sent: a value that is no code stays what it is (never dropped, which would read the procedure as one
 * of any code system), so the 271 reader's closed world makes the row unknown.
 */
function qualifierOf(p: Obj): string {
  return (str(p.productOrServiceIDQualifierCode) || str(p.productOrServiceIdQualifierCode)).trim();
}

/**
 * EB13 (composite C003) of a JSON benefit's `compositeMedicalProcedureIdentifier`, the same object in
 * Stedi's and the v3 model (docs/going-live.md, "A benefit restricted to a procedure"): -01 the
 * qualifier, -02 the procedure (or a range's beginning), -03..-06 up to four modifiers, -08
 * `productOrServiceID` (the range's end), -07 (a description neither model has) left empty. '' when
 * no procedure is named: the composite has no -02 without one. Values are cleaned as the connector
 * cleans its other elements; a qualifier that is no code is written as sent (up to 30 characters).
 */
export function procedureComposite(value: unknown, d: Delimiters, clean: Clean): string {
  const p = obj(value);
  const procedure = clean(str(p.procedureCode), d, 48);
  if (!procedure) return '';
  // A modifier is never cut to its 2 characters: one that does not fit still restricts the row.
  const modifiers = strings(p.procedureModifiers)
    .map((m) => clean(m, d, 48))
    .filter(Boolean)
    .slice(0, 4);
  const parts = [clean(qualifierOf(p), d, 30), procedure, ...modifiers];
  const end = clean(str(p.productOrServiceID), d, 48);
  if (end) parts.push(...Array<string>(7 - parts.length).fill(''), end);
  return parts.join(d.component);
}
