/** bench/RESULTS.md is shared: each benchmark replaces only its own "## " section. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

/**
 * Replaces the section under `heading`; a new one goes at the end, right under the title with `atTop`,
 * or right after the section under `after` when there is one.
 */
export function replaceSection(heading: string, markdown: string, options: { atTop?: boolean; after?: string; file?: string } = {}): void {
  const file = options.file ?? RESULTS_FILE;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (!text.startsWith('# ')) text = `# Benchmark results\n\n${text.trimStart()}`;
  const start = text.indexOf(`\n${heading}\n`);
  const body = markdown.trimEnd() + '\n';
  const afterStart = options.after ? text.indexOf(`\n${options.after}\n`) : -1;
  if (start < 0 && afterStart >= 0) {
    const next = text.indexOf('\n## ', afterStart + options.after!.length + 1);
    text = next < 0 ? `${text.trimEnd()}\n\n${body}` : `${text.slice(0, next + 1)}${body}\n${text.slice(next + 1)}`;
  } else if (start < 0 && options.atTop) {
    const titleEnd = text.indexOf('\n') + 1;
    text = `${text.slice(0, titleEnd)}\n${body}\n${text.slice(titleEnd).trimStart()}`;
  } else if (start < 0) {
    text = `${text.trimEnd()}\n\n${body}`;
  } else {
    const next = text.indexOf('\n## ', start + heading.length + 1);
    text = text.slice(0, start + 1) + body + (next < 0 ? '' : text.slice(next));
  }
  writeFileSync(file, text.trimEnd() + '\n');
}

export function machine(): string {
  const cpu = cpus();
  return `Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`;
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
