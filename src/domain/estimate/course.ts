/**
 * The course of care (docs/course-of-care.md): the one-session estimate applied to each session of a
 * course in turn, with what the earlier sessions put toward the deductible, the out-of-pocket maximum
 * and the visit limit taken off before the next is priced. Pure: the payer's answers come in.
 */
import type { Accumulator, Cents, Coverage, IsoDate, NetworkBenefits } from '../coverage.ts';
import type { Course, CourseLine, CoursePhase } from '../schemas/responses.ts';
import { bindingRemaining } from './accumulators.ts';
import { addDays, encounterKey, type CourseSession } from './course-sessions.ts';
import { benefitsFor, estimate, gateOf, isQmb, planFacts, type EstimatePartial } from './estimate.ts';
import { memberObligation, type PlanFacts } from './obligation.ts';

/** What a plan year's sessions of the course have put toward its accumulators so far; null: unknown (a share was). */
export interface Carried {
  deductible: Cents | null;
  oop: Cents | null;
  visits: number;
}

export const NOTHING_CARRIED: Carried = Object.freeze({ deductible: 0, oop: 0, visits: 0 });

export interface CourseInput {
  sessions: readonly CourseSession[];
  in_network: boolean;
  /** The payer's answer for each encounter of the course (encounterKey), asked about on the first session's date. */
  current: ReadonlyMap<string, Coverage>;
  /** The same asked about a date in the next plan year, when the course runs past this one's end and it could be asked. */
  next: ReadonlyMap<string, Coverage>;
  /** Why there is no answer for the next plan year (the sessions after the reset are unknown with it), or null. */
  next_unknown: string | null;
}

/**
 * The last day of the plan year the payer answered for: its plan end, else the day before the
 * begin's anniversary (a plan year is twelve months at most: docs/course-of-care.md), else unknown.
 */
export function planYearEnd(c: Coverage): IsoDate | null {
  if (c.plan_end_date !== null) return c.plan_end_date;
  const begin = c.plan_begin_date;
  if (begin === null) return null;
  const [y, m, d] = begin.split('-').map(Number) as [number, number, number];
  // The same day a year on (28 February for 29 February), less a day.
  const anniversary = new Date(Date.UTC(y + 1, m - 1, Math.min(d, m === 2 && d === 29 ? 28 : d)));
  return addDays(anniversary.toISOString().slice(0, 10), -1);
}

/**
 * The session falls after the plan year the payer answered for: that answer was asked about a day in
 * the plan year (so it projects this plan year) and the session is after its end.
 */
export function pastPlanYear(c: Coverage, askedOn: IsoDate, dos: IsoDate): boolean {
  const end = planYearEnd(c);
  return end !== null && askedOn <= end && dos > end;
}

/** A level's remaining after what the course put toward it; `reset`: a plan year begun by the course starts at its total. */
function levelAfter(a: Accumulator, spent: Cents | null, reset: boolean): Accumulator {
  if (spent === 0 && !reset) return a;
  const start = a.remaining ?? (reset ? a.total : null);
  if (start === null) return a;
  // Nothing can be taken off a remaining of 0; any other minus an unknown amount is unknown.
  if (spent === null) {
    // A total of 0 reads as 0 left (accumulators.ts); beside a remaining above it (the payer's slip) it must not once that is unknown.
    return { total: a.total === 0 && start > 0 ? start : a.total, remaining: start <= 0 ? 0 : null };
  }
  return { ...a, remaining: Math.max(0, start - spent) };
}

function pairAfter(p: NetworkBenefits['deductible'], spent: Cents | null, reset: boolean): NetworkBenefits['deductible'] {
  return p && { individual: levelAfter(p.individual, spent, reset), family: levelAfter(p.family, spent, reset) };
}

/** The network's benefits with what the course carried taken off, individual and family alike. */
export function carriedBenefits(b: NetworkBenefits | null, carried: Carried, reset: boolean): NetworkBenefits | null {
  if (!b) return b;
  const v = b.visit_limit;
  const start = v && (v.remaining ?? (reset ? v.total : null));
  return {
    ...b,
    deductible: pairAfter(b.deductible, carried.deductible, reset),
    oop_max: pairAfter(b.oop_max, carried.oop, reset),
    visit_limit: v && (carried.visits === 0 && !reset ? v : { ...v, remaining: start === null ? null : Math.max(0, start - carried.visits) }),
  };
}

/** The coverage with the selected network's accumulators as the course left them. */
export function carriedCoverage(c: Coverage, inNetwork: boolean, carried: Carried, reset: boolean): Coverage {
  const network = inNetwork ? 'in_network' : 'out_of_network';
  return { ...c, [network]: carriedBenefits(c[network], carried, reset) };
}

/**
 * What a covered session puts toward the deductible: the part of the member's share it pays of the
 * deductible (min of D, C and the share); 0 when no deductible holds the session or none is left.
 */
function toDeductible(f: PlanFacts, share: Cents | null, C: Cents): Cents | null {
  if (f.afterDeductible === false || f.deductibleRemaining === 0 || share === 0) return 0;
  if (f.afterDeductible === null || f.deductibleRemaining === null) return null;
  const dedPart = Math.min(f.deductibleRemaining, C);
  if (share !== null) return Math.min(dedPart, share);
  // An unknown cost share still leaves the member paying the deductible's part, unless the OOP max may cap it below.
  const oopLow = f.hasOopMax === false ? Infinity : (f.oopRemaining ?? 0);
  return oopLow >= dedPart ? dedPart : null;
}

const add = (a: Cents | null, b: Cents | null) => (a === null || b === null ? null : a + b);

