/**
 * The encounter's own service types (docs/estimates.md 1.1, "The encounter's service types"): a session of a
 * procedure the HCPCS/CPT descriptors name a substance-use service (H0001 alcohol and/or drug assessment, ...)
 * is a substance-use service, EB03 AI/AJ/AK, not mental health's; any other procedure, or none, is the
 * psychotherapy session the reader prices by default. The procedures are data (procedure-service-types.json).
 * Status and contact rows cover their own service types (TR3 005010X279A1 2110C EB03): those naming the
 * encounter's types speak for it.
 */
import type { NetworkBenefits } from '../domain/coverage.ts';
import type { Encounter } from '../domain/encounter.ts';
import { notCovered } from './benefits/gates.ts';
import { traced, type TraceEntry } from './benefits/trace.ts';
import { codeIn } from './code-tables/index.ts';
import { statusOf, type Benefit } from './eb-benefit.ts';
import { costApplies } from './benefits/rows.ts';
import TABLE from './benefits/procedure-service-types.json' with { type: 'json' };

const TYPES: Readonly<Record<string, readonly string[]>> = TABLE.service_types;
const PROCEDURES: Readonly<Record<string, { name: string; service: string }>> = TABLE.procedures;

/** The EB03 service types of the encounter's procedure when the table names them; null: a mental-health session (the default). */
export function encounterServiceTypes(encounter: Encounter | null): readonly string[] | null {
  const code = encounter?.procedure_code;
  if (!code) return null;
  const p = codeIn(PROCEDURES, code.toUpperCase());
  return p ? (codeIn(TYPES, p.service) ?? null) : null;
}

/** The row names one of the service types. */
export const namesAny = (b: Pick<Benefit, 'serviceTypes'>, types: readonly string[]) => b.serviceTypes.some((t) => types.includes(t));

/**
 * The networks for which the status rows naming the encounter's own service types say inactive and none says
 * active (EB01 6-8 on AI/AJ/AK for a substance-use assessment): the session is not covered there. `row`: the
 * first inactive row, for the explanation. Rows with values no rule reads say nothing here.
 */
export function ownServiceInactive(current: readonly Benefit[], types: readonly string[]): { in: boolean; out: boolean; row: Benefit | undefined } {
  const said = { in: null as 'active' | 'inactive' | null, out: null as 'active' | 'inactive' | null };
  let row: Benefit | undefined;
  for (const b of current) {
    if (!b.status || b.telehealth || b.unknown.length > 0 || !namesAny(b, types)) continue;
    const status = statusOf(b.info) === 'inactive' ? 'inactive' : 'active';
    if (status === 'inactive') row ??= b;
    for (const n of ['in', 'out'] as const) if (costApplies(b, n)) said[n] = said[n] === 'active' || status === 'active' ? 'active' : 'inactive';
  }
  return { in: said.in === 'inactive', out: said.out === 'inactive', row };
}

/**
 * The networks' benefits once the encounter's own service types are read: not covered in a network whose status
 * rows for those types say inactive (ownServiceInactive). `current`: the rows that apply (null: nothing to read).
 */
export function ownServiceGate<T extends { in_network: NetworkBenefits | null; out_of_network: NetworkBenefits | null }>(
  priced: T,
  current: readonly Benefit[] | null,
  types: readonly string[] | null,
  trace: TraceEntry[] | undefined,
): { in_network: NetworkBenefits | null; out_of_network: NetworkBenefits | null } {
  if (current === null || types === null) return priced;
  const closed = ownServiceInactive(current, types);
  if (!closed.in && !closed.out) return priced;
  const reason = `the payer reports the encounter's service (${types.join(', ')}) inactive`;
  trace?.push(traced('not covered', closed.in && closed.out ? null : closed.in ? 'in' : 'out', closed.row ?? null, reason));
  return {
    in_network: closed.in ? notCovered(priced.in_network, reason) : priced.in_network,
    out_of_network: closed.out ? notCovered(priced.out_of_network, reason) : priced.out_of_network,
  };
}
