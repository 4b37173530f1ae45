/**
 * Availity's payer list (GET /v1/availity-payer-list, Payer List API 1.0.5): an array of payers, or
 * an object holding them in `payers`. Each payer: payerId (Availity's ID: the payer_id and the
 * connection's payer ID), displayName (else name), processingRoutes[] with transactionDescription
 * ("Eligibility and Benefits Inquiry" is the 270; a transactionType "270" is read too),
 * submissionMode (Portal, Batch, RealTime, API), availability (false: needs another Availity
 * contract) and enrollmentRequired.
 *
 * Eligibility: a 270 route we can use (RealTime or API, or no mode given) that needs neither
 * enrollment nor another contract: supported; only ones that do: enrollment_required; none:
 * not_supported (a portal- or batch-only 270 cannot answer a real-time check).
 */
import { Type, type Static } from 'typebox';
import type { Eligibility } from '../../store/payer-catalog.ts';
import { listedRecords, NAME_MAX, PAYER_ID, refuseBadRecords, schemaProblems, type PayerList } from './imported-payer.ts';

const ProcessingRoute = Type.Object({
  transactionDescription: Type.Optional(Type.String()),
  transactionType: Type.Optional(Type.String()),
  submissionMode: Type.Optional(Type.String()),
  availability: Type.Optional(Type.Boolean()),
  enrollmentRequired: Type.Optional(Type.Boolean()),
});

/** The fields of an Availity payer we read; its others (shortName, rebate tiers...) pass. */
const AvailityPayer = Type.Object({
  payerId: Type.String({ pattern: PAYER_ID.source }),
  name: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  // The swagger types it as one route object while describing "a list of the routes": both are read.
  processingRoutes: Type.Optional(Type.Union([Type.Array(ProcessingRoute), ProcessingRoute])),
});
type ProcessingRoute = Static<typeof ProcessingRoute>;

const ELIGIBILITY_DESCRIPTION = 'eligibility and benefits inquiry';
const REAL_TIME_MODES = new Set(['realtime', 'api']);

const isEligibility = (r: ProcessingRoute) => r.transactionType?.trim() === '270' || r.transactionDescription?.trim().toLowerCase() === ELIGIBILITY_DESCRIPTION;
const isRealTime = (r: ProcessingRoute) => r.submissionMode === undefined || REAL_TIME_MODES.has(r.submissionMode.replace(/[\s-]/g, '').toLowerCase());

export function availityEligibility(routes: readonly ProcessingRoute[]): Eligibility {
  const usable = routes.filter((r) => isEligibility(r) && isRealTime(r));
  if (usable.length === 0) return 'not_supported';
  return usable.some((r) => r.enrollmentRequired !== true && r.availability !== false) ? 'supported' : 'enrollment_required';
}

export function parseAvailityPayers(text: string): PayerList {
  const list = listedRecords(text, 'payers', 'not Availity\'s payer list: expected an array of payers or {"payers": [...]} (GET /v1/availity-payer-list)');
  const problems: string[] = [];
  // A payer listed twice (one entry per route group) is one payer with the routes of both.
  const byId = new Map<string, { name: string; routes: ProcessingRoute[] }>();
  list.items.forEach((record, i) => {
    const where = `${list.at}[${i}]`;
    const bad = schemaProblems(AvailityPayer, record);
    if (bad.length > 0) return void problems.push(`${where}: ${bad.join(', ')}`);
    const p = record as Static<typeof AvailityPayer>;
    const name = (p.displayName?.trim() || p.name?.trim() || '').slice(0, NAME_MAX);
    if (name === '') return void problems.push(`${where}: no displayName or name`);
    const routes = p.processingRoutes === undefined ? [] : Array.isArray(p.processingRoutes) ? p.processingRoutes : [p.processingRoutes];
    const seen = byId.get(p.payerId);
    if (seen) seen.routes.push(...routes);
    else byId.set(p.payerId, { name, routes: [...routes] });
  });
  refuseBadRecords(problems, 'records');
  const payers: PayerList['payers'] = [...byId].map(([id, p]) => ({
    entry: { payer_id: id, name: p.name, aliases: [], eligibility: availityEligibility(p.routes), medicaid_state: null },
    connection_payer_id: id,
  }));
  return { payers, notes: [] };
}
