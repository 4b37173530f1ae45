/** The catalog covers every scenario the spec names, and the README shows the same member table. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { memberTableMarkdown } from '../../src/sandbox/member-table-markdown.ts';
import { resolveDateToken } from '../../src/payers/sandbox/resolve-plan.ts';

test('the README shows the catalog table exactly (run scripts/update-readme-members.ts after catalog edits)', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(memberTableMarkdown()));
});

test('every suffix of spec 10.4 has a scenario and a named member', () => {
  for (const suffix of ['NA', 'UC', 'UA', 'OMCR', 'MA', 'OMCD', 'MM', 'CA', 'SP', 'MNF', 'RR', 'EXP', 'EXS', 'DM']) {
    assert.ok(CATALOG.suffixes.some((s) => s.suffix === suffix), suffix);
    assert.ok(CATALOG.members.some((m) => m.member_id.endsWith(`MH${suffix}`)), `named member for ${suffix}`);
  }
});

test('every category of spec 10.5, behaviour of 2.2, group of 10.3 and discover error of 10.6 has a named member', () => {
  const scenarios = new Set(CATALOG.members.map((m) => m.scenario));
  for (const s of [
    'active_commercial', 'coinsurance_after_deductible', 'copay_after_deductible', 'deductible_met', 'deductible_and_oop_met', 'missing_totals', 'ppo',
    'original_medicare', 'medicare_advantage', 'medicare_supplemental', 'managed_medicaid', 'state_medicaid_active', 'state_medicaid_inactive', 'qmb',
    'inactive', 'active_at_risk', 'telehealth', 'marketplace', 'high_deductible', 'bluecard', 'demographic_mismatch', 'demographic_mismatch_payer_corrected',
    'missing_address', 'pcp_with_organization', 'pcp_without_organization', 'carve_out', 'additional_policy', 'utilization_manager',
    'reset_no_action', 'reset_copay_change', 'reset_coinsurance_change', 'reset_member_id_change', 'reset_oop_max_change', 'reset_copay_deductible_oop_change',
    'provider_not_recognized', 'member_not_found', 'payer_throttled', 'payer_failure', 'payer_not_supported', 'unknown_costshare', 'unknown_remainings',
  ]) {
    assert.ok(scenarios.has(s), s);
  }
  const discoverCodes = new Set(CATALOG.members.flatMap((m) => (m.expect.discover ? [m.expect.discover.status] : [])));
  for (const status of [400, 404, 429]) assert.ok(discoverCodes.has(status), `discover ${status}`);
});

test('named members have unique IDs, names, DOBs and known plans and payers', () => {
  const ids = CATALOG.members.map((m) => m.member_id);
  assert.equal(new Set(ids).size, ids.length);
  const people = CATALOG.members.map((m) => `${m.person.first_name}|${m.person.last_name}|${m.person.dob}`.toUpperCase());
  assert.equal(new Set(people).size, people.length);
  for (const m of CATALOG.members) {
    assert.ok(CATALOG.plans[m.plan], `${m.member_id} plan ${m.plan}`);
    assert.ok(CATALOG.payers.some((p) => p.payer_id === m.payer_id), `${m.member_id} payer ${m.payer_id}`);
    assert.match(m.person.dob, /^\d{4}-\d{2}-\d{2}$/);
  }
});

test('date tokens resolve against the injected day', () => {
  assert.equal(resolveDateToken('@today+20', '2026-12-20'), '2027-01-09');
  assert.equal(resolveDateToken('@today-40', '2026-03-01'), '2026-01-20');
  assert.equal(resolveDateToken('@year_start', '2026-06-15'), '2026-01-01');
  assert.equal(resolveDateToken('@year_end', '2026-06-15'), '2026-12-31');
  assert.equal(resolveDateToken('@last_year_start', '2026-06-15'), '2025-01-01');
  assert.equal(resolveDateToken('2019-03-01', '2026-06-15'), '2019-03-01');
  assert.throws(() => resolveDateToken('@someday', '2026-06-15'));
});