/** How the member's known share was decided, from the session's facts (docs/course-of-care.md). */
function phaseOf(f: PlanFacts, C: Cents, share: Cents): CoursePhase {
  const uncapped = memberObligation({ ...f, hasOopMax: false, oopRemaining: null }, C);
  if (uncapped === null || share < uncapped) return 'oop_max';
  const D = f.deductibleRemaining;
  if (f.afterDeductible === true && D !== null && D > 0) return D >= C ? 'deductible' : 'deductible_met';
  return 'cost_share';
}

const REASONS: Record<EstimatePartial, string> = {
  UNKNOWN_COSTSHARE: 'the payer does not report the cost share',
  UNKNOWN_REMAININGS: 'the payer does not report what is left of the deductible or out-of-pocket maximum',
};
const CARRIED_UNKNOWN = "an earlier session's share is unknown, so what is left of the deductible or out-of-pocket maximum before this one is";

function unknownLine(s: CourseSession, planYear: CourseLine['plan_year'], error: EstimatePartial, reason: string): CourseLine {
  return {
    date_of_service: s.date_of_service,
    procedure_code: s.procedure_code,
    place_of_service: s.place_of_service,
    plan_year: planYear,
    provider_session_cost: s.session_cost,
    member_obligation: null,
    payer_obligation: null,
    remaining_deductible: null,
    remaining_oop_max: null,
    visits_remaining: null,
    visits_used: null,
    phase: null,
    error_code: error,
    reason,
  };
}

/**
 * Prices each session of the course as one estimate (estimate.ts) of its own encounter on its own
 * date, with the accumulators its plan year's earlier sessions left. A session after the plan year's
 * end is priced by the payer's answer for the next plan year, whose accumulators start afresh;
 * without one it is unknown, with the reason. Sessions must be in date order.
 */
export function courseOfCare(input: CourseInput): Course {
  const first = input.sessions[0]?.date_of_service;
  const lines: CourseLine[] = [];
  let planYear: CourseLine['plan_year'] = 'current';
  let carried: Carried = NOTHING_CARRIED;
  for (const s of input.sessions) {
    const key = encounterKey(s);
    const current = input.current.get(key);
    if (!current || first === undefined) throw new RangeError(`no coverage for the encounter ${key}`);
    const past = pastPlanYear(current, first, s.date_of_service);
    if (past && planYear === 'current') {
      planYear = 'next';
      carried = NOTHING_CARRIED;
    }
    const reading = past ? input.next.get(key) : current;
    if (!reading) {
      lines.push(unknownLine(s, planYear, 'UNKNOWN_COSTSHARE', input.next_unknown ?? 'the payer does not report the next plan year'));
      continue;
    }
    const C = s.session_cost;
    const dos = s.date_of_service;
    const adjusted = carriedCoverage(reading, input.in_network, carried, past);
    const { fields, partial } = estimate(adjusted, { session_cost: C, in_network: input.in_network, date_of_service: dos });
    const benefits = benefitsFor(adjusted, input.in_network, dos);
    const gate = gateOf(adjusted, benefits, dos);
    const f = planFacts(benefits, benefits);
    // The plan's cost share: what the member pays, or for a QMB member what Medicaid pays in their place; it counts all the same.
    const share = gate !== null ? null : memberObligation(f, C);
    if (gate === null) {
      carried = {
        deductible: add(carried.deductible, toDeductible(f, share, C)),
        oop: f.hasOopMax === false ? carried.oop : add(carried.oop, f.oopRemaining === 0 ? 0 : share),
        visits: carried.visits + 1,
      };
    }
    const after = carriedBenefits(benefitsFor(reading, input.in_network, dos), carried, past);
    const member = fields.member_obligation;
    if (member === null) {
      const fresh = estimate(carriedCoverage(reading, input.in_network, NOTHING_CARRIED, past), {
        session_cost: C,
        in_network: input.in_network,
        date_of_service: dos,
      });
      const error = partial ?? 'UNKNOWN_REMAININGS';
      const reason = fresh.fields.member_obligation !== null ? CARRIED_UNKNOWN : REASONS[error];
      lines.push({ ...unknownLine(s, planYear, error, reason), ...remainingsOf(after) });
      continue;
    }
    lines.push({
      date_of_service: dos,
      procedure_code: s.procedure_code,
      place_of_service: s.place_of_service,
      plan_year: planYear,
      provider_session_cost: C,
      member_obligation: member,
      payer_obligation: fields.payer_obligation,
      ...remainingsOf(after),
      phase: gate ?? (isQmb(adjusted) ? 'qmb' : phaseOf(f, C, member)),
      error_code: null,
      reason: null,
    });
  }
  const known = lines.every((l) => l.member_obligation !== null);
  const sum = (pick: (l: CourseLine) => Cents | null) => (known ? lines.reduce((t, l) => t + (pick(l) ?? 0), 0) : null);
  return {
    lines,
    member_obligation: sum((l) => l.member_obligation),
    payer_obligation: sum((l) => l.payer_obligation),
    unknown_sessions: lines.filter((l) => l.member_obligation === null).length,
  };
}

function remainingsOf(b: NetworkBenefits | null): Pick<CourseLine, 'remaining_deductible' | 'remaining_oop_max' | 'visits_remaining' | 'visits_used'> {
  const v = b?.visit_limit ?? null;
  return {
    remaining_deductible: b?.deductible ? bindingRemaining(b.deductible) : null,
    remaining_oop_max: b?.oop_max ? bindingRemaining(b.oop_max) : null,
    visits_remaining: v?.remaining ?? null,
    visits_used: v && v.total !== null && v.remaining !== null ? Math.max(0, v.total - v.remaining) : null,
  };
}
