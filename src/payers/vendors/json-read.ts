/** Reading vendor JSON without trusting its shape: every access yields a known type. */
import type { Delimiters } from '../../x12/delimiters.ts';
import {
  BENEFIT_CODES,
  BENEFIT_TIME_PERIODS,
  codeOfEither,
  codeOrAsSent,
  COVERAGE_LEVELS,
  DELIVERY_PATTERNS,
  DELIVERY_TIMES,
  INSURANCE_TYPES,
  MEASUREMENT_UNITS,
  networkIndicator,
  PRODUCT_QUALIFIERS,
  QUANTITY_QUALIFIERS,
  SERVICE_TYPES,
  TIME_PERIODS,
  YES_NO,
} from './eligibility-v3-codes.ts';

export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** A string, or null when the value is no non-empty string. */
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** Whether an object holds any field of its own (most optional sub-objects of an answer are empty). */
export function hasField(o: Obj): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}

/** How a connector cleans a value for an element of its 271 (cleanText, or stedi-read's text). */
export type Clean = (value: string, d: Delimiters, max: number) => string;

/**
 * C003-01: the product/service ID qualifier, from its code field (Stedi spells it `ID`, the v3 model `Id`) or
 * its name (`productOrServiceIDQualifier`): a value that is no code or name stays what it is (never
 * dropped, which would read the procedure as one of any code system), so the 271 reader's closed world
 * makes the row unknown.
 */
function qualifierOf(p: Obj): string {
  return codeOfEither(
    PRODUCT_QUALIFIERS,
    str(p.productOrServiceIDQualifierCode) || str(p.productOrServiceIdQualifierCode),
    str(p.productOrServiceIDQualifier) || str(p.productOrServiceIdQualifier),
  );
}

/**
 * EB13 (composite C003) of a JSON benefit's `compositeMedicalProcedureIdentifier`, the same object in
 * Stedi's and the v3 model (docs/going-live.md, "A benefit restricted to a procedure"): -01 the
 * qualifier, -02 the procedure (or a range's beginning), -03..-06 up to four modifiers, -08
 * `productOrServiceID` (the range's end), -07 (a description neither model has) left empty. '' when
 * no procedure is named: the composite has no -02 without one. Values are cleaned as the connector
 * cleans its other elements; a qualifier that is no code is written as sent (up to 30 characters).
 */
export function procedureComposite(value: unknown, d: Delimiters, clean: Clean): string {
  const p = obj(value);
  const procedure = clean(str(p.procedureCode), d, 48);
  if (!procedure) return '';
  // A modifier is never cut to its 2 characters: one that does not fit still restricts the row.
  const modifiers = strings(p.procedureModifiers)
    .map((m) => clean(m, d, 48))
    .filter(Boolean)
    .slice(0, 4);
  const parts = [clean(qualifierOf(p), d, 30), procedure, ...modifiers];
  const end = clean(str(p.productOrServiceID), d, 48);
  if (end) parts.push(...Array<string>(7 - parts.length).fill(''), end);
  return parts.join(d.component);
}

/**
 * EB03 of a benefit sent as `serviceTypeCodes` and `serviceTypes` (Stedi, the v3 model), one repetition
 * each: the codes, each read with the name at its place (codeOfEither: a name that is no name of 1365,
 * or one naming another code, is kept as sent, so the row is unknown). Sent by names only, each name's
 * code; lists of different lengths, which cannot be paired, give every code and every name's code once.
 */
export function serviceTypesOf(codes: unknown, names: unknown): string[] {
  const c = strings(codes).filter((v) => v.trim() !== '');
  const n = strings(names).filter((v) => v.trim() !== '');
  const read =
    c.length === n.length || c.length === 0 || n.length === 0
      ? Array.from({ length: Math.max(c.length, n.length) }, (_, i) => codeOfEither(SERVICE_TYPES, c[i] ?? '', n[i] ?? ''))
      : [...c, ...n].map((v) => codeOrAsSent(SERVICE_TYPES, v));
  return [...new Set(read)];
}

/** The coded elements of a Stedi or v3 benefit's EB, each from its code field or its name (codeOfEither), as sent when neither reads. */
export interface BenefitCodes {
  eb01: string;
  eb02: string;
  eb03: string[];
  eb04: string;
  eb06: string;
  eb09: string;
  eb11: string;
  eb12: string;
}

export function benefitCodesOf(b: Obj): BenefitCodes {
  return {
    eb01: codeOfEither(BENEFIT_CODES, str(b.code), str(b.name)),
    eb02: codeOfEither(COVERAGE_LEVELS, str(b.coverageLevelCode), str(b.coverageLevel)),
    eb03: serviceTypesOf(b.serviceTypeCodes, b.serviceTypes),
    eb04: codeOfEither(INSURANCE_TYPES, str(b.insuranceTypeCode), str(b.insuranceType)),
    eb06: codeOfEither(BENEFIT_TIME_PERIODS, str(b.timeQualifierCode), str(b.timeQualifier)),
    eb09: codeOfEither(QUANTITY_QUALIFIERS, str(b.quantityQualifierCode), str(b.quantityQualifier)),
    eb11: codeOrAsSent(YES_NO, str(b.authOrCertIndicator)),
    eb12: networkIndicator(str(b.inPlanNetworkIndicatorCode), str(b.inPlanNetworkIndicator)),
  };
}

/**
 * The coded elements of an HSD (`benefitsServiceDelivery`), each from its code field(s) or its name: HSD01
 * quantity qualifier, HSD03 unit, HSD05 time period, HSD07 and HSD08 patterns. The schemas give HSD03,
 * HSD07 and HSD08 two code fields (`unitForMeasurementCode`, `unitForMeasurementQualifierCode`): the first sent.
 */
export function serviceDeliveryCodesOf(h: Obj): { hsd01: string; hsd03: string; hsd05: string; hsd07: string; hsd08: string } {
  return {
    hsd01: codeOfEither(QUANTITY_QUALIFIERS, str(h.quantityQualifierCode), str(h.quantityQualifier)),
    hsd03: codeOfEither(MEASUREMENT_UNITS, str(h.unitForMeasurementCode) || str(h.unitForMeasurementQualifierCode), str(h.unitForMeasurementQualifier)),
    hsd05: codeOfEither(TIME_PERIODS, str(h.timePeriodQualifierCode), str(h.timePeriodQualifier)),
    hsd07: codeOfEither(
      DELIVERY_PATTERNS,
      str(h.deliveryOrCalendarPatternCode) || str(h.deliveryOrCalendarPatternQualifierCode),
      str(h.deliveryOrCalendarPatternQualifier),
    ),
    hsd08: codeOfEither(DELIVERY_TIMES, str(h.deliveryPatternTimeCode) || str(h.deliveryPatternTimeQualifierCode), str(h.deliveryPatternTimeQualifier)),
  };
}
