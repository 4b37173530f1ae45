/**
 * The stages of reading one 271 transaction set into the Eligibility it states (normalize-271.ts
 * readEligibility), each with a typed result the next reads: the member (which levels and names are
 * the patient's), the rows (the patient's EB rows, then the lists the encounter needs), the plan's
 * status and dates, the program, the carve-out, and the price (the benefits room,
 * benefits/index.ts). Each stage pushes its warnings and explanation entries in the order the
 * answer lists them.
 */
import type { Coverage, CoverageStatus, InsuranceType, IsoDate, MentalHealthCoverage, OtherEntity, PlanType } from '../domain/coverage.ts';
import { defaultEncounter, type Encounter } from '../domain/encounter.ts';
import { aaaReason } from './aaa.ts';
import { pricesOffice, pricesTelehealth, traced } from './benefit-selection.ts';
import {
  byContent,
  endStatedBy,
  saysCue,
  sortRows,
  rowExcludedBy,
  unknownMemberDates,
  type EncounterPrice,
  type PlaceFit,
  type RowLists,
  type TraceEntry,
  ageOn,
} from './benefits/index.ts';
import { isTelehealthPlace, relationshipFromIns } from './codes.ts';
import { correctsDemographics, identifiedBy } from './code-tables/attributes.ts';
import type { Delimiters } from './delimiters.ts';
import { type Benefit, readBenefit, orNull, isStatus, isCost, insuranceCode } from './eb-benefit.ts';
import { messagesOf } from './hints.ts';
import { benefitAaa as benefitAaaOf, type HlLevel, type LoopTree, type NameLoop } from './loops.ts';
import { refineProgram } from './medicare.ts';
import { planDates, refIn, readPerson, type PlanDates } from './member-loops.ts';
import { refusalOf } from './member-refusal.ts';
import { mentalHealthStatus } from './mental-health-status.ts';
import { continuedEligibility, narrowedEligibility } from './continuation.ts';
import { familyRowsElsewhere, patientLoop, type AskedPerson } from './patient.ts';
import { terminationOf } from './plan-dates.ts';
import { insuranceAndPlanType, nextPlanYear, planName } from './plan-identity.ts';
import { planDatesRow, planStatusRow, sessionStatus, type SessionStatus } from './plan-rows.ts';
import { additionalPolicies, entityName, otherSourceOfBehavioralHealth, primaryCareProvider, thirdParty, utilizationManager } from './related-entities.ts';
import { REJECT_LEVEL, isTrn2, rejection, type Eligibility } from './rejection.ts';
import { fail, ok, type ParseResult } from './result.ts';
import { el } from './tokenizer.ts';
import { namesMember } from './transaction-set.ts';
import { d8ToIso } from './values.ts';

type Located = { index: number; id: string; offset: number };
type Skipped = { b: Benefit; why: string }[];

/** Stage 1, the member: the levels and name loops that are the patient's, or the refusal the answer states. */
export interface Member {
  payerLevel: HlLevel | undefined;
  subscriberLevels: HlLevel[];
  subscriberLevel: HlLevel;
  dependentLevel: HlLevel | undefined;
  /** The patient's level, and the level whose rows price (the subscriber's when a dependent's has none). */
  memberLevel: HlLevel;
  benefitLevel: HlLevel;
  memberName: NameLoop | undefined;
  subscriberName: NameLoop | undefined;
  names: (NameLoop | undefined)[];
}

