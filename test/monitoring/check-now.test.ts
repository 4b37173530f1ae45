/**
 * "Check now" asks the payer, whatever the coverage cache holds (issue 24: a changed plan went
 * unseen in production), and its answer refreshes the cache; a scheduled check still reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CoverageCache, OperationDeps, PayerAnswerResult } from '../../src/operations/context.ts';
import { checkMonitorNow, recordedCheck, type CheckRecorder } from '../../src/operations/monitoring/check-now.ts';
import { SandboxNetwork } from '../../src/payers/sandbox/network.ts';
import { TEST_TODAY } from '../helpers/server.ts';
import { onDay } from '../helpers/clock.ts';

const avery = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  payer_id: 'SBX-EVERGREEN',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
};
const monitor = { id: 'mon_1', owner_id: 'owner1', what: { request: avery, reference: null }, snapshot: null };
const AT = new Date(`${TEST_TODAY}T10:00:00Z`);

function mapCache() {
  const entries = new Map<string, PayerAnswerResult>();
  const calls = { get: 0, set: 0 };
  const cache: CoverageCache = {
    get: async (key) => (calls.get++, structuredClone(entries.get(key) ?? null)),
    set: async (key, value) => void (calls.set++, entries.set(key, structuredClone(value))),
    close: async () => {},
  };
  return { cache, entries, calls };
}

const recorder = (): CheckRecorder & { records: unknown[] } => {
  const records: unknown[] = [];
  return { records, recordCheck: async (_m, record) => (records.push(record), true) };
};

test('check now reaches the payer past a cached answer, and refreshes the cache with what it found', async () => {
  const { cache, entries, calls } = mapCache();
  const deps: OperationDeps = {
    network: new SandboxNetwork({ clock: onDay(TEST_TODAY) }),
    clock: onDay(TEST_TODAY),
    payerTimeoutMs: 5_000,
    scanTimeoutMs: 5_000,
    cache,
  };
  const first = await recordedCheck(deps, recorder(), monitor, AT, null);
  const truth = first!.snapshot!.plan_end_date;
  assert.ok(truth !== null, 'the payer names the plan end');
  assert.equal(entries.size, 1, 'the answer was cached');

  // The cache now holds an answer the payer no longer gives.
  for (const value of entries.values()) value.coverage.plan_end_date = '2026-01-31';
  const scheduled = await recordedCheck(deps, recorder(), monitor, AT, null);
  assert.equal(scheduled!.snapshot!.plan_end_date, '2026-01-31', 'a scheduled check reads the cache');

  const getsBefore = calls.get;
  const rec = recorder();
  const now = await checkMonitorNow(deps, rec, monitor, AT);
  assert.equal(now!.snapshot!.plan_end_date, truth, "check now has the payer's answer");
  assert.equal(calls.get, getsBefore, 'check now never looked in the cache');
  assert.equal(rec.records.length, 1, 'and was recorded');
  for (const value of entries.values()) assert.equal(value.coverage.plan_end_date, truth, 'the cache holds the fresh answer');
});

test('check now whose record is refused (the monitor is gone) answers null', async () => {
  const deps: OperationDeps = {
    network: new SandboxNetwork({ clock: onDay(TEST_TODAY) }),
    clock: onDay(TEST_TODAY),
    payerTimeoutMs: 5_000,
    scanTimeoutMs: 5_000,
  };
  assert.equal(await checkMonitorNow(deps, { recordCheck: async () => false }, monitor, AT), null);
});
