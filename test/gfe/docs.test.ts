/** docs/good-faith-estimate.md and its example file hold what the code does: every required element, every due rule, the example accepted. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { REQUIRED_ELEMENTS } from '../../src/domain/gfe/index.ts';
import { DUE_RULES } from '../../src/domain/schemas/good-faith-estimates.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/good-faith-estimate.md', ROOT), 'utf8');

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('the elements table names every required element, each beside a field, and nothing else', () => {
  const section = doc.slice(doc.indexOf('## What 45 CFR 149.610(c) requires'), doc.indexOf('## When it is due'));
  const keys = [...section.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => {
    assert.match(m[2]!, /`[a-z_.[\]]+`/, `${m[1]} has a field`);
    return m[1]!;
  });
  assert.deepEqual(keys, Object.keys(REQUIRED_ELEMENTS), 'in the regulation order');
});

test('the due-date table names every rule', () => {
  for (const rule of DUE_RULES) assert.ok(doc.includes(`\`${rule}\``), rule);
});

test('examples/good-faith-estimate.json is a complete estimate, due as the README says', async () => {
  const body = JSON.parse(readFileSync(new URL('examples/good-faith-estimate.json', ROOT), 'utf8'));
  const r = await server.post('/v1/good-faith-estimates', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.due.date, '2026-06-18');
  assert.match(
    readFileSync(new URL('README.md', ROOT), 'utf8'),
    /--data-binary @examples\/good-faith-estimate\.json +# 201: version 1, a draft, totals, due 2026-06-18/,
  );
});
