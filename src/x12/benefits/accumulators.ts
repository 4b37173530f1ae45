/**
 * Deductible, out-of-pocket and visit-limit amounts (docs/estimates.md section 1.1, "Accumulators").
 *
 * - Each figure (a level's total, remaining, met) is taken from the most specific rank that states
 *   it (benefits/rows.ts rowRank); two different amounts at that rank contradict each other: the
 *   figure is unknown and both rows are conflicts. The answer never depends on row order.
 * - A level's total and remaining come from one row family: the most specific rank that states any
 *   of the level's amounts. A remaining stated only at a less specific rank is used when it does
 *   not exceed the total, and the explanation says the two come from different rows; a total of 0
 *   leaves 0, and total - met stands in for a missing remaining.
 * - An individual row of 0 marked EB12 W (not applicable: the network distinction does not apply)
 *   is a placeholder, no individual accumulator, unless the individual level states a total above
 *   0 for the same scope (scopeOf); beside one it is an ordinary figure (a remaining or met of 0).
 *   Whether rows are placeholders is decided over the whole set, never by the order they come in.
 * - An individual total of 0 beside a family total above 0 of the same scope (EB13 procedure and
 *   service type: scopeOf) is a non-embedded, family-only amount, read so by the estimate
 *   (domain/estimate/accumulators.ts). A level's total of 0 stated for a more specific scope than
 *   every figure of the other level means the service has none (TR3 1.4.7: the most specific
 *   benefit governs): the other level's less specific figures are not reported.
 */
import type { Accumulator } from '../../domain/coverage.ts';
import { limitQuantity, limitUnit, periodKind } from '../codes.ts';
import { codeEntry, codeWords } from '../code-tables/index.ts';
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { readNumber } from '../values.ts';
import { isFamilyLevel, readAmount, rowRank, type Net, type Selectable } from './rows.ts';
import { traced, type TraceEntry } from './trace.ts';
import { isExceededPeriod, networkOf, periodSpan } from '../code-tables/attributes.ts';

const NO_ROWS: readonly Selectable[] = [];

/** The value of the most specific rank; different values at that rank are a conflict (unknown). */
export class Best {
  rank = Infinity;
  private first: number | null = null;
  private contradicted = false;
  /** The row the value came from (the earliest in the 271 among equal ones, for the explanation). */
  from: Selectable | null = null;
  /** The period (EB06 or HSD05) of the first row offered at the winning rank. */
  period = '';
  /** The first row offered at the winning rank. */
  private lead: Selectable | null = null;
  /** Every row of the winning rank, listed from the second one on (most ranks have one row). */
  private rows: Selectable[] | null = null;

  get value(): number | null {
    return this.contradicted ? null : this.first;
  }

  offer(rank: number, value: number | null, from: Selectable, period = from.period): void {
    if (value === null || rank > this.rank) return;
    if (rank < this.rank) {
      this.rank = rank;
      this.first = value;
      this.from = from;
      this.period = period;
      this.contradicted = false;
      this.lead = from;
      this.rows = null;
      return;
    }
    if (this.rows === null) this.rows = [this.lead!, from];
    else this.rows.push(from);
    if (value !== this.first) this.contradicted = true;
    else if (this.from === null || from.loop.seg.index < this.from.loop.seg.index) this.from = from;
  }

  /** The rows of the winning rank, which contradict each other (empty when the value is known). */
  get contradicting(): readonly Selectable[] {
    return this.contradicted && this.rows !== null ? this.rows : NO_ROWS;
  }
}

interface Level {
  total: Best;
  remaining: Best;
  met: Best;
}

const newLevel = (): Level => ({ total: new Best(), remaining: new Best(), met: new Best() });

const topRank = (l: Level) => Math.min(l.total.rank, l.remaining.rank, l.met.rank);

/** What a rank is restricted to (EB13 procedure, service type tier), without the network it names (rows.ts rowRank). */
const scopeOf = (rank: number) => Math.floor(rank / 10);

