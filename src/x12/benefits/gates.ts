/**
 * Every gate read from the 271 before any arithmetic (docs/estimates.md section 1.1, "Gates"), in
 * one place: Medicare Part B not in force on the date of service, a Medicaid spend-down not met,
 * behavioral health inactive for one network, the plan inactive for one network (and a network no
 * status row speaks for, whose status is unknown). A gate that closes leaves the member the whole
 * session: the network's benefits become not covered, with the reason. The estimate reads them
 * from the Coverage (src/domain/estimate/estimate.ts `gateOf`, with the plan inactive or not in
 * force and a visit limit used up); the domain imports nothing of x12/, so that reading stays there.
 */
import type { NetworkBenefits } from '../../domain/coverage.ts';
import { periodKind } from '../codes.ts';
import { benefitRole, limitedProgramOf, medicarePartOf } from '../code-tables/attributes.ts';
import { insuranceCode, statusOf, type Benefit } from '../eb-benefit.ts';
import { costApplies } from './rows.ts';
import type { BenefitLoop } from '../loops.ts';
import type { PartState } from '../medicare.ts';
import type { SessionStatus } from '../plan-rows.ts';
import { el } from '../tokenizer.ts';
import { dollarsToCents } from '../values.ts';
import { traced, type TraceEntry } from './trace.ts';

interface Row {
  loop: BenefitLoop;
  info: string;
}

type Networks = { in_network: NetworkBenefits | null; out_of_network: NetworkBenefits | null };

/** What the gates read beside the rows. */
export interface GateFacts {
  /** The rows that apply to the encounter. */
  current: readonly Benefit[];
  /** Medicare's parts on the date of service (traditional Medicare and QMB only), else null. */
  parts: { a: PartState; b: PartState } | null;
  /** The plan is inactive: no gate is read (the estimate's own gate closes). */
  inactive: boolean;
  /** Mental health's status rows say inactive for this network only (EB12 Y or N): its session is not covered. */
  mhInactive: { in: boolean; out: boolean };
  /** What the status rows say of each network (plan-rows.ts sessionStatus): inactive for one only closes it; none for one leaves it unknown. */
  session: Pick<SessionStatus, 'closed' | 'unstated' | 'limited'>;
  trace?: TraceEntry[];
}

/**
 * The networks' benefits once the gates are read: the first whole-session gate (Part B missing, else
 * an unmet spend-down) closes both; without one, behavioral health or the plan inactive for one
 * network closes that network, and a network no status row speaks for is marked status unknown.
 */
export function closeGates(networks: Networks, facts: GateFacts): Networks {
  let { in_network, out_of_network } = networks;
  const { current, parts, trace } = facts;
  let gate: { reason: string; rows: readonly Benefit[] } | null = null;
  if (!facts.inactive) {
    if (parts && partBMissing(parts))
      gate = {
        reason: `Medicare Part A ${parts.a}, Part B ${parts.b} on the date of service: outpatient psychotherapy is a Part B service`,
        rows: current.filter((b) => b.status && medicarePartOf(insuranceCode(b)) === 'part_b'),
      };
    else gate = spendDownGate(current);
    if (gate === null && facts.session.limited) gate = limitedProgramGate(facts.session.limited);
  }
  if (gate === null && !facts.inactive && (facts.mhInactive.in || facts.mhInactive.out)) {
    if (facts.mhInactive.in) in_network = notCovered(in_network, 'the payer reports behavioral health inactive in network');
    if (facts.mhInactive.out) out_of_network = notCovered(out_of_network, 'the payer reports behavioral health inactive out of network');
    trace?.push(traced('not covered', facts.mhInactive.in ? 'in' : 'out', null, 'an EB*6 for mental health names this network (EB12) only'));
  }
  if (gate === null && !facts.inactive) {
    const { closed, unstated } = facts.session;
    if (closed.in) in_network = notCovered(in_network, 'the payer reports the plan inactive in network');
    if (closed.out) out_of_network = notCovered(out_of_network, 'the payer reports the plan inactive out of network');
    if (closed.in || closed.out) trace?.push(traced('not covered', closed.in ? 'in' : 'out', null, 'an inactive status row names this network (EB12) only'));
    if (unstated.in && in_network) in_network = { ...in_network, status_unknown: true };
    if (unstated.out && out_of_network) out_of_network = { ...out_of_network, status_unknown: true };
    for (const n of ['in', 'out'] as const)
      if (unstated[n])
        trace?.push(traced('coverage status: unknown', n, null, 'no status row (EB01 1-8) for the plan or mental health names this network (EB12)'));
  }
  if (gate !== null) {
    in_network = notCovered(in_network, gate.reason);
    out_of_network = notCovered(out_of_network, gate.reason);
    if (gate.rows.length === 0) trace?.push(traced('not covered', null, null, gate.reason));
    for (const b of gate.rows) trace?.push(traced('not covered', null, b, gate.reason));
  }
  return { in_network, out_of_network };
}