export function readMember(
  tree: LoopTree,
  at: Located,
  warnings: string[],
  memberId: string | null | undefined,
  person: AskedPerson | undefined,
): { member: Member } | { refused: ParseResult<Eligibility> } {
  const payerLevel = tree.levels.find((l) => l.kind === 'payer');
  const receiverLevel = tree.levels.find((l) => l.kind === 'receiver');
  const subscriberLevels = tree.levels.filter((l) => l.kind === 'subscriber');
  const named = subscriberLevels.length > 1 && memberId ? subscriberLevels.find((l) => namesMember(l, memberId)) : undefined;
  const subscriberLevel = named ?? subscriberLevels[0];
  if (subscriberLevels.length > 1) {
    warnings.push(`${subscriberLevels.length} subscriber levels (2000C); ${named ? 'the one naming the member ID asked about' : 'only the first'} is read`);
  }
  // The patient: the person of the subscriber level whose member ID, date of birth and names agree with the request (patient.ts).
  const patient = subscriberLevel ? patientLoop(subscriberLevel, person, memberId ?? null) : undefined;
  const dependentLevel = patient && 'level' in patient && patient.dependent ? patient.level : undefined;
  const refused = refusalOf(tree, { payerLevel, receiverLevel, subscriberLevel, dependentLevel }, patient, at, warnings);
  if (refused !== null || !subscriberLevel) return { refused: refused ?? fail('the 271 has no subscriber level (2000C, HL03=22) and no AAA rejection', at) };
  const memberLevel = dependentLevel ?? subscriberLevel;
  const benefitLevel = memberLevel.benefits.length > 0 || !dependentLevel ? memberLevel : subscriberLevel;
  const memberName = memberLevel.names[0];
  const subscriberName = subscriberLevel.names[0];
  return {
    member: {
      payerLevel,
      subscriberLevels,
      subscriberLevel,
      dependentLevel,
      memberLevel,
      benefitLevel,
      memberName,
      subscriberName,
      names: [memberName, subscriberName],
    },
  };
}

/** Stage 2, the rows: the patient's EB rows (and the family rows of the others' loops) for the encounter, in content order. */
export interface Rows {
  bhtDate: IsoDate | null;
  encounter: Encounter | null;
  /** A telehealth encounter (place 02/10) is priced by the rows for telehealth; one in person by those for its place or for none. */
  telehealthVisit: boolean;
  inPerson: string;
  pricesHere: (p: PlaceFit) => boolean;
  all: Benefit[];
  /** All, in content order. */
  ordered: Benefit[];
  /** The other people's rows not taken (for the explanation). */
  others: readonly Benefit['loop'][];
  /** The treating provider's NPI: the request's, else the 271's 2100B (benefits/providers.ts). */
  treatingNpi: string | null;
}

/**
 * The provider a row naming one in its 2120C is held to (docs/estimates.md 1.1, "Rows for a named
 * provider"): the NPI the request names, else the information receiver's (2100B NM108 XX, the provider the
 * 270 asked for); null when neither.
 */
export function treatingProvider(tree: LoopTree, providerNpi: string | null | undefined): string | null {
  if (providerNpi) return providerNpi;
  const nm1 = tree.levels.find((l) => l.kind === 'receiver')?.names[0]?.nm1;
  return nm1 && identifiedBy(el(nm1, 8)) === 'npi' ? orNull(el(nm1, 9).trim()) : null;
}

