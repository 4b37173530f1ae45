/**
 * `coverage simulate-payer --remit ESTIMATES.json [--scenario NAME] [--out FILE]`: the 835 the payer
 * would send for estimates the service answered (src/payers/simulator/remittance.ts), so the sandbox
 * shows the whole loop: estimate, remittance, accuracy report (docs/remittances.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Value } from 'typebox/value';
import { EstimateResponse } from '../domain/schemas/responses.ts';
import { REMIT_SCENARIOS, simulateRemittance, type RemitScenario, type SimulatedSession } from '../payers/simulator/remittance.ts';
import type { CliIo } from './io.ts';
import { dateOf, systemClock } from '../domain/clock.ts';

export interface SimulateRemitOptions {
  remit: string;
  scenario?: string;
  out?: string;
  npi?: string;
}

const isScenario = (s: unknown): s is RemitScenario => typeof s === 'string' && (REMIT_SCENARIOS as readonly string[]).includes(s);

/** A JSON array of estimate answers (as POST /v1/estimate gave them), each alone or as {"scenario": NAME, "estimate": ANSWER}. */
export function readSessions(text: string, fallback: RemitScenario): SimulatedSession[] {
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list)) throw new Error('expected a JSON array of estimate answers');
  return list.map((item: unknown, i) => {
    const wrapped = typeof item === 'object' && item !== null && 'estimate' in item;
    const estimate = wrapped ? item.estimate : item;
    const scenario = wrapped && 'scenario' in item ? (item as { scenario: unknown }).scenario : fallback;
    if (!isScenario(scenario)) throw new Error(`entry ${i + 1}: scenario must be one of ${REMIT_SCENARIOS.join(', ')}`);
    if (!Value.Check(EstimateResponse, estimate)) {
      const first = Value.Errors(EstimateResponse, estimate)[0];
      throw new Error(`entry ${i + 1} is not an estimate answer (${first ? `${first.instancePath || '/'} ${first.message}` : 'not an object'})`);
    }
    return { estimate, scenario };
  });
}

/** Writes the 835 (to --out, else stdout) and says on stderr what it holds; the exit code. */
export function runSimulateRemit(opts: SimulateRemitOptions, io: CliIo, now = dateOf(systemClock)): number {
  const scenario = opts.scenario ?? 'as_estimated';
  if (!isScenario(scenario)) {
    io.stderr(`coverage simulate-payer: --scenario must be one of ${REMIT_SCENARIOS.join(', ')}\n`);
    return 1;
  }
  let sessions: SimulatedSession[];
  try {
    sessions = readSessions(readFileSync(opts.remit, 'utf8'), scenario);
  } catch (err) {
    io.stderr(`coverage simulate-payer: ${opts.remit}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  let result;
  try {
    result = simulateRemittance(sessions, now, { name: 'PRACTICE', npi: opts.npi ?? '1234567893' });
  } catch (err) {
    io.stderr(`coverage simulate-payer: ${(err as Error).message}\n`);
    return 1;
  }
  for (const s of result.skipped) io.stderr(`  entry ${s.index} left out: ${s.reason}\n`);
  if (result.x12 === null) {
    io.stderr('coverage simulate-payer: no session could be remitted; nothing written\n');
    return 1;
  }
  if (opts.out) writeFileSync(opts.out, result.x12);
  else io.stdout(result.x12);
  io.stderr(`Wrote an 835 of ${result.claims} claim${result.claims === 1 ? '' : 's'}${opts.out ? ` to ${opts.out}` : ''}: send it with coverage remit FILE\n`);
  return 0;
}
