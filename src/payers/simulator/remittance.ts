/**
 * The 835 a payer would send for sessions the service estimated (`coverage simulate-payer --remit`,
 * docs/remittances.md 'The whole loop in the sandbox'): one claim per estimate answer, adjudicated as
 * estimated or with a scenario's deviation, so a sandbox can close the loop estimate -> remittance ->
 * accuracy report without a real payer.
 */
import type { EstimateResponse } from '../../domain/schemas/responses.ts';
import { DEFAULT_DELIMITERS } from '../../x12/delimiters.ts';
import { cleanText } from '../../x12/sanitize.ts';
import type { Adjustment, Claim, Remittance, ServiceLine } from '../../x12/remittance/types.ts';
import { write835 } from '../../x12/remittance/write-835.ts';

/**
 * as_estimated: the member owes what the estimate said, by its parts. deductible_progressed: the
 * deductible was met between the check and the claim (none applied). copay_changed: the copay is
 * $10 higher. denied: no authorization on file, the provider's write-off (CO 197), nothing paid.
 */
export const REMIT_SCENARIOS = ['as_estimated', 'deductible_progressed', 'copay_changed', 'denied'] as const;
export type RemitScenario = (typeof REMIT_SCENARIOS)[number];

/** The copay raise of copay_changed. */
const COPAY_RAISE = 1000;
/** The procedure billed for an estimate of the default encounter (no code): 45 minutes of psychotherapy. */
const DEFAULT_PROCEDURE = '90834';

export interface SimulatedSession {
  estimate: EstimateResponse;
  scenario: RemitScenario;
}

interface Share {
  deductible: number;
  copay: number;
  coinsurance: number;
}

const total = (s: Share) => s.deductible + s.copay + s.coinsurance;

/** The estimate's member share by part, from its own figures; the parts always sum to member_obligation. */
export function estimatedShare(e: EstimateResponse): Share | null {
  const cost = e.provider_session_cost;
  const member = e.member_obligation;
  if (cost === null || member === null) return null;
  // The deductible applies when the share before it is met differs from the share after.
  const applies = e.pre_deductible_member_obligation !== e.post_deductible_member_obligation;
  if (applies && e.remaining_deductible === null) return null;
  const deductible = applies ? Math.min(e.remaining_deductible!, cost, member) : 0;
  const copay = Math.min(e.copayment ?? 0, member - deductible);
  return { deductible, copay, coinsurance: member - deductible - copay };
}

/** The share the scenario's payer states, or why the scenario does not apply to this estimate. */
function adjudicated(e: EstimateResponse, scenario: RemitScenario, share: Share, cost: number): Share | string {
  switch (scenario) {
    case 'as_estimated':
    case 'denied':
      return share;
    case 'deductible_progressed': {
      if (share.deductible === 0) return 'the estimate applied no deductible, so none can have progressed';
      const after = e.post_deductible_member_obligation;
      if (after === null) return "the estimate does not say the member's share once the deductible is met";
      const copay = Math.min(e.copayment ?? 0, after);
      return { deductible: 0, copay, coinsurance: after - copay };
    }
    case 'copay_changed': {
      const raise = Math.min(COPAY_RAISE, cost - total(share));
      if (raise <= 0) return 'the member already owes the whole session';
      return { ...share, copay: share.copay + raise };
    }
  }
}

/** A value as an X12 element may carry it (no delimiters), within the TR3's length. */
const clean = (value: string | null, max: number) => cleanText(value, DEFAULT_DELIMITERS, max) || null;

const PR = (reason: string, amount: number): Adjustment[] => (amount > 0 ? [{ group: 'PR', reason, amount_cents: amount, quantity: null }] : []);

