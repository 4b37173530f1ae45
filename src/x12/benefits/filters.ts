/**
 * Which 2110C/2110D EB rows apply to the encounter being priced (docs/estimates.md section 1.1,
 * "The benefit matrix"): a row whose own dates exclude the date of service, that is restricted to
 * another procedure (EB13), or that speaks only for inpatient (or only for outpatient) care of
 * another kind than the encounter's, never prices it. The answer for a row never depends on the
 * other rows or their order.
 */
import type { IsoDate } from '../../domain/coverage.ts';
import type { Encounter } from '../../domain/encounter.ts';
import { codeEntry, decisionOf } from '../code-tables/index.ts';
import { benefitDtp, isInpatientPlace, isPerAdmission, serviceCare } from '../code-tables/attributes.ts';
import type { BenefitLoop } from '../loops.ts';
import { el } from '../tokenizer.ts';
import { readDtpDate } from '../values.ts';

/** The care an EB03 code is limited to (code-tables/eb03.json `care`): A7, CE, RT, ... inpatient; A8, CF, CH, ... outpatient. */
const careOf = serviceCare;

/** An encounter at a place of an inpatient stay (place-of-service.json `inpatientStay`: 21, 51, 55, 56, 61). */
export const isInpatientEncounter = (e: Encounter) => isInpatientPlace(e.place_of_service);

/**
 * The date range a row's own DTPs limit it to (348 benefit begin, 356 eligibility begin, 349 benefit
 * end, 357 eligibility end, and the 291 plan, 292 benefit, 307 eligibility and 290 coordination-of-benefits
 * ranges, and a counting period sent whole: 193 period start with 194 period end); nulls: open.
 */
export function benefitWindow(loop: BenefitLoop): { begin: IsoDate | null; end: IsoDate | null } {
  let begin: IsoDate | null = null;
  let end: IsoDate | null = null;
  let periodBegin: IsoDate | null = null;
  let periodEnd: IsoDate | null = null;
  for (const dtp of loop.dtp) {
    const q = el(dtp, 1);
    // The row's own dates (dtp-2110.json `of` benefit, eligibility, coordination of benefits), not the plan's.
    const of = benefitDtp.of(q);
    if (of === undefined) continue;
    const date = benefitDtp.date(q);
    // A counting period (193 start, 194 end) bounds the row only when both are sent: a period whole.
    if (of === 'period') {
      const r = readDtpDate(el(dtp, 2), el(dtp, 3));
      if (r && date === 'begin') periodBegin = r.start;
      else if (r && date === 'end') periodEnd = r.end ?? r.start;
      continue;
    }
    // A plan range (291 RD8) on a row dates the row to a plan year: one not holding the date of service
    // is another year's (last year's deductible beside this year's). A lone 291 date is the date asked
    // about, echoed; 346/347 on a row are the plan's dates (plan-dates-in-2110c), not the row's.
    if (of === 'plan' && (date !== 'range' || el(dtp, 2) !== 'RD8')) continue;
    const r = readDtpDate(el(dtp, 2), el(dtp, 3));
    if (!r) continue;
    // A begin sent as a range (RD8) states the end too.
    if (date === 'begin') {
      begin = r.start;
      if (r.end) end = r.end;
    } else if (date === 'end') end = r.start;
    else {
      begin = r.start;
      if (r.end) end = r.end;
    }
  }
  if (periodBegin !== null && periodEnd !== null) {
    if (begin === null || periodBegin > begin) begin = periodBegin;
    if (end === null || periodEnd < end) end = periodEnd;
  }
  return { begin, end };
}

/** What a row is restricted to, read once per row. */
export interface RowScope {
  /** EB03 codes as sent; empty: plan level. */
  serviceTypes: readonly string[];
  /** EB13-2 procedure code when the row is restricted to one (the start of a range when procedureEnd is set). */
  procedure: string | null;
  /** EB13-8: the end of the range of procedures the row is restricted to, from `procedure` on. */
  procedureEnd: string | null;
  /** EB13-3 to EB13-6: the procedure modifiers the restriction names (most rows: none). */
  modifiers: readonly string[];
  window: { begin: IsoDate | null; end: IsoDate | null };
  /** EB06 time period qualifier. */
  period: string;
}