/**
 * A plan active only for a limited program's services (eb03.json `limitedProgram`: emergency Medicaid, 42 CFR
 * 440.255(c); a family-planning-only Medicaid group, 42 CFR 435.214; a dental, vision or pharmacy plan) does not cover
 * an outpatient psychotherapy session: the member owes the whole session (plan-rows.ts limitedProgramRows).
 */
function limitedProgramGate(rows: readonly Benefit[]): { reason: string; rows: readonly Benefit[] } {
  const services = new Set<string>();
  for (const b of rows) for (const t of b.serviceTypes) services.add(`${limitedProgramOf(t) ?? t} (EB03 ${t})`);
  return {
    reason: `the payer reports the plan active only for ${[...services].join(', ')}: an outpatient psychotherapy session is not among its services`,
    rows,
  };
}

/**
 * Outpatient psychotherapy is a Part B service (42 CFR 410.32 ff., Medicare Benefit Policy Manual
 * ch. 15 §160): with Part A alone, or Part B ended, the session is not covered.
 */
export function partBMissing(parts: { a: PartState; b: PartState }): boolean {
  return parts.b === 'ended' || parts.b === 'not yet begun' || (parts.b === 'absent' && parts.a !== 'absent');
}

export function notCovered(reported: NetworkBenefits | null, reason: string): NetworkBenefits {
  return {
    not_covered_reason: reason,
    copayment: null,
    coinsurance: null,
    deductible_applies: false,
    deductible: reported?.deductible ?? null,
    oop_max: reported?.oop_max ?? null,
    visit_limit: null,
    not_covered: true,
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * A Medicaid spend-down (EB01 Y) that is not met: Medicaid pays nothing until the member has incurred
 * the spend-down amount. Unmet when a remaining amount (EB06 29/33) above 0 is sent, or when only a
 * total above 0 is sent and what was met (EB06 24) does not reach it. A remaining of 0 is met.
 */
export function spendDownGate<T extends Row>(rows: readonly T[]): { reason: string; rows: T[] } | null {
  const spendDown: T[] = [];
  let remaining: number | null = null;
  let total: number | null = null;
  let met: number | null = null;
  for (const b of rows) {
    if (benefitRole(b.info) !== 'spend_down') continue;
    spendDown.push(b);
    const v = el(b.loop.seg, 7);
    const amount = v === '' ? null : dollarsToCents(v);
    if (amount === null) continue;
    const kind = periodKind(el(b.loop.seg, 6));
    if (kind === 'remaining') remaining = Math.max(remaining ?? 0, amount);
    else if (kind === 'met') met = Math.max(met ?? 0, amount);
    else if (kind === 'total') total = Math.max(total ?? 0, amount);
  }
  if (remaining === null && total !== null) remaining = Math.max(0, total - (met ?? 0));
  if (remaining === null || remaining <= 0) return null;
  return { reason: `Medicaid spend-down (EB01 Y) not met: ${dollars(remaining)} remains before Medicaid pays`, rows: spendDown };
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
