/** Reading vendor JSON without trusting its shape: every access yields a known type. */
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
