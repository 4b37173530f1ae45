/**
 * The error codes are declared once (src/domain/errors.ts ErrorCodes, with their status), and the
 * errors of the HTTP layer once each (src/http/errors.ts HttpErrors): both agree with the table of
 * docs/interface.md section 4, which is the spec.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ErrorCodes, ServiceError, type ErrorCode } from '../../src/domain/errors.ts';
import { HttpErrors } from '../../src/http/errors.ts';

/** status by error_code, from the rows `| 401 | \`UNAUTHORIZED\` | ... |` of docs/interface.md section 4. */
function specTable(): Map<string, number> {
  const doc = readFileSync(new URL('../../docs/interface.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## 4. Errors'), doc.indexOf('## 5.'));
  const table = new Map<string, number>();
  for (const m of section.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gm)) {
    assert.ok(!table.has(m[2]!), `${m[2]} is in the table twice`);
    table.set(m[2]!, Number(m[1]));
  }
  return table;
}

test('ErrorCodes holds exactly the codes of the spec table, each with its status', () => {
  const table = specTable();
  assert.ok(table.size >= 14, `read ${table.size} rows of the table`);
  assert.deepEqual(Object.fromEntries(Object.entries(ErrorCodes).sort()), Object.fromEntries([...table].sort()));
});

test("every declared HTTP error's status and code are a pair of the spec table, and it makes a ServiceError of that pair", () => {
  const table = specTable();
  const entries = Object.entries(HttpErrors);
  assert.ok(entries.length > 20);
  for (const [name, declared] of entries) {
    assert.equal(declared.status, table.get(declared.code), `${name}: ${declared.code} is ${table.get(declared.code)} in the spec, not ${declared.status}`);
    // Any arguments build a message (none takes more than three); their values do not matter here.
    const error = (declared as (...args: unknown[]) => ServiceError)('x', 'y', 'z');
    assert.ok(error instanceof ServiceError, name);
    assert.deepEqual([error.code, error.status], [declared.code, declared.status], name);
    assert.ok(error.message.length > 0, name);
  }
});

test('every code has a declared status, and a ServiceError takes its status from it alone', () => {
  for (const code of Object.keys(ErrorCodes) as ErrorCode[]) assert.equal(new ServiceError(code, 'm').status, ErrorCodes[code]);
});