export function readRows(
  tree: LoopTree,
  d: Delimiters,
  m: Member,
  asked: Encounter | undefined,
  warnings: string[],
  providerNpi?: string | null,
): { rows: Rows } | { rejected: ParseResult<Eligibility> } {
  const bht = tree.header.find((s) => s.id === 'BHT');
  const bhtDate = bht ? d8ToIso(el(bht, 4)) : null;
  const encounter = asked ?? (bhtDate ? defaultEncounter(bhtDate) : null);
  // A telehealth encounter (place 02/10) is priced by the rows for telehealth; one in person by the rows
  // for its own place (11 office, 53 community mental health center, 12 home, ...) or for no place.
  const telehealthVisit = encounter !== null && isTelehealthPlace(encounter.place_of_service);
  const inPerson = encounter !== null && !telehealthVisit ? encounter.place_of_service : '11';
  const visitPlace = encounter?.place_of_service ?? inPerson;
  const treatingNpi = treatingProvider(tree, providerNpi);
  const all: Benefit[] = [];
  for (const b of m.benefitLevel.benefits) if (b.seg.id === 'EB') all.push(readBenefit(b, d, inPerson, visitPlace, treatingNpi));
  // Family figures stated in another person's loop are the patient's family's too (docs/estimates.md 1.1, "The patient").
  const elsewhere = familyRowsElsewhere(
    m.subscriberLevel,
    m.benefitLevel,
    (b) => encounter === null || rowExcludedBy(readBenefit(b, d, inPerson, visitPlace, treatingNpi), encounter) === null,
  );
  for (const b of elsewhere.rows) all.push(readBenefit(b, d, inPerson, visitPlace, treatingNpi));
  const benefitAaa = benefitAaaOf(m.benefitLevel);
  if (benefitAaa.length > 0) {
    if (!all.some((b) => isStatus(b) || isCost(b))) return { rejected: ok(rejection(benefitAaa[0]!, REJECT_LEVEL[m.benefitLevel.kind]), warnings) };
    for (const a of benefitAaa) warnings.push(`benefit-level ${aaaReason(el(a, 3), el(a, 4))} at segment ${a.index}`);
  }
  const pricesHere = telehealthVisit ? (p: PlaceFit) => p === 'any' || pricesTelehealth(p) : pricesOffice;
  return { rows: { bhtDate, encounter, telehealthVisit, inPerson, pricesHere, all, ordered: byContent(all), others: elsewhere.others, treatingNpi } };
}

/** Stage 3a, the plan's dates: from the member's loops and the plan-level status row (docs/estimates.md 1.1). */
export interface Dates {
  dates: PlanDates;
  planBegin: IsoDate | null;
  planEnd: IsoDate | null;
  reportedEligibilityEnd: IsoDate | null;
  eligibilityBegin: IsoDate | null;
}

export function readDates(m: Member, r: Rows, trace?: TraceEntry[]): Dates {
  const planEb = planDatesRow(r.ordered, r.encounter);
  const dates = planDates(m.names, planEb?.loop);
  const { plan, eligibility } = dates;
  // COBRA continuation beginning right after the eligibility end continues it (continuation.ts).
  const cobra = continuedEligibility(m.names, eligibility.end?.start ?? eligibility.range?.end ?? eligibility.begin?.end ?? null);
  if (trace && cobra.continued)
    trace.push(
      traced(
        'eligibility: COBRA continuation',
        null,
        null,
        `COBRA continuation begins ${cobra.continued.begin} (2100 DTP 340), right after the eligibility end: the member is eligible through ${cobra.continued.end ?? 'an open end'} (DTP 341)`,
      ),
    );
  const statedBegin = plan.begin?.start ?? plan.range?.start ?? eligibility.begin?.start ?? eligibility.range?.start ?? null;
  const eligibilityBegin = eligibility.begin?.start ?? eligibility.range?.start ?? null;
  // Policy dates and a COBRA end narrow the eligibility: the later begin, the earlier end (continuation.ts).
  const narrowed = narrowedEligibility(m.names, eligibilityBegin, cobra.end);
  // A policy effective date (539) later than every other begin is when the coverage begins: the plan gate reads it as the plan's begin.
  const policyBegin = narrowed.begin !== null && narrowed.begin !== eligibilityBegin ? narrowed.begin : null;
  return {
    dates,
    planBegin: policyBegin !== null && (statedBegin === null || policyBegin > statedBegin) ? policyBegin : statedBegin,
    planEnd: plan.end?.start ?? plan.begin?.end ?? plan.range?.end ?? null,
    reportedEligibilityEnd: narrowed.end,
    eligibilityBegin,
  };
}

/**
 * Stage 2b, the rows for the encounter: the lists the readers need (benefits room sortRows), this
 * plan year's and the next; `skipped` gets every row not read, with why (for the explanation).
 */
