/** What a CLI command writes to, injected so tests can capture it; and the store it opens from the environment. */
import { openDb, type Db } from '../store/db.ts';
import { loadConfig } from '../server/config.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Opens the store the server uses (COVERAGE_DATA_DIR or DATABASE_URL), runs `fn`, closes it, and sets the exit code. */
export async function withConfiguredStore(fn: (db: Db) => Promise<number>): Promise<void> {
  const config = loadConfig();
  const db = await openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    process.exitCode = await fn(db);
  } finally {
    await db.close();
  }
}

/** Left-aligned columns separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
