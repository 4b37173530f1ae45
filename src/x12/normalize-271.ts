/**
 * Reads a 271 into the normalized Coverage, or into the rejection its AAA segments state.
 * The encoding table is in build-271.ts; this reader accepts it and what payers commonly send:
 *
 * - dates: 2100 DTP 346 plan begin, 347 plan end, 357 eligibility end; fallbacks 291 (plan,
 *   RD8 gives begin and end), 356/307 (eligibility begin / range), member's loop before subscriber's
 * - the 271 is read for one encounter (date of service, procedure, place; default an office visit on
 *   the BHT date): rows whose own dates, EB13 procedure or inpatient/outpatient scope exclude it are
 *   skipped (benefits/filters.ts), the rest are ranked by specificity (EB13 procedure, then MH, then
 *   CF/A4/A6/A8/AI, then 98, then 30 or empty, then a named place, then a named network), and rows
 *   of the deciding rank that disagree are a conflict, never the first (docs/estimates.md 1.1)
 * - EB12 Y in network, N out of network; W, U or absent: both. A status EB (EB01 1-8) only makes a
 *   network's benefits known when EB12 names it explicitly
 * - EB06 23/21/22/25/26/32 (or absent) totals, 29/33 remaining, 24 year-to-date met (remaining =
 *   total - met when no remaining is sent); EB02 IND/EMP/absent individual, FAM and the other
 *   multi-person levels family
 * - telehealth: an EB followed by III*ZZ*02 or III*ZZ*10 (with 11 too: one price for both); kept
 *   only when it differs from in-person
 * - next plan year: an EB with DTP*348 later than the current plan begin (or, without one, than
 *   the BHT04 date) and than the current plan end (without one: than the date of service, as a begin
 *   in force on it is a change within the year); when the date of service is after the plan end
 *   and on or after the next year's begin, the next year's rows (not this year's) price it
 * - carve-out: EB*U, EB*R or EB*W on a behavioral code naming a 2120 entity other than X3/P3/PRP/SEP/TTP,
 *   an EB*W (other source of data) on a behavioral code even naming none, or an MH status EB with a
 *   2120 NM1*PR|VN and no MH cost share
 * - other payers: EB*R naming one, EB*U naming a 2120 PRP/SEP/TTP; the member's whatever service the
 *   row names (only its dates exclude it)
 * - messages: every MSG except the canonical hint texts the builder writes (hints.ts)
 * - AAA at the payer, receiver, subscriber or dependent level (2000 or 2100) rejects the answer;
 *   AAA inside a 2110 benefit loop only does when the answer carries no benefit at all
 */
import { traced } from './benefit-selection.ts';
import { priceEncounter, traceRows, type CostShareFallback, type PricingFacts, type TraceEntry } from './benefits/index.ts';
import { encounterServiceTypes, sessionMinutes } from './encounter-service.ts';
import type { Delimiters } from './delimiters.ts';
import { readInterchange, type Interchange } from './envelope.ts';
import type { Encounter } from '../domain/encounter.ts';
import type { LoopTree } from './loops.ts';
import type { AskedPerson } from './patient.ts';
import { programRule } from './plan-identity.ts';
import { traceCarveOut } from './related-entities.ts';
import type { Eligibility } from './rejection.ts';
import { guarded, ok, type ParseResult } from './result.ts';
import { transactionToRead } from './transaction-set.ts';
import {
  coverageOf,
  listRows,
  memberDates,
  readCarveOut,
  readDates,
  readMember,
  readPlanStatus,
  readProgram,
  readRows,
  traceNumber,
} from './eligibility-stages.ts';

export type { Eligibility, RejectLevel } from './rejection.ts';

/** Options for reading a 271; `trace` collects where each figure came from (the explanation, built only when asked). */
export interface NormalizeOptions {
  trace?: TraceEntry[];
  /** The encounter priced (date of service, procedure, place); default: an office visit on the BHT date. */
  encounter?: Encounter;
  /** The member ID asked about (the 270's 2100C): of several subscriber levels, the one naming it is read. */
  memberId?: string | null;
  /** The patient asked about (the 270's 2100D for a dependent, else its 2100C): which person of the answer is theirs (patient.ts). */
  person?: AskedPerson;
  /** The treating provider's NPI (the request's): a row whose 2120C names a provider is held to it; default: the 271's 2100B NPI. */
  providerNpi?: string | null;
  /** The payer directory's order of the office visit (98) and plan (30) cost shares (docs/estimates.md 1.1, "Fallback order"). */
  fallback?: CostShareFallback;
}

