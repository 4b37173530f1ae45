/**
 * One pass over a 271's EB rows, in content order (never their order in the 271: docs/estimates.md
 * section 1.1), sorting them into the lists the readers need: the next plan year's, the rows that
 * apply to the encounter (the pricing lists), the typed rows, the rows that can name an entity, the
 * other-payer rows, and what the status rows say of behavioral health.
 */
import { ageFit, otherPersons, replacedByOwnClass, type PatientPersons } from './persons.ts';
import type { Encounter } from '../../domain/encounter.ts';
import { namesMentalHealth, STRONG_BH_TIER } from '../codes.ts';
import { benefitRole, isMentalHealthType, serviceCare } from '../code-tables/attributes.ts';
import { statusOf, type Benefit } from '../eb-benefit.ts';
import { outsideDates } from './filters.ts';
import { addPricingRow, rowExcludedBy, type PricingRows } from './pricing-rows.ts';
import { costApplies, type PlaceFit } from './rows.ts';

/**
 * EB03 codes of mental health itself whose EB*6 closes the session (not AI/AJ/AK substance abuse): the
 * mental-health types (eb03.json `mentalHealth`) not limited to inpatient care (A7 is).
 */
const closesSession = (t: string) => isMentalHealthType(t) && serviceCare(t) !== 'inpatient';

/** EB01 R (other or additional payer) or U (contact the following entity): a row naming another payer. */
function namesPayer(info: string): boolean {
  const role = benefitRole(info);
  return role === 'other_payer' || role === 'contact';
}

/** EB01 L, U, R or W: a row that can name an entity (a PCP, a contact, another payer, another source). */
function namesEntity(info: string): boolean {
  const role = benefitRole(info);
  return role === 'primary_care' || role === 'contact' || role === 'other_payer' || role === 'other_source';
}

export interface RowLists {
  /** The rows that apply to the encounter, as the pricing reads them. */
  thisYear: PricingRows;
  /** Rows beginning (DTP 348) after the plan's begin and end: the next plan year. */
  next: Benefit[];
  /** Status and cost rows (and EB01 MC), which carry the insurance type. */
  typed: Benefit[];
  /** Rows that can name an entity (EB01 L/U/R/W or with a 2120 loop), in content order. */
  entities: Benefit[];
  /** Rows naming another payer (EB01 R, U): only their own dates exclude them. */
  payerRows: Benefit[];
  /**
   * The patient's own class's rows (EB02 CHD, SPO, DEP, EMP) whose every MSG age condition the patient's age
   * on the date of service meets (persons.ts replacedByOwnClass): pricing reads those words as decided.
   */
  admitted: ReadonlySet<Benefit>;
  firstStatus: Benefit | undefined;
  mhActive: Benefit | undefined;
  mhInactive: Benefit | undefined;
  /** What mental health's own status rows say for each network (EB12 Y in, N out, else both): active wins over inactive. */
  mh: { in: MhStatus; out: MhStatus };
  /** An active status row for a mental-health type whose inactive row does not close the session (A7 inpatient). */
  otherActive: boolean;
  /** A cost row for a strong behavioral type (not telehealth only). */
  strongCostShare: boolean;
}

export type MhStatus = 'active' | 'inactive' | null;

/** A status row speaks for the network its EB12 names (Y in, N out), else for both. */
const speaksFor = (net: string, n: 'in' | 'out') => costApplies({ net }, n);

function addMh(now: MhStatus, status: 'active' | 'inactive'): MhStatus {
  return now === 'active' || status === 'active' ? 'active' : 'inactive';
}

export interface RowContext {
  encounter: Encounter | null;
  /** The plan begin (else the BHT date): a later DTP 348 may begin the next plan year. */
  reference: string | null;
  /** A DTP 348 after this (the plan end, or the date of service without one) begins the next plan year. */
  nextAfter: string | null;
  pricesHere: (p: PlaceFit) => boolean;
  /** Who the patient is, for a cost share stated for a class of persons (persons.ts); absent: not read. */
  patient?: PatientPersons | null;
  /** The patient's age on the date of service (their DMG date of birth), for a row an MSG limits by age; null: unknown. */
  age?: number | null;
}

/** The lists, from rows in content order; rows the encounter excludes go to `skipped` with why. */
export function sortRows(ordered: readonly Benefit[], ctx: RowContext, skipped: { b: Benefit; why: string }[]): RowLists {
  const { encounter, reference, nextAfter, pricesHere } = ctx;
  const applies = (b: Benefit) => b.begin === null && (encounter === null || rowExcludedBy(b, encounter) === null);
  const { replaced, admitted } = replacedByOwnClass(ordered, ctx.patient ?? null, ctx.age ?? null, applies);
  const out: RowLists = {
    thisYear: { current: [], bh: [], teleList: [], unknown: [] },
    next: [],
    typed: [],
    entities: [],
    payerRows: [],
    admitted,
    firstStatus: undefined,
    mhActive: undefined,
    mhInactive: undefined,
    mh: { in: null, out: null },
    otherActive: false,
    strongCostShare: false,
  };
  for (const b of ordered) {
    if (b.begin !== null && reference !== null && b.begin > reference && (nextAfter === null || b.begin > nextAfter)) {
      out.next.push(b);
      continue;
    }
    const ages = ageFit(b, ctx.age ?? null);
    const why =
      (encounter ? rowExcludedBy(b, encounter) : null) ?? otherPersons(b, ctx.patient ?? null) ?? replaced.get(b) ?? (ages?.fit === 'other' ? ages.why : null);
    if (why !== null) {
      skipped.push({ b, why });
      // Another payer is the member's whatever service or procedure its row names: only the row's dates exclude it.
      if (namesPayer(b.info) && encounter !== null && outsideDates(b, encounter) === null) out.payerRows.push(b);
      continue;
    }
    if (ages?.fit === 'admitted') admitted.add(b);
    addPricingRow(b, out.thisYear, pricesHere);
    const strong = b.tier >= 0 && b.tier <= STRONG_BH_TIER && !b.telehealth;
    if (b.status || b.cost || benefitRole(b.info) === 'managed_care') out.typed.push(b);
    if (namesEntity(b.info) || b.loop.related.length > 0) out.entities.push(b);
    if (namesPayer(b.info)) out.payerRows.push(b);
    if (b.cost && strong) out.strongCostShare = true;
    if (b.status) {
      out.firstStatus ??= b;
      // Mental health's own status (not substance abuse's: AI/AJ/AK are their own service types).
      // A status row with values no rule reads says nothing of mental health's status (it makes the cost share unknown: benefit-selection.ts).
      if (b.unknown.length > 0) continue;
      if (!b.telehealth && b.serviceTypes.some(closesSession)) {
        const status = statusOf(b.info) === 'inactive' ? 'inactive' : 'active';
        if (status === 'inactive') out.mhInactive ??= b;
        else out.mhActive ??= b;
        if (speaksFor(b.net, 'in')) out.mh.in = addMh(out.mh.in, status);
        if (speaksFor(b.net, 'out')) out.mh.out = addMh(out.mh.out, status);
      } else if (strong && namesMentalHealth(b.serviceTypes) && statusOf(b.info) !== 'inactive') out.otherActive = true;
    }
  }
  return out;
}
