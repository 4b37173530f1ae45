/** The console's browser tests: one way to start Chromium, and one way to hear what a page complains of. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from './needs.ts';

/** Chromium at /usr/bin/chromium, headless, as every console test runs it (skip with needsChromium() first). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

/**
 * Collects the page's console errors (but the failed resource loads the tests provoke) and its
 * uncaught errors into `problems`, which a test asserts empty at its end.
 */
export function collectProblems(page: Page, problems: string[] = []): string[] {
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  return problems;
}