export function normalize271(text: string, options: NormalizeOptions = {}): ParseResult<Eligibility> {
  return guarded(() => readTransaction(readInterchange(text), options));
}

/**
 * normalize271 for an answer whose interchange was already read (readInterchange of the same text):
 * a caller that looked into the answer first does not tokenize it twice.
 */
export function normalizeInterchange(ic: ParseResult<Interchange>, options: NormalizeOptions = {}): ParseResult<Eligibility> {
  return guarded(() => readTransaction(ic, options));
}

function readTransaction(ic: ParseResult<Interchange>, options: NormalizeOptions): ParseResult<Eligibility> {
  if (!ic.ok) return ic;
  const set = transactionToRead(ic.value, options.memberId, ic.warnings);
  if (!set.ok) return set;
  const { tx, built } = set.value;
  return readEligibility(built.tree, ic.value.delimiters, { index: tx.st.index, id: 'ST', offset: tx.st.offset }, set.warnings, options);
}

/**
 * The Eligibility a 271's loop tree states; `at` locates the transaction set for errors. The stages
 * (eligibility-stages.ts), each reading what the ones before it found: the member, the rows, the
 * plan's dates and status, the program, the carve-out, and the price (the benefits room).
 */
function readEligibility(
  tree: LoopTree,
  d: Delimiters,
  at: { index: number; id: string; offset: number },
  warnings: string[],
  { trace, encounter: asked, memberId, person, fallback, providerNpi }: NormalizeOptions,
): ParseResult<Eligibility> {
  const who = readMember(tree, at, warnings, memberId, person);
  if ('refused' in who) return who.refused;
  const m = who.member;
  const read = readRows(tree, d, m, asked, warnings, providerNpi);
  if ('rejected' in read) return read.rejected;
  const r = read.rows;
  const dates = readDates(m, r, trace);
  const { lists, skipped } = listRows(m, r, dates, d, trace);
  const status = readPlanStatus(r, dates, lists, warnings, trace);
  const program = readProgram(m, r, lists, status);
  const encounterTypes = encounterServiceTypes(r.encounter);
  const carve = readCarveOut(lists, warnings, encounterTypes);
  const facts: PricingFacts = {
    insurance_type: program.insurance_type,
    dateOfService: r.encounter?.date_of_service ?? null,
    inactive: status.coverageStatus === 'inactive',
    plan: {
      hdhp: program.flags.is_hdhp,
      fits: r.pricesHere,
      place: r.encounter?.place_of_service ?? null,
      procedure: r.encounter?.procedure_code ?? null,
      minutes: sessionMinutes(r.encounter),
      ageAdmitted: lists.admitted,
      ...(fallback ? { fallback } : {}),
    },
    advantageElsewhere: program.advantageElsewhere,
    mhInactive: carve.mhInactive,
    memberDates: memberDates(m, r.encounter, r.bhtDate),
    session: status.session,
    // A session whose own service types the payer reports inactive is not covered (benefits/gates.ts ownServiceGate).
    ownService: encounterTypes && !carve.carveOut && status.coverageStatus !== 'inactive' ? encounterTypes : null,
  };
  const year = { thisYear: lists.thisYear, next: lists.next, planEnd: dates.planEnd, nextBegin: status.nextBegin };
  const price = priceEncounter(year, r.encounter, facts, r.pricesHere, { skipped, warnings, trace });
  if (trace) trace.push(traced(`insurance type: ${program.insurance_type}`, null, null, programRule(program.insurance_type, program.eb04Sent)));
  if (trace) traceCarveOut(trace, carve.carveOut, carve.otherSource);
  const coverage = coverageOf(m, status, dates, program, carve, price, lists, warnings);
  if (trace) {
    const { mental } = carve;
    traceRows(trace, {
      all: r.all,
      planLevel: status.session.row,
      planWide: status.session.planWide,
      coverageStatus: status.coverageStatus,
      mh: mental === 'inactive' ? lists.mhInactive : mental === 'active' ? lists.mhActive : undefined,
      mental,
      skipped,
      next: price.nextYear ? [] : lists.next,
      partAFiltered: price.partAFiltered,
      pastYear: price.nextYear ? lists.thisYear.current : [],
    });
  }
  return ok({ kind: 'coverage', coverage, trace_number: traceNumber(m) }, warnings);
}