function claimFor(n: number, session: SimulatedSession): Claim | string {
  const e = session.estimate;
  const cost = e.provider_session_cost;
  const share = estimatedShare(e);
  if (cost === null || share === null) return "the estimate's member share or session cost is unknown, so no payer's answer can be simulated";
  const memberId = e.demographics.member_id;
  if (memberId === null) return 'the estimate names no member ID';
  const stated = adjudicated(e, session.scenario, share, cost);
  if (typeof stated === 'string') return `${session.scenario}: ${stated}`;
  const denied = session.scenario === 'denied';
  // A gate (inactive, not covered, visits used up) priced the whole session: the payer denies, the member owes it (PR 96).
  const whole = !denied && e.payer_obligation === 0 && total(stated) === cost && stated.deductible === 0;
  const adjustments: Adjustment[] = denied
    ? [{ group: 'CO', reason: '197', amount_cents: cost, quantity: null }]
    : whole
      ? PR('96', cost)
      : [...PR('1', stated.deductible), ...PR('2', stated.coinsurance), ...PR('3', stated.copay)];
  const member = denied ? 0 : total(stated);
  const paid = denied ? 0 : cost - member;
  const date = e.encounter.date_of_service;
  const line: ServiceLine = {
    procedure: { qualifier: 'HC', code: e.encounter.procedure_code ?? DEFAULT_PROCEDURE, modifiers: [] },
    charge_cents: cost,
    paid_cents: paid,
    revenue_code: null,
    units: 1,
    original_procedure: null,
    date_of_service: date,
    service_end: date,
    allowed_cents: denied || whole ? null : cost,
    adjustments,
    remarks: [],
    line_control: null,
    segment_index: 0,
  };
  return {
    claim_id: `SIM${String(n).padStart(4, '0')}`,
    status_code: denied || whole ? '4' : '1',
    status: denied || whole ? 'denied' : 'primary',
    charge_cents: cost,
    paid_cents: paid,
    patient_responsibility_cents: member,
    filing_indicator: 'CI',
    payer_claim_id: null,
    facility_code: e.encounter.place_of_service,
    frequency: '1',
    patient: { last_name: clean(e.demographics.last_name, 60), first_name: clean(e.demographics.first_name, 35), id_qualifier: 'MI', id: clean(memberId, 80) },
    subscriber: null,
    corrected_insured: null,
    rendering_provider: null,
    statement_start: null,
    statement_end: null,
    adjustments: [],
    lines: [line],
    header_number: '1',
    segment_index: 0,
  };
}

export interface SimulatedRemittance {
  /** The 835 interchange, or null when no session could be written. */
  x12: string | null;
  claims: number;
  /** Sessions left out, by their position (1-based) in the list, and why. */
  skipped: { index: number; reason: string }[];
}

/**
 * The 835 of one payer for the sessions: they must all be of that payer (a payer sends its own
 * remittance). `now` stamps the envelope, the payment and production dates.
 */
export function simulateRemittance(sessions: readonly SimulatedSession[], now: Date, payee: { name: string; npi: string }): SimulatedRemittance {
  const payers = new Set(sessions.map((s) => s.estimate.payer_id));
  if (payers.size > 1) throw new Error(`the estimates are of ${payers.size} payers (${[...payers].join(', ')}): a payer remits its own sessions; pick one`);
  const claims: Claim[] = [];
  const skipped: SimulatedRemittance['skipped'] = [];
  sessions.forEach((s, i) => {
    const claim = claimFor(claims.length + 1, s);
    if (typeof claim === 'string') skipped.push({ index: i + 1, reason: claim });
    else claims.push(claim);
  });
  const first = sessions[0]?.estimate;
  if (claims.length === 0 || first === undefined) return { x12: null, claims: 0, skipped };
  const day = now.toISOString().slice(0, 10);
  const rem: Remittance = {
    control_number: '0001',
    handling: 'I',
    total_paid_cents: claims.reduce((t, c) => t + c.paid_cents, 0),
    credit_debit: 'C',
    payment_method: 'ACH',
    payment_date: day,
    trace: `SIM${day.replaceAll('-', '')}`,
    production_date: day,
    payer: { name: clean(first.payer_name, 60) ?? 'PAYER', id_qualifier: null, id: null, additional_id: clean(first.payer_id, 50) },
    payee: { name: payee.name, id_qualifier: 'XX', id: payee.npi },
    claims,
    provider_adjustments: [],
  };
  return { x12: write835(rem, 'SIMPAYER', 'PRACTICE', { control_number: 1, now }), claims: claims.length, skipped };
}