export interface LevelResult {
  accumulator: Accumulator;
  /** The total and the remaining come from rows of different ranks. */
  mixed: boolean;
}

/**
 * A used count (EB06 24, year to date) measures the plan year: it stands in for a missing remaining only
 * beside a total of the same span (eb06.json `span`). A lifetime or episode total minus the year's use is
 * not what is left of it (docs/estimates.md 1.1, "Limits and caps").
 */
const spansAgree = (l: Level) => periodSpan(l.total.period) === periodSpan(l.met.period);

/** The level states a total and a used count of different spans and no remaining: what is left is unknown. */
function spanMismatch(l: Level): boolean {
  const top = topRank(l);
  return l.remaining.rank !== top && l.total.rank === top && l.met.rank === top && l.total.value !== null && l.met.value !== null && !spansAgree(l);
}

function levelResult(l: Level): LevelResult {
  const top = topRank(l);
  if (top === Infinity) return { accumulator: { total: null, remaining: null }, mixed: false };
  const total = l.total.rank === top ? l.total.value : null;
  let remaining = l.remaining.rank === top ? l.remaining.value : null;
  const met = l.met.rank === top ? l.met.value : null;
  // A total of 0 leaves nothing to remain (the estimate reads it so: domain/estimate/accumulators.ts). A less
  // specific row's remaining is another accumulator and is never borrowed (its rows are listed as skipped).
  if (remaining === null && total !== null && total !== 0 && met !== null && spansAgree(l)) remaining = Math.max(0, total - met);
  const mixed = l.remaining.rank !== Infinity && l.total.rank !== Infinity && l.remaining.rank !== l.total.rank;
  return { accumulator: { total, remaining }, mixed };
}

/** Deductible or out-of-pocket amounts by coverage level and period kind. */
export class AccumulatorReader {
  private readonly ind = newLevel();
  private readonly fam = newLevel();
  /** Individual rows of 0 marked EB12 W while no individual total above 0 of their scope is offered: placeholders, no accumulator. */
  readonly notApplicable: Selectable[] = [];
  /** The scopes (scopeOf) of the individual totals above 0 offered: an individual 0 marked W of one of them is an ordinary figure. */
  private totalScopes: number[] | null = null;
  /** The most specific tier any amount (or an amount-less EB) was reported at. */
  tier = 4;

  offer(b: Selectable): void {
    if (b.tier < this.tier) this.tier = b.tier;
    const kind = periodKind(b.period);
    if (kind === 'other') return;
    const family = isFamilyLevel(b.level);
    const amount = readAmount(b);
    if (!family && amount === 0 && networkOf(b.net) === 'both' && !this.totalScopes?.includes(scopeOf(rowRank(b)))) {
      this.notApplicable.push(b);
      return;
    }
    this.place(family ? this.fam : this.ind, kind, amount, b);
    const scope = !family && kind === 'total' && amount !== null && amount > 0 ? scopeOf(rowRank(b)) : -1;
    if (scope >= 0 && !this.totalScopes?.includes(scope)) {
      (this.totalScopes ??= []).push(scope);
      // Rows of this scope set aside as placeholders are figures after all (each is offered once: Best is rank-based, so order does not matter).
      const waiting = this.notApplicable.splice(0);
      for (const w of waiting) {
        if (scopeOf(rowRank(w)) === scope) this.place(this.ind, periodKind(w.period), 0, w);
        else this.notApplicable.push(w);
      }
    }
  }

  private place(level: Level, kind: ReturnType<typeof periodKind>, amount: number | null, b: Selectable): void {
    if (kind === 'other') return;
    const slot = kind === 'total' ? level.total : kind === 'remaining' ? level.remaining : level.met;
    slot.offer(rowRank(b), amount, b);
  }

  /** Whether the individual level is a non-embedded placeholder: a 0 total beside a family total above 0 of the same scope. */
  private familyOnly(): boolean {
    const ind = this.ind.total.value;
    const fam = this.fam.total.value;
    return ind === 0 && fam !== null && fam > 0 && !this.unpaired(this.fam);
  }