export function listRows(m: Member, r: Rows, dt: Dates, d: Delimiters, trace: TraceEntry[] | undefined): { lists: RowLists; skipped: Skipped } {
  const skipped: Skipped = [];
  if (trace)
    for (const b of r.others)
      skipped.push({
        b: readBenefit(b, d, r.inPerson, r.encounter?.place_of_service ?? r.inPerson, r.treatingNpi),
        why: "a row of another person's loop (2000C/2000D) than the patient's",
      });
  // The explanation names every row: those of another subscriber level are not the member's.
  if (trace && m.subscriberLevels.length > 1) {
    for (const other of m.subscriberLevels) {
      if (other === m.subscriberLevel) continue;
      for (const level of [other, ...other.children]) {
        for (const b of level.benefits)
          if (b.seg.id === 'EB')
            skipped.push({
              b: readBenefit(b, d, r.inPerson, r.encounter?.place_of_service ?? r.inPerson, r.treatingNpi),
              why: 'a row of another subscriber level (2000C) than the one read',
            });
      }
    }
  }
  const reference = dt.planBegin ?? r.bhtDate;
  // Without a plan end a later benefit begin can be a change within the year: one in force on the
  // date of service prices it (docs/estimates.md, next plan year).
  const nextAfter = dt.planEnd ?? r.encounter?.date_of_service ?? null;
  // One pass sorts the EBs into the lists the readers below need, in an order set by their content
  // (never by their order in the 271: docs/estimates.md section 1.1).
  const ins = m.memberName?.ins;
  const patient = { dependent: Boolean(m.dependentLevel), relation: m.dependentLevel && ins ? el(ins, 2) : '' };
  const dob = readPerson(m.memberName).dob;
  const age = dob !== null && r.encounter ? ageOn(dob, r.encounter.date_of_service) : null;
  const lists = sortRows(r.ordered, { encounter: r.encounter, reference, nextAfter, pricesHere: r.pricesHere, patient, age }, skipped);
  // One administrator, reviewer or PCP of several is taken in content order (`entities` as sorted: never
  // by where the payer put it); a list in the answer (additional policies) keeps the 271's order.
  sortByIndex(lists.payerRows);
  return { lists, skipped };
}

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

/** Stage 3b, the plan's status: what the status rows covering the session say, and the plan's end as the answer states it. */
export interface PlanStatus {
  /** The plan-level status row the plan's name and program are read from (any status row: they name the plan, not what it covers). */
  planLevel: Benefit | undefined;
  session: SessionStatus;
  coverageStatus: CoverageStatus;
  nextBegin: IsoDate | null;
  plan_end_date: IsoDate | null;
  eligibility_end_date: IsoDate | null;
}

export function readPlanStatus(r: Rows, dt: Dates, lists: RowLists, warnings: string[], trace: TraceEntry[] | undefined): PlanStatus {
  const { current } = lists.thisYear;
  const { encounter } = r;
  const planLevel = planStatusRow(current, encounter) ?? lists.firstStatus;
  const session = sessionStatus(current, encounter, { ...lists.mh, active: lists.mhActive, inactive: lists.mhInactive });
  let coverageStatus: CoverageStatus = session.status;
  // An active row whose words say the coverage ended by the date of service (docs/estimates.md 1.1, "An end stated in words").
  const endedInWords =
    coverageStatus === 'active' && encounter && session.row
      ? session.row.messages.map((m) => endStatedBy(m, encounter.date_of_service)).find((m) => m)
      : undefined;
  if (endedInWords) {
    coverageStatus = 'unknown';
    warnings.push(
      `the status row (EB01 ${session.row!.info}) says in words "${endedInWords}", an end by the date of service ${encounter!.date_of_service}: the coverage status is unknown`,
    );
  } else if (session.conflict)
    warnings.push(
      `the status rows say both active (EB01 ${session.conflict[0]!.info}) and inactive (EB01 ${session.conflict[1]!.info}) on the date of service: the coverage status is unknown`,
    );
  else if (coverageStatus === 'unknown')
    warnings.push(
      lists.firstStatus
        ? 'no eligibility status EB (EB01 1-8) for the plan or for mental health, only for other services: the coverage status is unknown'
        : 'no eligibility status EB (EB01 1-8): the coverage status is unknown',
    );
  // The member's eligibility (2100C/D DTP 356, or a 307 range) begins after the date of service: not in force for this encounter.
  const begin = dt.eligibilityBegin;
  if (coverageStatus !== 'inactive' && encounter && begin !== null && begin > encounter.date_of_service) {
    coverageStatus = 'inactive';
    trace?.push(
      traced('coverage status: inactive', null, null, `eligibility begins ${begin} (DTP 356/307), after the date of service ${encounter.date_of_service}`),
    );
  }
  const nextBegin = earliestBegin(lists.next);
  const ends =
    coverageStatus === 'inactive'
      ? { plan_end_date: dt.planEnd, eligibility_end_date: dt.reportedEligibilityEnd }
      : terminationOf({
          begin: dt.planBegin,
          end: dt.planEnd,
          endFrom347: dt.dates.plan.end !== null,
          eligibilityEnd: dt.reportedEligibilityEnd,
          nextBegin,
        });
  return { planLevel, session, coverageStatus, nextBegin, ...ends };
}

