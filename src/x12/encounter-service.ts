/**
 * The encounter's own service types (docs/estimates.md 1.1, "The encounter's service types"): a session of a
 * procedure the HCPCS/CPT descriptors name a substance-use service (H0001 alcohol and/or drug assessment, ...)
 * is a substance-use service, EB03 AI/AJ/AK, not mental health's; any other procedure, or none, is the
 * psychotherapy session the reader prices by default. The procedures are data (procedure-service-types.json).
 * Status and contact rows cover their own service types (TR3 005010X279A1 2110C EB03): those naming the
 * encounter's types speak for it.
 */
import type { Encounter } from '../domain/encounter.ts';
import { codeIn } from './code-tables/index.ts';
import TABLE from './benefits/procedure-service-types.json' with { type: 'json' };
import MINUTES from './benefits/procedure-minutes.json' with { type: 'json' };

const TYPES: Readonly<Record<string, readonly string[]>> = TABLE.service_types;
const PROCEDURES: Readonly<Record<string, { name: string; service: string }>> = TABLE.procedures;

/** The EB03 service types of the encounter's procedure when the table names them; null: a mental-health session (the default). */
export function encounterServiceTypes(encounter: Encounter | null): readonly string[] | null {
  const code = encounter?.procedure_code;
  if (!code) return null;
  const p = codeIn(PROCEDURES, code.toUpperCase());
  return p ? (codeIn(TYPES, p.service) ?? null) : null;
}

const TIMED: Readonly<Record<string, { name: string; least: number; most: number | null }>> = MINUTES.procedures;

/**
 * The minutes a session of the encounter's procedure may last, by the CPT time rule (procedure-minutes.json): up to
 * `most`, at least `least` when the code has no upper bound (90837: 53 minutes or more). A limit in hours with less
 * left than this cannot be said to cover the session (docs/estimates.md 1.1, "Visit limits"). Null: a procedure the
 * table does not time (or none).
 */
export function sessionMinutes(encounter: Encounter | null | undefined): number | null {
  const code = encounter?.procedure_code;
  if (!code) return null;
  const p = codeIn(TIMED, code.toUpperCase());
  return p ? (p.most ?? p.least) : null;
}