  /** Whether a level's figures are not reported: the other level states a total of 0 for a more specific scope. */
  private unpaired(l: Level): boolean {
    const other = l === this.ind ? this.fam : this.ind;
    const top = topRank(l);
    const otherTop = topRank(other);
    if (top === Infinity || otherTop === Infinity || scopeOf(otherTop) >= scopeOf(top)) return false;
    return other.total.rank === otherTop && other.total.value === 0;
  }

  /**
   * A level stated (a row offered for it, not unpaired) only as an amount met so far (EB06 24, EB07), with no total or
   * remaining at any rank. What is left of it is unknown, and it may be the
   * smaller (a family deductible met satisfies the individual's in an embedded plan), so it is never read as absent.
   */
  private unreadable(l: Level): boolean {
    if (topRank(l) === Infinity || this.unpaired(l)) return false;
    return l.total.from === null && l.remaining.from === null && l.met.value !== null;
  }

  /**
   * As sent, but for a level unpaired (above); an individual 0 beside a family total is read as family-only by the estimate
   * (domain/estimate/accumulators.ts). Beside a level unreadable (above), the other level's remaining is unknown unless it
   * is 0 (nothing can be smaller): the remaining that binds is then unknown, never the other level's alone.
   */
  result(): { individual: Accumulator; family: Accumulator } {
    const none: Accumulator = { total: null, remaining: null };
    let individual = this.unpaired(this.ind) ? none : levelResult(this.ind).accumulator;
    let family = this.unpaired(this.fam) ? none : levelResult(this.fam).accumulator;
    if (this.unreadable(this.fam) && individual.remaining !== 0) individual = { ...individual, remaining: null };
    if (this.unreadable(this.ind) && family.remaining !== 0) family = { ...family, remaining: null };
    return { individual, family };
  }

  /** Every row that contradicts another at the rank that decides a figure. */
  conflicts(): Selectable[] {
    const out: Selectable[] = [];
    for (const l of [this.ind, this.fam]) {
      if (this.unpaired(l)) continue;
      for (const s of [l.total, l.remaining, l.met]) out.push(...s.contradicting);
    }
    return out;
  }

  trace(figure: string, n: Net, out: TraceEntry[]): void {
    const familyOnly = this.familyOnly();
    for (const [l, name] of [
      [this.ind, 'individual'],
      [this.fam, 'family'],
    ] as const) {
      const top = topRank(l);
      const unpaired = this.unpaired(l);
      const rows: [Best, string][] = [
        [l.total, 'total'],
        [l.remaining, 'remaining'],
        [l.met, 'met (remaining = total - met)'],
      ];
      for (const [slot, what] of rows) {
        if (!slot.from) continue;
        if (unpaired) {
          const entry = traced(
            `${figure} ${name} ${what}`,
            n,
            slot.from,
            `the ${name === 'individual' ? 'family' : 'individual'} total of 0 is stated for a more specific service: the service has none (TR3 1.4.7), this less specific figure does not apply to it`,
          );
          out.push({ ...entry, status: 'skipped' });
          continue;
        }
        if (slot.contradicting.length > 0) {
          for (const b of slot.contradicting)
            out.push({ ...traced(`${figure} ${name} ${what}`, n, b, 'rows of the same rank state different amounts: unknown'), status: 'conflict' });
          continue;
        }
        if (slot.rank !== top) {
          // The total and the remaining would come from different rows: a less specific row is another accumulator.
          const entry = traced(
            `${figure} ${name} ${what}`,
            n,
            slot.from,
            `EB06 ${slot.from.period || '(none)'} of a less specific row than the level's own figures: another accumulator, never paired with them`,
          );
          out.push({ ...entry, status: 'skipped' });
          continue;
        }
        const rule =
          name === 'individual' && familyOnly
            ? 'an individual total of 0 beside a family total: a family-only (non-embedded) deductible, no individual accumulator'
            : `EB06 ${slot.from.period || '(none)'}, the most specific row that reports it`;
        out.push(traced(`${figure} ${name} ${what}`, n, slot.from, rule));
      }
    }
    for (const b of this.notApplicable)
      out.push({ ...traced(`${figure} individual`, n, b, 'EB12 W (not applicable) with 0: no individual accumulator'), status: 'skipped' });
    for (const [l, name, other] of [
      [this.ind, 'individual', 'family'],
      [this.fam, 'family', 'individual'],
    ] as const) {
      const from = l.met.from ?? l.total.from ?? l.remaining.from;
      if (!this.unreadable(l) || from === null) continue;
      const rule = `the ${name} level states only an amount met so far (EB06 24), no total or remaining: what is left of it is unknown and it could be reached before the ${other}'s, so the remaining that binds is unknown`;
      out.push({ ...traced(`${figure} ${name} remaining`, n, from, rule), status: 'conflict' });
    }
  }
}

