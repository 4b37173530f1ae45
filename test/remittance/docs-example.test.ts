/**
 * docs/remittances.md 'The calls' against a sandbox: the estimates its curl calls send, then
 * examples/remittance.835, answer what the page says they answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = new URL('../..', import.meta.url);
let server: TestServer;
before(async () => {
  // A day the file's dates of service (2026-11-30) are inside the estimate window, as on the day the page was written.
  server = await startTestServer({ today: '2026-12-06' });
});
after(() => server.close());

test("the page's estimates, then examples/remittance.835: exact, unmatched with its reason, over-collected by $80 with its cause", async () => {
  const page = readFileSync(new URL('docs/remittances.md', ROOT), 'utf8');
  const start = page.indexOf('## The calls');
  const calls = page.slice(start, page.indexOf('\n## ', start + 1));
  const bodies = [...calls.matchAll(/\/v1\/estimate .*?-d '(\{[\s\S]*?\})'/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
  assert.equal(bodies.length, 2, 'two estimate calls on the page');
  for (const body of bodies) assert.equal((await server.post('/v1/estimate', body)).status, 200);

  const file = readFileSync(new URL('examples/remittance.835', ROOT), 'latin1');
  const r = await server.post('/v1/remittances', file, { 'content-type': 'application/edi-x12' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const [avery, other, marcus] = r.body.lines;
  assert.equal(avery.comparison.verdict, 'exact');
  assert.equal(other.unmatched_reason, 'the estimates for this member and date priced other procedures (90837)');
  assert.equal(marcus.comparison.verdict, 'over_collected');
  assert.equal(marcus.comparison.difference, -8000);
  assert.equal(marcus.comparison.causes[0], 'deductible progressed since the check');
  for (const words of ['`exact`', 'over_collected` by $80', '"deductible progressed since', 'priced other procedures'])
    assert.ok(calls.replace(/\s+/g, ' ').includes(words.replace(/\s+/g, ' ')), `the page says ${words}`);

  const report = await server.get('/v1/accuracy?from=2026-11-01');
  assert.equal(report.status, 200);
  assert.deepEqual(
    report.body.payers.map((p: { payer_id: string; exact: number; off: number }) => [p.payer_id, p.exact, p.off]),
    [['SBX-EVERGREEN', 1, 1]],
  );
});
