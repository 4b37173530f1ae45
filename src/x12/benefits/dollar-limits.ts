/**
 * Dollar limits (docs/estimates.md 1.1, "Limits and caps"): an EB01 F (limitations) with an amount in EB07
 * and no unit of service (EB09 / HSD01) is a maximum on what the payer pays, decided by its EB06 time period.
 * The member owes what the payer does not pay.
 */
import { bindingRemaining } from '../../domain/estimate/accumulators.ts';
import type { Cents } from '../../domain/coverage.ts';
import { codeIn, codeTable } from '../code-tables/index.ts';
import { periodKind } from '../codes.ts';
import { el } from '../tokenizer.ts';
import { AccumulatorReader } from './accumulators.ts';
import { readAmount, type Net, type Selectable } from './rows.ts';
import { traced, type TraceEntry } from './trace.ts';

/** What the EB06 table says a dollar limit in this period is (per visit, day or 24 hours: per session; exceeded: used up). */
const dollarLimitOf = (period: string) => codeIn(codeTable('eb06').codes, period)?.dollarLimit;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The dollar limits of one network. By EB06: a plan-year or lifetime maximum (totals 21, 22, 23, 25, 26, 32;
 * remainings 29, 33; 24 met so far) read as an accumulator (most specific rank, individual and family: the
 * smaller remaining binds; a total without its remaining is unknown); per visit, day or 24 hours (27, 7, 13)
 * the most the payer pays for the session (0 per visit is read as unknown: payers send 0 for "no amount");
 * 30 Exceeded: the payer pays nothing more; any other period (hour 6, month 34, week 35, outlier 28,
 * not exceeded 31) bounds a span whose use the 271 does not state: unknown.
 */
export class DollarLimits {
  private readonly yearly = new AccumulatorReader();
  private yearlyOffered = false;
  private perSession: { cap: Cents; from: Selectable } | null = null;
  private exceeded: Selectable | null = null;
  private readonly unknown: Selectable[] = [];

  offer(b: Selectable): void {
    const amount = readAmount(b);
    if (amount === null) return;
    const kind = periodKind(b.period);
    // A maximum of 0 is as likely a placeholder as no benefit at all: unknown (a remaining of 0 is used up).
    if (kind === 'total' && amount === 0) this.unknown.push(b);
    else if (kind === 'total' || kind === 'remaining' || kind === 'met') {
      this.yearly.offer(b);
      this.yearlyOffered = true;
    } else if (dollarLimitOf(b.period) === 'used_up') this.exceeded ??= b;
    else if (dollarLimitOf(b.period) === 'per_session' && amount > 0) {
      if (this.perSession === null || amount < this.perSession.cap) this.perSession = { cap: amount, from: b };
    } else this.unknown.push(b);
  }

  /** The most the payer pays for this session: 0 when used up, null when unknown; undefined when no dollar limit is stated. */
  cap(): Cents | null | undefined {
    if (this.exceeded) return 0;
    const caps: (Cents | null)[] = [];
    if (this.yearlyOffered) caps.push(bindingRemaining(this.yearly.result()));
    if (this.perSession) caps.push(this.perSession.cap);
    if (this.unknown.length > 0) caps.push(null);
    if (caps.length === 0) return undefined;
    if (caps.some((c) => c === 0)) return 0;
    if (caps.some((c) => c === null)) return null;
    return Math.min(...(caps as Cents[]));
  }

  trace(n: Net, out: TraceEntry[]): void {
    if (this.exceeded) out.push(traced('dollar limit: used up', n, this.exceeded, 'EB01 F with an amount, EB06 30 (exceeded): the payer pays nothing more'));
    if (this.yearlyOffered) this.yearly.trace('dollar limit', n, out);
    if (this.perSession)
      out.push(
        traced(
          'dollar limit per session',
          n,
          this.perSession.from,
          `EB01 F with an amount, EB06 ${this.perSession.from.period}: the payer pays at most ${dollars(this.perSession.cap)} of the session`,
        ),
      );
    for (const b of this.unknown) {
      const zero = readAmount(b) === 0 && (dollarLimitOf(b.period) === 'per_session' || periodKind(b.period) === 'total');
      out.push(
        traced(
          'dollar limit: unknown',
          n,
          b,
          zero
            ? 'EB01 F of $0 (a maximum or a per-session amount): read literally the payer pays nothing, yet payers send 0 for no amount: what the payer pays is unknown'
            : `EB01 F with an amount, EB06 ${el(b.loop.seg, 6) || '(none)'}: a span whose use the 271 does not state: what the payer pays is unknown`,
        ),
      );
    }
  }
}