/** A unit of service in words (HS hours), from its code table. */
const unitWords = (code: string) => codeWords('quantity', code);
const codeEffect = (code: string) => codeEntry('quantity', code)?.effect ?? 'not in the TR3 list';

/** A quantity of no unit of its own on a limit row, placed once every row is offered (VisitReader.settle). */
interface Pending {
  role: 'used' | 'maximum' | 'unknown';
  qualifier: string;
  period: string;
  rank: number;
  value: number | null;
  b: Selectable;
}

function slotOf(level: Level, period: string): Best | null {
  const kind = periodKind(period);
  return kind === 'remaining' ? level.remaining : kind === 'total' ? level.total : kind === 'met' ? level.met : null;
}

const offered = (l: Level) => l.total.from !== null || l.remaining.from !== null || l.met.from !== null;

/**
 * Limits in units of service (docs/estimates.md section 1.1, "Visit limits"): EB01 F with EB09 and
 * EB10, or with 2110C HSD (HSD01 the unit, HSD02 the quantity, HSD05 the period: 29 remaining, 24
 * used so far). Each unit is its own accumulator, read by rank like the others (Best: order does
 * not matter). Visits (VS) give the visit figures. Another unit a session uses (hours, days,
 * services, units: code-tables/quantity.json) is not a number of visits without the session's
 * length: with 0 of it left no session fits (0 visits remain); with more left, or an unknown
 * remaining, the limit is not used up and the visit figures are the visits' own (null without them).
 */
export class VisitReader {
  private readonly visits = newLevel();
  /** The limits in other units of service, by EB09/HSD01 code (null until one is offered: most 271s send none). */
  private others: Map<string, Level> | null = null;
  /** Quantities of no unit of their own (99 used, M2 maximum, 8H, QA, ...: quantity.json `limit`), placed once every row is offered. */
  private pending: Pending[] | null = null;
  /** The pending quantities no rule places (no limit beside them, limits in several units, or decided unknown). */
  private undecidedRows: Pending[] = [];

  offer(b: Selectable): void {
    const rank = rowRank(b);
    this.place(el(b.loop.seg, 9), b.period, rank, readNumber(el(b.loop.seg, 10)), b);
    for (const h of b.loop.hsd) this.place(el(h, 1), el(h, 5) || b.period, rank, readNumber(el(h, 2)), b);
  }

  private place(qualifier: string, period: string, rank: number, value: number | null, b: Selectable): void {
    const unit = limitUnit(qualifier);
    if (unit === 'none') {
      const role = limitQuantity(qualifier);
      if (role !== null) {
        (this.pending ??= []).push({ role, qualifier, period, rank, value, b });
        this.settled = false;
      }
      return;
    }
    this.settled = false;
    let level = this.visits;
    if (unit === 'service') {
      this.others ??= new Map();
      level = this.others.get(qualifier) ?? newLevel();
      this.others.set(qualifier, level);
    }
    // EB06 / HSD05 30 (Exceeded): the limit is used up, whatever quantity is stated (docs/estimates.md 1.1, "Limits and caps").
    if (isExceededPeriod(period)) level.remaining.offer(rank, 0, b);
    else slotOf(level, period)?.offer(rank, value, b, period);
  }

