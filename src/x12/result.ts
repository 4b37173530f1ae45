/** Outcome types shared by every X12 reader: a value with warnings, or one error with its position. */

export interface X12Error {
  message: string;
  /** 1-based position of the segment in the interchange (ISA is 1). */
  segment_index: number | null;
  segment_id: string | null;
  /** Character offset in the input text. */
  offset: number | null;
}

export type ParseResult<T> = { ok: true; value: T; warnings: string[] } | { ok: false; error: X12Error };

export function ok<T>(value: T, warnings: string[]): ParseResult<T> {
  return { ok: true, value, warnings };
}

export function fail<T>(message: string, at: { index?: number | null; id?: string | null; offset?: number | null } = {}): ParseResult<T> {
  return { ok: false, error: { message, segment_index: at.index ?? null, segment_id: at.id ?? null, offset: at.offset ?? null } };
}

/**
 * Runs a reader and turns an unexpected exception into an error result, so no input string can
 * make the public API throw. The message starts with "internal error" so tests can tell such a
 * bug apart from a legitimate parse error.
 */
export function guarded<T>(run: () => ParseResult<T>): ParseResult<T> {
  try {
    return run();
  } catch (err) {
    return fail(`internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
}
