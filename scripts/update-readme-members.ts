/** Rewrites the sandbox member table in README.md from the catalog: `node --import tsx scripts/update-readme-members.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { memberTableMarkdown, README_TABLE_END, README_TABLE_START } from '../src/sandbox/member-table-markdown.ts';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const start = readme.indexOf(README_TABLE_START);
const end = readme.indexOf(README_TABLE_END);
if (start < 0 || end < start) throw new Error('README.md lacks the sandbox member table markers');
writeFileSync(path, `${readme.slice(0, start + README_TABLE_START.length)}\n${memberTableMarkdown()}\n${readme.slice(end)}`);