  private settled = true;

  /**
   * Places the quantities of no unit of their own (docs/estimates.md 1.1, "Visit limits"): a used count (99) is the
   * used count, a maximum (M2) the total, of the one limit beside them (its unit, whatever the rows' order); a row as
   * specific as that limit which no rule places leaves what is left of it unknown. Placed into the levels once.
   */
  private settle(): void {
    if (this.settled || this.pending === null) return;
    this.settled = true;
    const units: Level[] = [...(offered(this.visits) ? [this.visits] : []), ...this.otherUnits().map(([, l]) => l)];
    // Each unit's deciding rank, before any quantity is placed: a quantity belongs to the limit of its own rank.
    const ranks = units.map(topRank);
    const deciding = Math.min(...ranks);
    const undecided: Pending[] = [];
    for (const p of this.pending) {
      const mine = units.filter((_, i) => ranks[i] === p.rank);
      if (p.role === 'unknown' || mine.length !== 1) {
        // Less specific than a limit that decides: another benefit's quantity, which competes for nothing here.
        if (p.rank <= deciding) undecided.push(p);
        continue;
      }
      const level = mine[0]!;
      // A used count or maximum sent without a period measures the limit it stands beside.
      const period = p.period === '' ? level.total.period : p.period;
      if (isExceededPeriod(p.period)) level.remaining.offer(p.rank, 0, p.b);
      else (p.role === 'used' ? level.met : level.total).offer(p.rank, p.value, p.b, period);
    }
    this.undecidedRows = undecided;
  }

  /**
   * Rows stating a quantity no rule places on the limit (quantity.json `limit`: a used count or maximum beside no
   * limit or beside limits in several units, a minimum, a quantity approved, ...): what is left of the limit, and so
   * the session's price, is unknown, never the quantity ignored.
   */
  undecided(): readonly Selectable[] {
    this.settle();
    return this.undecidedRows.length === 0 ? NO_ROWS : this.undecidedRows.map((p) => p.b);
  }

  /** The other units, in code order (never the 271's). */
  private otherUnits(): [string, Level][] {
    if (this.others === null) return [];
    return [...this.others].filter(([, l]) => offered(l)).sort(([a], [b]) => (a < b ? -1 : 1));
  }

  /** The first unit of service (code order) of which 0 is left, or null. */
  private usedUp(): string | null {
    for (const [code, l] of this.otherUnits()) if (levelResult(l).accumulator.remaining === 0) return code;
    return null;
  }

  /**
   * The limits in a unit of time (quantity.json `minutes`: HS hours) with some left, but fewer minutes than the
   * session may last (`minutes`, encounter-service.ts sessionMinutes): the limit cannot be said to cover it, and how
   * the payer prices the rest the 271 does not say (docs/estimates.md 1.1, "Visit limits"). Their rows, or none.
   */
  shortOf(minutes: number | null): Selectable[] {
    if (minutes === null) return [];
    this.settle();
    const out: Selectable[] = [];
    for (const [code, l] of this.otherUnits()) {
      const per = codeEntry('quantity', code)?.minutes;
      const left = levelResult(l).accumulator.remaining;
      if (per === undefined || left === null || left <= 0 || left * per >= minutes) continue;
      const from = l.remaining.from ?? l.total.from ?? l.met.from;
      if (from) out.push(from);
    }
    return out;
  }

  get reported(): boolean {
    return offered(this.visits) || this.otherUnits().length > 0 || this.pending !== null;
  }

  /** In visits: a limit in another unit used up leaves none (its total is no number of visits). */
  result(): { total: number | null; remaining: number | null } {
    if (this.undecided().length > 0) return { total: null, remaining: null };
    const r = levelResult(this.visits).accumulator;
    if (r.remaining !== 0 && this.usedUp() !== null) return { total: null, remaining: 0 };
    return { total: r.total, remaining: r.remaining };
  }

