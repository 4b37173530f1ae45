/**
 * docs/remittances.md 'The calls' against a sandbox, as written, on any day: the estimates its curl
 * calls send (today's sessions), then examples/remittance.835 dated today by the page's own sed line,
 * answer what the page says they answer. Run on days across the year and on the day the suite runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { startTestServer } from '../helpers/server.ts';

const ROOT = new URL('../..', import.meta.url);
const page = readFileSync(new URL('docs/remittances.md', ROOT), 'utf8');
const start = page.indexOf('## The calls');
const calls = page.slice(start, page.indexOf('\n## ', start + 1));

/** The page's shell, for one day: `date -u +%Y%m%d` and `date -u +%F` are that day. */
function asOn(day: string) {
  const bodies = [...calls.matchAll(/\/v1\/estimate .*?-d '(\{[\s\S]*?\})'/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
  const sed = /sed "s\/(\d{8})\/\$\(date -u \+%Y%m%d\)\/g" (\S+) > (\S+)/.exec(calls);
  assert.ok(sed, 'the page dates the example file with sed');
  const [, from, source, target] = sed;
  assert.ok(calls.includes(`--data-binary @${target}`), 'the page sends the file it dated');
  const file = readFileSync(new URL(source!, ROOT), 'latin1').replaceAll(from!, day.replaceAll('-', ''));
  const accuracy = /"\$URL(\/v1\/accuracy[^"]*)"/.exec(calls)![1]!.replace('$(date -u +%F)', day);
  return { bodies, file, accuracy };
}

const today = new Date().toISOString().slice(0, 10);
const days = [...new Set(['2026-12-06', '2027-01-01', '2027-02-28', '2027-06-15', '2027-09-30', '2027-12-31', '2028-02-29', today])];

for (const day of days) {
  test(`on ${day}${day === today ? ' (today)' : ''}: exact, unmatched with its reason, over-collected by $80 with its cause`, async () => {
    const server = await startTestServer({ today: day, now: () => new Date(`${day}T12:00:00Z`) });
    try {
      const { bodies, file, accuracy } = asOn(day);
      assert.equal(bodies.length, 2, 'two estimate calls on the page');
      for (const body of bodies) {
        const r = await server.post('/v1/estimate', body);
        assert.equal(r.status, 200);
        assert.equal(r.body.encounter.date_of_service, day);
      }
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

      const report = await server.get(accuracy);
      assert.equal(report.status, 200);
      assert.deepEqual(
        report.body.payers.map((p: { payer_id: string; exact: number; off: number }) => [p.payer_id, p.exact, p.off]),
        [['SBX-EVERGREEN', 1, 1]],
      );
    } finally {
      await server.close();
    }
  });
}
