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
import type { Coverage, CoverageStatus } from '../domain/coverage.ts';
import { aaaReason } from './aaa.ts';
import { familyRowsElsewhere, patientLoop, type AskedPerson } from './patient.ts';
import { isTrn2, REJECT_LEVEL, rejection, type Eligibility } from './rejection.ts';
import { pricesOffice, pricesTelehealth, traced, type PlaceFit, type TraceEntry } from './benefit-selection.ts';
import { priceRows, type PricingFacts } from './benefits/pricing.ts';
import { isTelehealthPlace, relationshipFromIns } from './codes.ts';
import type { Delimiters } from './delimiters.ts';
import { readInterchange, type Interchange } from './envelope.ts';
import { namesMember, transactionToRead } from './transaction-set.ts';
import { messagesOf } from './hints.ts';
import { terminationOf } from './plan-dates.ts';
import { refineProgram } from './medicare.ts';
import { traceRows } from './benefits/tracing.ts';
import { byContent } from './benefits/gates.ts';
import { nextYearRows, rowExcludedBy } from './benefits/pricing-rows.ts';
import type { CostShareFallback } from './benefits/rows.ts';
import { sortRows } from './benefits/row-lists.ts';
import { unknownMemberDates } from './benefits/closed-world.ts';
import { planDatesRow, planStatusRow, sessionStatus } from './plan-rows.ts';
import { mentalHealthStatus } from './mental-health-status.ts';
import { saysCue } from './benefits/phrases.ts';
import { defaultEncounter, type Encounter } from '../domain/encounter.ts';
import { benefitAaa as benefitAaaOf, type LoopTree } from './loops.ts';
import { fail, guarded, ok, type ParseResult } from './result.ts';
import { refusalOf } from './member-refusal.ts';
import { el } from './tokenizer.ts';
import { d8ToIso } from './values.ts';
import { type Benefit, readBenefit, orNull, isStatus, isCost, insuranceCode } from './eb-benefit.ts';
import { planDates, refIn, readPerson } from './member-loops.ts';
import {
  entityName,
  traceCarveOut,
  thirdParty,
  otherSourceOfBehavioralHealth,
  utilizationManager,
  primaryCareProvider,
  additionalPolicies,
} from './related-entities.ts';
import { correctsDemographics, identifiedBy } from './code-tables/attributes.ts';
import { nextPlanYear, insuranceAndPlanType, planName, programRule } from './plan-identity.ts';

const earliestBegin = (rows: readonly Benefit[]) => rows.reduce<string | null>((m, b) => (b.begin !== null && (m === null || b.begin < m) ? b.begin : m), null);

const pricesTelehealthOrAnywhere = (p: PlaceFit) => p === 'any' || pricesTelehealth(p);

export type { Eligibility, RejectLevel } from './rejection.ts';

/** Into document order (an insertion sort: the lists are short, and Array.prototype.sort's comparator calls cost more). */
function sortByIndex(list: Benefit[]): void {
  for (let i = 1; i < list.length; i++) {
    const b = list[i]!;
    const k = b.loop.seg.index;
    let j = i - 1;
    while (j >= 0 && list[j]!.loop.seg.index > k) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = b;
  }
}

