/**
 * Feedback at the desk (docs/remittances.md 'Feedback at the desk'): where the last remittance lines
 * of a payer and plan group disagree the same way with what the payer's eligibility answer said of a
 * benefit (copay, coinsurance, deductible), an estimate for that payer and group carries an advisory
 * alert, REMITTANCE_MISMATCH, citing those lines. Advisory only: the estimate's figures stay the
 * payer's. Pure: the store hands in the observations, newest first.
 */
import type { Observed } from '../../domain/remittance-line.ts';
import type { Alert, RemittanceCitation } from '../../domain/schemas/responses.ts';
import type { LineComparison } from './compare.ts';
import type { KeptEstimate } from './kept-estimate.ts';

/** How many lines must disagree, all the same way: the last this many for the benefit. */
export const ADVISORY_LINES = 3;
/** Only lines of remittances received within this many days count. */
export const ADVISORY_DAYS = 90;
/** Coinsurance and deductible amounts differ when they differ by more than this (the `within_1` dollar). */
const TOLERANCE = 100;

export type Benefit = 'copay' | 'coinsurance' | 'deductible';

export type { Observed } from '../../domain/remittance-line.ts';

/** A compared line as kept (store/remittances.ts), for the advisory. */
export interface Observation extends Observed {
  remittance_id: string;
  line_no: number;
  /** ISO instant the remittance was received. */
  created_at: string;
}

/** The estimate an advisory may be added to. */
export interface AdvisoryTarget {
  group_id: string | null;
  /** The 271's per-session copay (cents). */
  copayment: number | null;
  /** The 271's coinsurance in percent points (20 = 20 %). */
  coinsurance: number | null;
}

/** A line that observes nothing (not compared, not primary, its estimate not split into parts). */
export const NO_OBSERVATION: Observed = {
  copay_said: null,
  copay_estimated: null,
  copay_paid: null,
  coinsurance_said: null,
  coinsurance_estimated: null,
  coinsurance_paid: null,
  deductible_estimated: null,
  deductible_paid: null,
};

export const millionthsOf = (percent: number | null): number | null => (percent === null ? null : Math.round(percent * 10_000));

/**
 * What a compared line observes. Nothing for a line not compared, of a claim not processed as
 * primary (a denial says nothing of the copay), or whose estimate could not be split into parts.
 * Coinsurance and deductible only where the payer allowed the session cost (at another allowed amount
 * they differ by the fee schedule, not the benefit).
 */
export function observedOf(kept: KeptEstimate, claimStatus: string, c: LineComparison): Observed {
  const p = c.estimated_parts;
  if (c.verdict === 'not_comparable' || claimStatus !== 'primary' || p === null) return NO_OBSERVATION;
  const sameAllowed = c.allowed === null || c.allowed === c.session_cost;
  return {
    copay_said: kept.copayment,
    copay_estimated: p.copay,
    copay_paid: c.member_share.copay,
    coinsurance_said: sameAllowed ? millionthsOf(kept.coinsurance) : null,
    coinsurance_estimated: sameAllowed ? p.coinsurance : null,
    coinsurance_paid: sameAllowed ? c.member_share.coinsurance : null,
    deductible_estimated: sameAllowed ? p.deductible : null,
    deductible_paid: sameAllowed ? c.member_share.deductible : null,
  };
}

const usd = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

interface Pair {
  o: Observation;
  paid: number;
  estimated: number;
}

/** The observations of one benefit relevant to the target, newest first, with its two amounts. */
function pairsOf(benefit: Benefit, target: AdvisoryTarget, observations: readonly Observation[]): Pair[] {
  const out: Pair[] = [];
  for (const o of observations) {
    let paid: number | null;
    let estimated: number | null;
    if (benefit === 'copay') {
      // The same copay said, and applied whole by the estimate (not capped by the session cost nor waiting on the deductible).
      if (target.copayment === null || o.copay_said !== target.copayment || o.copay_estimated !== o.copay_said) continue;
      [paid, estimated] = [o.copay_paid, o.copay_estimated];
    } else if (benefit === 'coinsurance') {
      if (target.coinsurance === null || o.coinsurance_said !== millionthsOf(target.coinsurance)) continue;
      [paid, estimated] = [o.coinsurance_paid, o.coinsurance_estimated];
    } else [paid, estimated] = [o.deductible_paid, o.deductible_estimated];
    if (paid === null || estimated === null || (paid === 0 && estimated === 0)) continue;
    out.push({ o, paid, estimated });
  }
  return out;
}

/** The way a line disagrees, or null when it agrees: a copay by its amount, coinsurance and deductible by direction beyond a dollar. */
function wayOf(benefit: Benefit, p: Pair): string | null {
  if (benefit === 'copay') return p.paid === p.estimated ? null : `copay ${p.paid}`;
  if (Math.abs(p.paid - p.estimated) <= TOLERANCE) return null;
  return p.paid > p.estimated ? 'more' : 'less';
}

function messageOf(benefit: Benefit, pairs: Pair[], target: AdvisoryTarget, cites: RemittanceCitation[]): string {
  const n = pairs.length;
  const lines = cites
    .map((c) => `${c.remittance_id} line ${c.line}, received ${c.received}: ${usd(c.paid)} where ${usd(c.estimated)} was estimated`)
    .join('; ');
  const head =
    benefit === 'copay'
      ? `The payer's last ${n} remittances for this group took a ${usd(pairs[0]!.paid)} copay where its eligibility answer says ${usd(target.copayment!)}`
      : benefit === 'coinsurance'
        ? `The payer's last ${n} remittances for this group took ${pairs[0]!.paid > pairs[0]!.estimated ? 'more' : 'less'} coinsurance than its eligibility answer's ${target.coinsurance}% gives`
        : `The payer's last ${n} remittances for this group applied ${pairs[0]!.paid > pairs[0]!.estimated ? 'more' : 'less'} deductible than its eligibility answer gives`;
  return `${head} (${lines}). The estimate keeps the payer's eligibility figures; confirm with the payer before collecting.`;
}

/**
 * The advisories for an estimate, from the observations of its key owner's remittance lines for the
 * same payer and plan group received within ADVISORY_DAYS of `now`, not withdrawn, newest first.
 * One per benefit whose last ADVISORY_LINES relevant lines all disagree the same way.
 */
export function remittanceAdvisories(target: AdvisoryTarget, observations: readonly Observation[], now: Date): Alert[] {
  if (target.group_id === null) return [];
  const since = new Date(now.getTime() - ADVISORY_DAYS * 86_400_000).toISOString();
  const recent = observations.filter((o) => o.created_at >= since && o.created_at <= now.toISOString());
  const alerts: Alert[] = [];
  for (const benefit of ['copay', 'coinsurance', 'deductible'] as const) {
    const last = pairsOf(benefit, target, recent).slice(0, ADVISORY_LINES);
    if (last.length < ADVISORY_LINES) continue;
    const way = wayOf(benefit, last[0]!);
    if (way === null || last.some((p) => wayOf(benefit, p) !== way)) continue;
    const cites = last.map((p) => ({
      remittance_id: p.o.remittance_id,
      line: p.o.line_no,
      received: p.o.created_at.slice(0, 10),
      paid: p.paid,
      estimated: p.estimated,
    }));
    alerts.push({ code: 'REMITTANCE_MISMATCH', message: messageOf(benefit, last, target, cites), benefit, remittances: cites });
  }
  return alerts;
}
