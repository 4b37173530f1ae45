/**
 * The README's configuration table, made from EnvSchema (src/server/env-schema.ts). Rewrite it after
 * changing a variable: `node --import tsx scripts/config-table.ts`; test/cli/config-table.test.ts
 * checks the README holds exactly this table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EnvSchema, envSchemaOf, type EnvMode, type EnvName } from '../src/server/env-schema.ts';

export const README_CONFIG_START = '<!-- configuration:start (made by scripts/config-table.ts) -->';
export const README_CONFIG_END = '<!-- configuration:end -->';

const MODE: Record<EnvMode, string> = { any: 'both', sandbox: 'sandbox', production: 'production', client: '`check`, `batch`, `remit`' };

const code = (value: unknown) => `\`${String(value)}\``;

function accepted(schema: Readonly<Record<string, unknown>>): string {
  if (schema.type === 'integer') return `${String(schema.minimum)}–${String(schema.maximum)}`;
  if (Array.isArray(schema.enum)) return schema.enum.map(code).join(', ');
  if (schema.pattern === '^(0|1|true|false)$') return '`1` or `0`';
  return '';
}

export function configTableMarkdown(): string {
  const rows = (Object.keys(EnvSchema.properties) as EnvName[]).map((name) => {
    const schema = envSchemaOf(name);
    const fallback = typeof schema['x-default-text'] === 'string' ? schema['x-default-text'] : schema.default === undefined ? 'unset' : code(schema.default);
    return `| \`${name}\` | ${fallback} | ${accepted(schema)} | ${MODE[schema['x-mode'] as EnvMode]} | ${String(schema.description)} |`;
  });
  return ['| variable | default | values | mode | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** README.md with its configuration table replaced by `table`. */
export function withConfigTable(readme: string, table: string): string {
  const start = readme.indexOf(README_CONFIG_START);
  const end = readme.indexOf(README_CONFIG_END);
  if (start < 0 || end < start) throw new Error('README.md lacks the configuration table markers');
  return `${readme.slice(0, start + README_CONFIG_START.length)}\n${table}\n${readme.slice(end)}`;
}

export const README_PATH = new URL('../README.md', import.meta.url);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(README_PATH, withConfigTable(readFileSync(README_PATH, 'utf8'), configTableMarkdown()));
}