/** Options for reading a 271; `trace` collects where each figure came from (the explanation, built only when asked). */
export interface NormalizeOptions {
  trace?: TraceEntry[];
  /** The encounter priced (date of service, procedure, place); default: an office visit on the BHT date. */
  encounter?: Encounter;
  /** The member ID asked about (the 270's 2100C): of several subscriber levels, the one naming it is read. */
  memberId?: string | null;
  /** The patient asked about (the 270's 2100D for a dependent, else its 2100C): which person of the answer is theirs (patient.ts). */
  person?: AskedPerson;
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

/** The Eligibility a 271's loop tree states; `at` locates the transaction set for errors. */
function readEligibility(
  tree: LoopTree,
  d: Delimiters,
  at: { index: number; id: string; offset: number },
  warnings: string[],
  { trace, encounter: asked, memberId, person, fallback }: NormalizeOptions,
): ParseResult<Eligibility> {
  const payerLevel = tree.levels.find((l) => l.kind === 'payer');
  const receiverLevel = tree.levels.find((l) => l.kind === 'receiver');
  const subscriberLevels = tree.levels.filter((l) => l.kind === 'subscriber');
  const named = subscriberLevels.length > 1 && memberId ? subscriberLevels.find((l) => namesMember(l, memberId)) : undefined;
  const subscriberLevel = named ?? subscriberLevels[0];
  if (subscriberLevels.length > 1) {
    warnings.push(`${subscriberLevels.length} subscriber levels (2000C); ${named ? 'the one naming the member ID asked about' : 'only the first'} is read`);
  }
  // The patient: the person of the subscriber level whose member ID, date of birth and names agree with the request (patient.ts).
  const patient = subscriberLevel ? patientLoop(subscriberLevel, person) : undefined;
  const dependentLevel = patient && 'level' in patient && patient.dependent ? patient.level : undefined;
  const refused = refusalOf(tree, { payerLevel, receiverLevel, subscriberLevel, dependentLevel }, patient, at, warnings);
  if (refused !== null || !subscriberLevel) return refused ?? fail('the 271 has no subscriber level (2000C, HL03=22) and no AAA rejection', at);

  const memberLevel = dependentLevel ?? subscriberLevel;
  const benefitLevel = memberLevel.benefits.length > 0 || !dependentLevel ? memberLevel : subscriberLevel;
  const memberName = memberLevel.names[0];
  const subscriberName = subscriberLevel.names[0];
  const names = [memberName, subscriberName];

  const bht = tree.header.find((s) => s.id === 'BHT');
  const bhtDate = bht ? d8ToIso(el(bht, 4)) : null;
  const encounter = asked ?? (bhtDate ? defaultEncounter(bhtDate) : null);
  // A telehealth encounter (place 02/10) is priced by the rows for telehealth; one in person by the rows
  // for its own place (11 office, 53 community mental health center, 12 home, ...) or for no place.
  const telehealthVisit = encounter !== null && isTelehealthPlace(encounter.place_of_service);
  const inPerson = encounter !== null && !telehealthVisit ? encounter.place_of_service : '11';
  const all: Benefit[] = [];
  for (const b of benefitLevel.benefits) if (b.seg.id === 'EB') all.push(readBenefit(b, d, inPerson));
  // Family figures stated in another person's loop are the patient's family's too (docs/estimates.md 1.1, "The patient").
  const elsewhere = subscriberLevel
    ? familyRowsElsewhere(subscriberLevel, benefitLevel, (b) => encounter === null || rowExcludedBy(readBenefit(b, d, inPerson), encounter) === null)
    : null;
  for (const b of elsewhere?.rows ?? []) all.push(readBenefit(b, d, inPerson));
  const benefitAaa = benefitAaaOf(benefitLevel);
  if (benefitAaa.length > 0) {
    if (!all.some((b) => isStatus(b) || isCost(b))) return ok(rejection(benefitAaa[0]!, REJECT_LEVEL[benefitLevel.kind]), warnings);
    for (const a of benefitAaa) warnings.push(`benefit-level ${aaaReason(el(a, 3), el(a, 4))} at segment ${a.index}`);
  }

  const ordered = byContent(all);
  const planEb = planDatesRow(ordered, encounter);
  const dates = planDates(names, planEb?.loop);
  const { plan, eligibility } = dates;
  const planBegin = plan.begin?.start ?? plan.range?.start ?? eligibility.begin?.start ?? eligibility.range?.start ?? null;
  const reportedEnd = plan.end?.start ?? plan.begin?.end ?? plan.range?.end ?? null;
  const reportedEligibilityEnd = eligibility.end?.start ?? eligibility.range?.end ?? eligibility.begin?.end ?? null;
  const planEnd = reportedEnd;
  const reference = planBegin ?? bhtDate;
  // Without a plan end a later benefit begin can be a change within the year: one in force on the
  // date of service prices it (docs/estimates.md, next plan year).
  const nextAfter = planEnd ?? encounter?.date_of_service ?? null;
  const skipped: { b: Benefit; why: string }[] = [];
  if (trace)
    for (const b of elsewhere?.others ?? [])
      skipped.push({ b: readBenefit(b, d, inPerson), why: "a row of another person's loop (2000C/2000D) than the patient's" });
  // The explanation names every row: those of another subscriber level are not the member's.
  if (trace && subscriberLevels.length > 1) {
    for (const other of subscriberLevels) {
      if (other === subscriberLevel) continue;
      for (const level of [other, ...other.children]) {
        for (const b of level.benefits)
          if (b.seg.id === 'EB') skipped.push({ b: readBenefit(b, d, inPerson), why: 'a row of another subscriber level (2000C) than the one read' });
      }
    }
  }
  const pricesHere = telehealthVisit ? pricesTelehealthOrAnywhere : pricesOffice;
  // One pass sorts the EBs into the lists the readers below need, in an order set by their content
  // (never by their order in the 271: docs/estimates.md section 1.1).
  const { thisYear, next, typed, entities, payerRows, firstStatus, mhActive, mhInactive, mh, otherActive, strongCostShare } = sortRows(
    ordered,
    { encounter, reference, nextAfter, pricesHere },
    skipped,
  );
  const { current } = thisYear;
  // The plan's name and program are read from any status row: they name the plan, not what it covers. Its status
  // comes from the rows that cover the session (sessionStatus, docs/estimates.md 1.1).
  const planLevel = planStatusRow(current, encounter) ?? firstStatus;
  // One administrator, reviewer or PCP of several is taken in content order (`entities` as sorted: never
  // by where the payer put it); a list in the answer (additional policies) keeps the 271's order.
  sortByIndex(payerRows);
  const session = sessionStatus(current, encounter, { ...mh, active: mhActive, inactive: mhInactive });
  let coverageStatus: CoverageStatus = session.status;
  const statusRow = session.row;
  if (coverageStatus === 'unknown')
    warnings.push(
      firstStatus
        ? 'no eligibility status EB (EB01 1-8) for the plan or for mental health, only for other services: the coverage status is unknown'
        : 'no eligibility status EB (EB01 1-8): the coverage status is unknown',
    );
  // The member's eligibility (2100C/D DTP 356, or a 307 range) begins after the date of service: not in force for this encounter.
  const eligibilityBegin = eligibility.begin?.start ?? eligibility.range?.start ?? null;
  if (coverageStatus !== 'inactive' && encounter && eligibilityBegin !== null && eligibilityBegin > encounter.date_of_service) {
    coverageStatus = 'inactive';
    trace?.push(
      traced(
        'coverage status: inactive',
        null,
        null,
        `eligibility begins ${eligibilityBegin} (DTP 356/307), after the date of service ${encounter.date_of_service}`,
      ),
    );
  }

  const nextBegin = earliestBegin(next);
  const { plan_end_date, eligibility_end_date } =
    coverageStatus === 'inactive'
      ? { plan_end_date: planEnd, eligibility_end_date: reportedEligibilityEnd }
      : terminationOf({
          begin: planBegin,
          end: planEnd,
          endFrom347: plan.end !== null,
          eligibilityEnd: reportedEligibilityEnd,
          nextBegin,
        });

  const { flags, messages } = messagesOf(all);
  const planNameRef = refIn(names, '18');
  const payerNm1 = payerLevel?.names[0]?.nm1;
  const plan_name = planName(planLevel, typed) ?? (planNameRef ? orNull(el(planNameRef, 3)) : null);
  const eb04Sent = (planLevel !== undefined && insuranceCode(planLevel) !== '') || typed.some((b) => insuranceCode(b) !== '');
  flags.is_hdhp ||= saysCue(plan_name, 'hdhp');
  flags.is_marketplace ||= saysCue(plan_name, 'marketplace');
  const { insurance_type, plan_type, qmb, advantageElsewhere } = refineProgram(insuranceAndPlanType(planLevel, typed, current, flags), current, {
    planNames: [plan_name, planNameRef ? el(planNameRef, 3) : null],
    payerName: payerNm1 ? entityName(payerNm1) : null,
    eb04Sent,
  });

  const carveOut = thirdParty(entities, strongCostShare);
  const third = carveOut?.entity ?? null;
  if (carveOut && !third) warnings.push('the behavioral-health carve-out rows name different administrators: the administrator is unknown');
  const otherSource = carveOut ? undefined : otherSourceOfBehavioralHealth(entities);
  // A date of service after this plan year's end, in the next plan year the payer reports: that year's rows price
  // it, this year's never do (docs/estimates.md section 1.1, "The plan year of the date of service").
  const nextYear =
    encounter !== null && planEnd !== null && nextBegin !== null && encounter.date_of_service > planEnd && nextBegin <= encounter.date_of_service
      ? nextYearRows(next, encounter, skipped, pricesHere)
      : null;
  const { mental, mhInactiveIn, mhInactiveOut } = mentalHealthStatus({ carvedOut: Boolean(carveOut || otherSource), mh, otherActive, strongCostShare });
  const pricing: PricingFacts = {
    insurance_type,
    dateOfService: encounter?.date_of_service ?? null,
    inactive: coverageStatus === 'inactive',
    plan: fallback ? { hdhp: flags.is_hdhp, fits: pricesHere, fallback } : { hdhp: flags.is_hdhp, fits: pricesHere },
    advantageElsewhere,
    mhInactive: { in: mhInactiveIn, out: mhInactiveOut },
    memberDates: encounter
      ? [...unknownMemberDates(memberName, encounter.date_of_service), ...(dependentLevel ? unknownMemberDates(subscriberName, encounter.date_of_service) : [])]
      : [],
    session,
  };
  const { in_network, out_of_network, teleIn, teleOut, partAFiltered } = priceRows(nextYear ?? thisYear, pricing, warnings, trace);
  // This year's in-network benefits, for the reset rules' comparison only: read quietly (they price nothing).
  const thisYearInNetwork = nextYear ? priceRows(thisYear, pricing, [], undefined).in_network : undefined;
  if (trace) trace.push(traced(`insurance type: ${insurance_type}`, null, null, programRule(insurance_type, eb04Sent)));
  if (trace) traceCarveOut(trace, carveOut, otherSource);

  const group = refIn(names, '6P');
  const groupIdRef = group && el(group, 2) !== '' ? group : refIn(names, '1L');
  if (!payerNm1) warnings.push('the 271 names no payer (2100A NM1*PR)');
  const member = readPerson(memberName);
  const subscriber = dependentLevel ? readPerson(subscriberName) : member;
  const ins = memberName?.ins ?? null;
  const trn = memberLevel.trn.find(isTrn2) ?? subscriberLevel.trn.find(isTrn2) ?? null;

  const coverage: Coverage = {
    // NM109 is the payer's ID only under NM108 PI (nm108-2120.json `identifies` payer); FI, 24, 46, NI, XV name it by a tax, NAIC or plan ID (ask-payer then reports the ID asked).
    payer_id: payerNm1 && identifiedBy(el(payerNm1, 8)) === 'payer' ? el(payerNm1, 9) : '',
    payer_name: payerNm1 ? entityName(payerNm1) : '',
    plan_name,
    plan_type,
    insurance_type,
    group_name: group ? orNull(el(group, 3)) : null,
    group_id: groupIdRef ? orNull(el(groupIdRef, 2)) : null,
    plan_begin_date: planBegin,
    plan_end_date,
    eligibility_end_date,
    coverage_status: coverageStatus,
    mental_health_coverage: mental,
    in_network,
    out_of_network,
    telehealth: teleIn || teleOut ? { in_network: teleIn, out_of_network: teleOut } : null,
    pcp: primaryCareProvider(entities),
    third_party_payer: third,
    utilization_manager: utilizationManager(entities),
    additional_policies: additionalPolicies(payerRows, warnings),
    is_marketplace: flags.is_marketplace,
    is_bluecard: flags.is_bluecard,
    is_hdhp: flags.is_hdhp,
    member,
    subscriber,
    relationship_to_subscriber: dependentLevel ? (ins ? relationshipFromIns(el(ins, 2)) : 'other') : 'self',
    payer_corrected_demographics: ins !== null && correctsDemographics(el(ins, 3), el(ins, 4)),
    next_plan_year: nextPlanYear(next),
    messages,
  };
  if (thisYearInNetwork !== undefined) coverage.this_plan_year_in_network = thisYearInNetwork;
  if (insurance_type === 'commercial' && !eb04Sent) coverage.program_unstated = true;
  if (trace) {
    const mh = mental === 'inactive' ? mhInactive : mental === 'active' ? mhActive : undefined;
    traceRows(trace, {
      all,
      planLevel: statusRow,
      planWide: session.planWide,
      coverageStatus,
      mh,
      mental,
      skipped,
      next: nextYear ? [] : next,
      partAFiltered,
      pastYear: nextYear ? current : [],
    });
  }
  if (qmb) coverage.qmb = true;
  return ok({ kind: 'coverage', coverage, trace_number: trn ? orNull(el(trn, 2)) : null }, warnings);
}