const earliestBegin = (rows: readonly Benefit[]) => rows.reduce<string | null>((m, b) => (b.begin !== null && (m === null || b.begin < m) ? b.begin : m), null);

/** Stage 4, the program: the plan's name, the insurance and plan type, and the flags the messages and names state. */
export interface Program {
  plan_name: string | null;
  insurance_type: InsuranceType;
  plan_type: PlanType;
  qmb: boolean;
  advantageElsewhere: boolean;
  eb04Sent: boolean;
  flags: { is_marketplace: boolean; is_bluecard: boolean; is_hdhp: boolean };
  messages: string[];
}

export function readProgram(m: Member, r: Rows, lists: RowLists, status: PlanStatus): Program {
  const { planLevel } = status;
  const { typed } = lists;
  const { flags, messages } = messagesOf(r.all);
  const planNameRef = refIn(m.names, 'plan_number');
  const payerNm1 = m.payerLevel?.names[0]?.nm1;
  const plan_name = planName(planLevel, typed) ?? (planNameRef ? orNull(el(planNameRef, 3)) : null);
  const eb04Sent = (planLevel !== undefined && insuranceCode(planLevel) !== '') || typed.some((b) => insuranceCode(b) !== '');
  flags.is_hdhp ||= saysCue(plan_name, 'hdhp');
  flags.is_marketplace ||= saysCue(plan_name, 'marketplace');
  const current = lists.thisYear.current;
  const { insurance_type, plan_type, qmb, advantageElsewhere } = refineProgram(insuranceAndPlanType(planLevel, typed, current, flags), current, {
    planNames: [plan_name, planNameRef ? el(planNameRef, 3) : null],
    payerName: payerNm1 ? entityName(payerNm1) : null,
    eb04Sent,
  });
  return { plan_name, insurance_type, plan_type, qmb, advantageElsewhere, eb04Sent, flags, messages };
}

/** Stage 5, the carve-out: who administers behavioral health when the medical plan hands it elsewhere, and mental health's status. */
export interface CarveOut {
  carveOut: { entity: OtherEntity | null } | null;
  otherSource: Benefit | undefined;
  mental: MentalHealthCoverage;
  mhInactive: { in: boolean; out: boolean };
}

/** `encounterTypes`: the encounter's own service types when its procedure is not mental health's (encounter-service.ts). */
export function readCarveOut(lists: RowLists, warnings: string[], encounterTypes: readonly string[] | null): CarveOut {
  const carveOut = thirdParty(lists.entities, lists.strongCostShare, encounterTypes);
  if (carveOut && !carveOut.entity) warnings.push('the behavioral-health carve-out rows name different administrators: the administrator is unknown');
  const otherSource = carveOut ? undefined : otherSourceOfBehavioralHealth(lists.entities);
  const { mh, otherActive, strongCostShare } = lists;
  const { mental, mhInactiveIn, mhInactiveOut } = mentalHealthStatus({ carvedOut: Boolean(carveOut || otherSource), mh, otherActive, strongCostShare });
  return { carveOut, otherSource, mental, mhInactive: { in: mhInactiveIn, out: mhInactiveOut } };
}