/** A service type its table decides "ignored, because ..." (not behavioral health, no care of its own): it leaves the row as it was. */
function ignoredType(code: string): boolean {
  const e = codeEntry('eb03', code);
  return e !== undefined && !e.care && decisionOf(e) === 'ignored';
}

/**
 * Whether every service type is limited to `care`, those decided ignored aside (A7^1 is A7's inpatient
 * row: "1 medical care" is ignored); a loop: every() with a closure allocates one per row.
 */
function allFor(types: readonly string[], care: 'inpatient' | 'outpatient'): boolean {
  let some = false;
  for (const t of types) {
    const c = careOf(t);
    if (c === care) some = true;
    else if (c !== undefined || !ignoredType(t)) return false;
  }
  return some;
}

/**
 * Whether a row restricted by EB13 names the encounter's procedure: the code itself, or a range
 * (C003-02 to C003-08) holding it: codes of one length (CPT five digits, HCPCS a letter and four) in
 * the order of their characters.
 */
function namesProcedure(scope: Pick<RowScope, 'procedure' | 'procedureEnd'>, code: string | null): boolean {
  if (code === null || scope.procedure === null) return false;
  const end = scope.procedureEnd;
  if (end === null) return code === scope.procedure;
  return code.length === scope.procedure.length && code.length === end.length && code >= scope.procedure && code <= end;
}

/** Whether the row's own dates hold the date of service. */
export function windowHolds(scope: Pick<RowScope, 'window'>, dateOfService: IsoDate): boolean {
  const { begin, end } = scope.window;
  return (begin === null || begin <= dateOfService) && (end === null || end >= dateOfService);
}

/** Why the row's own dates (DTP 348/356, 349/357, 292/307/290 ranges) exclude the date of service, or null when they do not. */
export function outsideDates(scope: Pick<RowScope, 'window'>, e: Encounter): string | null {
  const { begin, end } = scope.window;
  if (begin !== null && begin > e.date_of_service) return `its dates begin ${begin}, after the date of service ${e.date_of_service}`;
  if (end !== null && end < e.date_of_service) return `its dates end ${end}, before the date of service ${e.date_of_service}`;
  return null;
}

/** Why the row does not apply to the encounter, or null when it does. */
export function excludedBy(scope: RowScope, e: Encounter): string | null {
  const dates = outsideDates(scope, e);
  if (dates !== null) return dates;
  if (scope.procedure !== null && !namesProcedure(scope, e.procedure_code)) {
    const restriction = scope.procedureEnd === null ? `procedure ${scope.procedure}` : `procedures ${scope.procedure} to ${scope.procedureEnd}`;
    return `restricted by EB13 to ${restriction}${e.procedure_code ? `, not ${e.procedure_code}` : ''}`;
  }
  // An encounter names no modifier: a benefit for the procedure billed with one (95 telemedicine, HO
  // a master's-level clinician, ...) is not the benefit of the procedure as such.
  if (scope.procedure !== null && scope.modifiers.length > 0) {
    return `restricted by EB13 to procedure ${scope.procedure} with modifier ${scope.modifiers.join(', ')}; the encounter is priced without modifiers`;
  }
  const inpatient = isInpatientEncounter(e);
  // EB06 36: an amount per admission is the inpatient benefit.
  if (isPerAdmission(scope.period) && !inpatient) return 'stated per admission (EB06 36): the inpatient benefit, not an outpatient visit';
  const types = scope.serviceTypes;
  if (types.length > 0) {
    const other = inpatient ? 'outpatient' : 'inpatient';
    if (allFor(types, other)) {
      return inpatient
        ? `service type ${types.join(', ')} is outpatient care; the encounter is an inpatient stay`
        : `service type ${types.join(', ')} is inpatient care; the encounter is an outpatient visit (place of service ${e.place_of_service})`;
    }
  }
  return null;
}