  /**
   * The visit limit's total and used count measure different spans (a lifetime limit beside the visits used this
   * year) and nothing says what is left: the limit may be used up, so the session's price is unknown.
   */
  unknownUse(): Selectable[] {
    this.settle();
    const l = this.visits;
    return spanMismatch(l) ? [l.total.from!, l.met.from!] : [];
  }

  conflicts(): Selectable[] {
    this.settle();
    const out: Selectable[] = [];
    for (const l of [this.visits, ...this.otherUnits().map(([, o]) => o)])
      out.push(...l.total.contradicting, ...l.remaining.contradicting, ...l.met.contradicting);
    return out;
  }

  trace(n: Net, out: TraceEntry[]): void {
    this.settle();
    const l = this.visits;
    for (const { b, qualifier } of this.undecidedRows)
      out.push({
        ...traced(
          'visit limit',
          n,
          b,
          `EB09 / HSD01 ${unitWords(qualifier)}: no rule places this quantity on a limit (${codeEffect(qualifier)}): visits remaining, and so the session's price, are unknown`,
        ),
        status: 'conflict',
      });
    const usedUp = this.usedUp();
    const overridden =
      usedUp !== null && levelResult(l).accumulator.remaining !== 0 ? `; not reported: the limit in ${unitWords(usedUp)} is used up, no visits remain` : '';
    traceConflicts(l, 'visit limit', n, out);
    if (l.total.from) out.push(traced('visit limit total', n, l.total.from, `EB09 VS / HSD*VS${overridden}`));
    if (l.remaining.from)
      out.push(traced('visits remaining', n, l.remaining.from, `EB09 VS / HSD*VS, period 29 remaining (or 30 exceeded: none left)${overridden}`));
    if (l.met.from) out.push(traced('visits used', n, l.met.from, `EB09 VS / HSD*VS, period 24 used so far: remaining = total - used${overridden}`));
    for (const [code, o] of this.otherUnits()) traceOtherUnit(code, o, n, out);
  }
}

function traceConflicts(l: Level, figure: string, n: Net, out: TraceEntry[]): void {
  for (const s of [l.total, l.remaining, l.met])
    for (const b of s.contradicting) out.push({ ...traced(figure, n, b, 'rows of the same rank state different amounts: unknown'), status: 'conflict' });
}

/** A limit in hours, days, services or units: what it says of this session, never a number of visits. */
function traceOtherUnit(code: string, l: Level, n: Net, out: TraceEntry[]): void {
  const unit = unitWords(code);
  const left = levelResult(l).accumulator.remaining;
  const verdict =
    left === 0
      ? `none left: no session fits, whatever its length: no visits remain (visits_remaining 0), the member pays the whole session`
      : `${left === null ? 'what is left is unknown' : `${left} left`}, not a number of visits without the session's length, which the 271 does not give: visits_remaining is not taken from it; the limit is not used up, so the session is priced by its cost share, unless its procedure may last longer than what is left (procedure-minutes.json: then unknown)`;
  traceConflicts(l, `limit in ${unit}`, n, out);
  const rows: [Best, string, string][] = [
    [l.total, 'total', 'a total'],
    [l.remaining, 'remaining', 'period 29 remaining'],
    [l.met, 'used', 'period 24 used so far: remaining = total - used'],
  ];
  for (const [slot, what, how] of rows) if (slot.from) out.push(traced(`limit in ${unit} ${what}`, n, slot.from, `EB09 / HSD01 ${unit}, ${how}: ${verdict}`));
}

/** EB01 F is a limit in units of service (visits, hours, days, ...: code-tables/quantity.json) when EB09 or an HSD01 names one. */
export const hasServiceLimit = (loop: BenefitLoop) => limitsService(el(loop.seg, 9)) || loop.hsd.some((h) => limitsService(el(h, 1)));

/** A unit of service, or a quantity a limit row states of the limit beside it (99 used, M2 maximum, 8H, QA, ...). */
const limitsService = (q: string) => limitUnit(q) !== 'none' || limitQuantity(q) !== null;