/** Stage 6 is the price (benefits/index.ts priceEncounter); stage 7, the answer: the Coverage the stages state. */
export function coverageOf(
  m: Member,
  st: PlanStatus,
  dt: Dates,
  p: Program,
  c: CarveOut,
  price: EncounterPrice,
  lists: RowLists,
  warnings: string[],
): Coverage {
  const group = refIn(m.names, 'group_number');
  const groupIdRef = group && el(group, 2) !== '' ? group : refIn(m.names, 'group_or_policy_number');
  const payerNm1 = m.payerLevel?.names[0]?.nm1;
  if (!payerNm1) warnings.push('the 271 names no payer (2100A NM1*PR)');
  const member = readPerson(m.memberName);
  const ins = m.memberName?.ins ?? null;
  const coverage: Coverage = {
    // NM109 is the payer's ID only under NM108 PI (nm108-2120.json `identifies` payer); FI, 24, 46, NI, XV name it by a tax, NAIC or plan ID (ask-payer then reports the ID asked).
    payer_id: payerNm1 && identifiedBy(el(payerNm1, 8)) === 'payer' ? el(payerNm1, 9) : '',
    payer_name: payerNm1 ? entityName(payerNm1) : '',
    plan_name: p.plan_name,
    plan_type: p.plan_type,
    insurance_type: p.insurance_type,
    group_name: group ? orNull(el(group, 3)) : null,
    group_id: groupIdRef ? orNull(el(groupIdRef, 2)) : null,
    plan_begin_date: dt.planBegin,
    plan_end_date: st.plan_end_date,
    eligibility_end_date: st.eligibility_end_date,
    coverage_status: st.coverageStatus,
    mental_health_coverage: c.mental,
    in_network: price.in_network,
    out_of_network: price.out_of_network,
    telehealth: price.teleIn || price.teleOut ? { in_network: price.teleIn, out_of_network: price.teleOut } : null,
    pcp: primaryCareProvider(lists.entities),
    third_party_payer: c.carveOut?.entity ?? null,
    utilization_manager: utilizationManager(lists.entities),
    additional_policies: additionalPolicies(lists.payerRows, warnings),
    is_marketplace: p.flags.is_marketplace,
    is_bluecard: p.flags.is_bluecard,
    is_hdhp: p.flags.is_hdhp,
    member,
    subscriber: m.dependentLevel ? readPerson(m.subscriberName) : member,
    relationship_to_subscriber: m.dependentLevel ? (ins ? relationshipFromIns(el(ins, 2)) : 'other') : 'self',
    payer_corrected_demographics: ins !== null && correctsDemographics(el(ins, 3), el(ins, 4)),
    next_plan_year: nextPlanYear(lists.next),
    messages: p.messages,
  };
  if (price.nextYear) coverage.this_plan_year_in_network = price.thisYearInNetwork ?? null;
  if (p.insurance_type === 'commercial' && !p.eb04Sent) coverage.program_unstated = true;
  if (p.qmb) coverage.qmb = true;
  return coverage;
}

/** The trace number of the patient's level (TRN*2), else the subscriber's. */
export function traceNumber(m: Member): string | null {
  const trn = m.memberLevel.trn.find(isTrn2) ?? m.subscriberLevel.trn.find(isTrn2) ?? null;
  return trn ? orNull(el(trn, 2)) : null;
}

/** 2100C/D dates bounding the coverage that the plan gate does not read, outside the date of service (closed world): no figure prices. */
export function memberDates(m: Member, encounter: Encounter | null, inquiry: IsoDate | null = null) {
  if (!encounter) return [];
  // A premium paid-to end is compared with the day the payer answered; a date of death in the subscriber's loop of a dependent is not the patient's.
  return [
    ...unknownMemberDates(m.memberName, encounter.date_of_service, { inquiry }),
    ...(m.dependentLevel ? unknownMemberDates(m.subscriberName, encounter.date_of_service, { inquiry, patient: false }) : []),
  ];
}
