/** Polls until `probe` holds; the bound is generous and nothing here measures time. */
import assert from 'node:assert/strict';

export async function eventually(probe: () => Promise<boolean>, what: string, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`never happened: ${what}`);
}
