/**
 * Text kept sealed with the data key (COVERAGE_DATA_KEY, data-key.ts) and bound to its place (a
 * context such as `monitors:{id}:snapshot`), or plain without a key (the sandbox may run without
 * one: docs/monitoring.md). Reads take either form.
 */
import type { DataKey } from './data-key.ts';

const SEALED = 'v1.';

export class SealedText {
  constructor(private readonly key: Pick<DataKey, 'seal' | 'open'> | null) {}

  get sealing(): boolean {
    return this.key !== null;
  }

  write(text: string, context: string): string {
    return this.key ? this.key.seal(text, context) : text;
  }

  /** The text, or null when it was sealed under another key (or altered). */
  read(stored: string, context: string): string | null {
    if (!stored.startsWith(SEALED)) return stored;
    return this.key?.open(stored, context) ?? null;
  }

  readJson<T>(stored: string | null, context: string): T | null {
    if (stored === null) return null;
    const text = this.read(stored, context);
    return text === null ? null : (JSON.parse(text) as T);
  }
}
