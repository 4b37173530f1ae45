/**
 * One reading of a check's fields, whatever door they come in by (docs/interface.md section 1, rule 5):
 * surrounding spaces are not part of a value. " 10010MHNA " is 10010MHNA in JSON as in a CSV cell.
 */

/** The body with each top-level string value trimmed (in place: the body is the request's own); anything else as given. */
export function trimFields<T>(body: T): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'string' && value.length > 0) {
      const first = value.charCodeAt(0);
      const last = value.charCodeAt(value.length - 1);
      // Most values have no spaces around them: only those are rewritten.
      if (first <= 32 || last <= 32 || first === 160 || last === 160 || first === 0xfeff) record[key] = value.trim();
    }
  }
  return body;
}
