/** Every 271 of the corpus (test/fixtures/271/) read by the normalizer and priced by the estimate, as its sidecar says. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EstimateRequest } from '../../src/domain/schemas/requests.ts';
import { withoutMedicalPrice } from '../../src/operations/carve-out.ts';
import { estimateBody } from '../../src/operations/estimate.ts';
import { normalize271 } from '../../src/x12/index.ts';
import { assertSubset, corpus, encounterOf, personOf } from './corpus.ts';

const cases = corpus();

test('the corpus holds at least 40 271s, each stating its rule and source', () => {
  assert.ok(cases.length >= 40, `${cases.length} corpus files`);
  for (const c of cases) {
    assert.ok(c.expect.rule.length > 20, `${c.name}: rule`);
    assert.ok(c.expect.source.length > 0, `${c.name}: source`);
    assert.ok(c.expect.estimate || c.expect.rejected, `${c.name}: states an estimate or a rejection`);
  }
});

for (const c of cases) {
  test(`corpus ${c.name}: ${c.expect.rule}`, () => {
    const encounter = encounterOf(c);
    // As /v1/estimate reads it: for the member ID asked about (src/operations/ask-payer.ts).
    const r = normalize271(c.text, { encounter, memberId: c.expect.request.member_id, person: personOf(c) });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    for (const w of c.expect.warnings ?? [])
      assert.ok(
        r.warnings.some((x) => x.includes(w)),
        `${c.name}: a warning with "${w}" in ${JSON.stringify(r.warnings)}`,
      );
    if (c.expect.rejected) {
      assert.equal(r.value.kind, 'rejected');
      assertSubset(r.value, c.expect.rejected, c.name);
      return;
    }
    assert.ok(r.value.kind === 'coverage', `${c.name}: ${JSON.stringify(r.value)}`);
    const coverage = r.value.coverage;
    if (c.expect.normalized) assertSubset(coverage, c.expect.normalized, `${c.name} normalized`);
    const e = c.expect.estimate!;
    // As in production when no carve-out administrator can be asked (the replay test has none in its directory).
    const { status, body } = estimateBody(withoutMedicalPrice(coverage), c.expect.request as EstimateRequest, c.expect.today, encounter.date_of_service);
    assert.equal(status, e.status, `${c.name}: status`);
    assertSubset(body, e.body, `${c.name} estimate`);
    if (e.alert_codes) assert.deepEqual(body.alerts.map((a) => a.code).sort(), [...e.alert_codes].sort(), `${c.name}: alerts`);
  });
}
