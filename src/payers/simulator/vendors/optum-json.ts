/**
 * The Optum simulator's answers in Optum's own shape (src/payers/vendors/optum-schema.ts), made from
 * the generic v3 reading of a 271 (eligibility-v3-json.ts): names where Optum spells codes out
 * (2120 `entityIdentifier` "Payer", `entityType` "Non-Person Entity", `followupAction` prose), the
 * provider as ResponseProvider names it, EB names beside their codes, the patient's dates in the top-level `planDateInformation`,
 * one related entity as `benefitsRelatedEntity` (as every captured sandbox answer has it) and several
 * also as `benefitsRelatedEntities`, errors with their `location`. Tests hold every answer to the schema.
 */
import { AAA_REASONS } from '../../../x12/aaa.ts';
import {
  BENEFIT_CODES,
  COMMUNICATION_MODES,
  COVERAGE_LEVELS,
  DATE_NAME_OF_QUALIFIER,
  DATE_NAME_SPELLINGS,
  ENTITY_IDENTIFIERS,
  ENTITY_TYPES,
  FOLLOWUP_ACTIONS,
  ID_QUALIFIERS,
  QUANTITY_QUALIFIERS,
  TIME_PERIODS,
  YES_NO,
} from '../../vendors/eligibility-v3-codes.ts';
import { arr, obj, str, type Obj } from '../../vendors/json-read.ts';
import type { V3Answer } from './eligibility-v3-json.ts';

/** BenefitsDateInformation's own spellings (DTP*342 premiumPaidtoDateBegin), by the model's name. */
const BENEFIT_DATE_SPELLING: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(DATE_NAME_SPELLINGS).map(([spelt, q]) => [DATE_NAME_OF_QUALIFIER[q] ?? spelt, spelt]),
);

const nameOf = (table: Readonly<Record<string, string>>, code: string): string => Object.entries(table).find(([, c]) => c === code)?.[0] ?? code;
/** The name beside a code, as Optum's answers give it (`name` beside `code`...); none for a code the list lacks. */
const spelled = (table: Readonly<Record<string, string>>, code: unknown) => {
  const name = nameOf(table, str(code));
  return name !== str(code) ? name : undefined;
};
const defined = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)));

function errorsAt(errors: unknown, letter: string): Obj[] {
  return arr(errors).map((e) => {
    const code = str(e.code);
    const reason = AAA_REASONS[code];
    return defined({
      field: 'AAA',
      code,
      description: reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : undefined,
      followupAction: str(e.followupActionCode) ? nameOf(FOLLOWUP_ACTIONS, str(e.followupActionCode)) : undefined,
      location: `Loop 2100${letter}`,
    });
  });
}

function member(who: Obj, letter: string): Obj {
  return defined({
    memberId: who.memberId,
    firstName: who.firstName,
    lastName: who.lastName ?? who.organizationName,
    gender: str(who.gender) === 'M' || str(who.gender) === 'F' ? who.gender : undefined,
    dateOfBirth: who.dateOfBirth,
    address: Object.keys(obj(who.address)).length > 0 ? who.address : undefined,
    aaaErrors: errorsAt(who.aaaErrors, letter),
  });
}

function entity(r: Obj): Obj {
  const contacts = arr(obj(r.contactInformation).contacts).map((c) => ({ ...c, communicationMode: nameOf(COMMUNICATION_MODES, str(c.communicationMode)) }));
  return defined({
    entityIdentifier: nameOf(ENTITY_IDENTIFIERS, str(r.entityIdentifier)),
    entityType: nameOf(ENTITY_TYPES, str(r.entityType)),
    entityName: r.entityName,
    entityFirstname: r.entityFirstname,
    entityIdentification: str(r.entityIdentification) ? nameOf(ID_QUALIFIERS, str(r.entityIdentification)) : undefined,
    entityIdentificationValue: r.entityIdentificationValue,
    contactInformation: contacts.length > 0 ? { contacts } : undefined,
  });
}

function benefit(b: Obj, letter: string): Obj {
  const { benefitsRelatedEntities, aaaErrors, benefitsDateInformation, ...rest } = b;
  const entities = arr(benefitsRelatedEntities).map(entity);
  const dates = Object.fromEntries(Object.entries(obj(benefitsDateInformation)).map(([k, v]) => [BENEFIT_DATE_SPELLING[k] ?? k, v]));
  return defined({
    ...rest,
    name: spelled(BENEFIT_CODES, rest.code),
    coverageLevel: spelled(COVERAGE_LEVELS, rest.coverageLevelCode),
    timeQualifier: spelled(TIME_PERIODS, rest.timeQualifierCode),
    quantityQualifier: spelled(QUANTITY_QUALIFIERS, rest.quantityQualifierCode),
    inPlanNetworkIndicator: spelled(YES_NO, rest.inPlanNetworkIndicatorCode),
    benefitsDateInformation: Object.keys(dates).length > 0 ? dates : undefined,
    aaaErrors: errorsAt(aaaErrors, letter),
    benefitsRelatedEntity: entities[0],
    benefitsRelatedEntities: entities.length > 1 ? entities : undefined,
  });
}

/** An Optum eligibility v3 answer to the inquiry with this control number and payer ID. */
export function optumAnswer(v3: V3Answer, controlNumber: string, payerId: string): Obj {
  const dependent = v3.dependents?.[0];
  const patient = dependent ?? v3.subscriber;
  const letter = dependent ? 'D' : 'C';
  const provider = v3.provider;
  const payerErrors = errorsAt(v3.payer.aaaErrors, 'A');
  const providerErrors = errorsAt(provider.aaaErrors, 'B');
  const subscriber = member(v3.subscriber, 'C');
  const dependents = dependent ? [member(dependent, 'D')] : undefined;
  const benefitsInformation = v3.benefitsInformation.map((b) => benefit(b, letter));
  const errors = [
    ...payerErrors,
    ...providerErrors,
    ...arr(subscriber.aaaErrors),
    ...arr(dependents?.[0]?.aaaErrors),
    ...benefitsInformation.flatMap((b) => arr(b.aaaErrors)),
  ];
  return defined({
    controlNumber,
    reassociationKey: controlNumber,
    tradingPartnerServiceId: payerId,
    provider: defined({
      providerName: provider.lastName,
      providerFirstName: provider.firstName,
      providerOrgName: provider.organizationName,
      entityIdentifier: 'Provider',
      entityType: provider.lastName ? 'Person' : 'Non-Person Entity',
      npi: provider.npi,
      aaaErrors: providerErrors,
    }),
    subscriber,
    dependents,
    payer: defined({
      entityIdentifier: 'Payer',
      entityType: 'Non-Person Entity',
      name: v3.payer.name,
      payorIdentification: v3.payer.payorIdentification,
      aaaErrors: payerErrors,
    }),
    planInformation: v3.planInformation,
    planDateInformation: Object.keys(obj(patient.planDateInformation)).length > 0 ? patient.planDateInformation : undefined,
    benefitsInformation,
    errors,
    x12: v3.x12,
  });
}
