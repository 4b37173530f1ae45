/** The catalog's JSON files are checked when they load: a wrong key or field fails there, saying where. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CATALOG } from '../../src/sandbox/catalog.ts';
import { CatalogError, loadCatalog } from '../../src/sandbox/load-catalog.ts';

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../src/sandbox/${name}`, import.meta.url), 'utf8'));
const files = () => ({ payers: read('payers.json'), plans: read('plans.json'), members: read('members.json'), suffixes: read('suffixes.json') });
type Files = ReturnType<typeof files> & { members: { plan: string; payer_id: string }[]; suffixes: { plan: string }[] };

function loadError(edit: (f: Files) => void): string {
  const f = files() as Files;
  edit(f);
  try {
    loadCatalog(f);
  } catch (e) {
    assert.ok(e instanceof CatalogError, String(e));
    return e.message;
  }
  assert.fail('the catalog loaded');
}

test('the files as they are load into the catalog the service uses', () => {
  assert.deepEqual(loadCatalog(files()), CATALOG);
});

test('a member naming a plan plans.json does not hold fails the load, naming the file, the entry and the key', () => {
  const message = loadError((f) => (f.members[3]!.plan = 'comercial_copay'));
  assert.match(message, /members\.json \/3\/plan: unknown plan "comercial_copay": plans\.json has no such key/);
  assert.equal(message.split('\n').length, 2, message);
});

test('a suffix scenario or an administrator naming an unknown plan fails the load too', () => {
  assert.match(
    loadError((f) => (f.suffixes[0]!.plan = 'nope')),
    /suffixes\.json \/0\/plan: unknown plan "nope"/,
  );
  assert.match(
    loadError((f) => ((f.payers as { administrator_plans: Record<string, string> }).administrator_plans['SBX-MINDFUL'] = 'nope')),
    /payers\.json \/administrator_plans\/SBX-MINDFUL: unknown plan "nope"/,
  );
});

test('a plan removed while a member still names it fails the load', () => {
  const message = loadError((f) => delete (f.plans as Record<string, unknown>).qmb);
  assert.match(message, /members\.json \/\d+\/plan: unknown plan "qmb"/);
});

test('an unknown payer, a misspelt field or an unknown date token fails the load', () => {
  assert.match(
    loadError((f) => (f.members[0]!.payer_id = 'SBX-EVERGREN')),
    /members\.json \/0\/payer_id: unknown payer "SBX-EVERGREN"/,
  );
  assert.match(
    loadError((f) => ((f.members[0] as Record<string, unknown>).descripton = 'x')),
    /members\.json \/0: must not have additional properties/,
  );
  assert.match(
    loadError((f) => ((f.plans as Record<string, { plan_end_date: string }>).commercial_copay!.plan_end_date = '@year_ends')),
    /plans\.json \/commercial_copay\/plan_end_date: /,
  );
});
