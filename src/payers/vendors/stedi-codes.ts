/**
 * Stedi's JSON spells several X12 codes out as names. Each table below pairs Stedi's published enum
 * (Stedi Healthcare OpenAPI, docs/going-live.md "Stedi") with the code the X12 005010X279A1 code list
 * gives it, so the reader (stedi-read.ts) and the simulator speak the same words. The tables are data
 * (stedi-codes.json); the date names are the eligibility v3 model's (DATE_NAMES, DATE_NAME_SPELLINGS).
 */
import { COMMUNICATION_MODES, ENTITY_IDENTIFIERS, ENTITY_TYPES, FOLLOWUP_ACTIONS } from './eligibility-v3-codes.ts';
import CODES from './stedi-codes.json' with { type: 'json' };

/**
 * Names Stedi shares with the eligibility v3 JSON model, which are the X12 code lists' own names:
 * one table each (eligibility-v3-codes.ts). 2120C NM101 (the 25 entity codes a benefit's related
 * entity allows), NM102, AAA04 (Stedi's wording of Y is the code's 5010 meaning) and PER03/05/07.
 */
export const RELATED_ENTITY_CODES = ENTITY_IDENTIFIERS;
export const ENTITY_TYPE_CODES = ENTITY_TYPES;
export const FOLLOWUP_ACTION_CODES = FOLLOWUP_ACTIONS;
export const COMMUNICATION_MODE_CODES = COMMUNICATION_MODES;

/** 2100A NM101 (PayerEntityIdentifier). */
export const PAYER_ENTITY_CODES: Readonly<Record<string, string>> = CODES.payerEntityCodes;
/** 2100B NM101 (ResponseProviderEntityIdentifier). */
export const PROVIDER_ENTITY_CODES: Readonly<Record<string, string>> = CODES.providerEntityCodes;
/** INS02 of a dependent (DependentRelationshipCode) with Stedi's name for it (DependentRelationship); the subscriber is 18 Self. */
export const RELATIONSHIP_NAMES: Readonly<Record<string, string>> = CODES.relationshipNames;

/** The tables whose names are the enums of Stedi's schema (stedi-eligibility.json's x-names-of). */
export const STEDI_NAME_TABLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  communicationModes: COMMUNICATION_MODE_CODES,
  entityTypes: ENTITY_TYPE_CODES,
  followupActions: FOLLOWUP_ACTION_CODES,
  entityIdentifiers: RELATED_ENTITY_CODES,
  payerEntityCodes: PAYER_ENTITY_CODES,
  providerEntityCodes: PROVIDER_ENTITY_CODES,
};

/** A REF by the field Stedi names it: [field, REF01 qualifier, the field holding REF03 (a description)]. */
export type RefField = readonly [field: string, qualifier: string, description?: string];
const refFields = (rows: readonly (readonly string[])[]): readonly RefField[] =>
  rows.map((row) => {
    if (row.length < 2 || row.length > 3) throw new Error(`stedi-codes.json: a REF row is [field, qualifier, description?], not ${JSON.stringify(row)}`);
    return row as unknown as RefField;
  });

/** 2100C/D REF of the member loop, by `planInformation`'s names (a member's own fields use the first three). */
export const PLAN_REFS = refFields(CODES.planRefs);
/** 2110C/D REF of a benefit, by `benefitsAdditionalInformation`'s names. */
export const BENEFIT_REFS = refFields(CODES.benefitRefs);

const folded = (table: Readonly<Record<string, string>>) => new Map(Object.entries(table).map(([name, code]) => [name.toLowerCase(), code]));
const FOLDED = new WeakMap<object, Map<string, string>>();

/**
 * The code for one of Stedi's names (any case), or the value itself when it already is one of the
 * table's codes; null when it is neither (a payer's "non-compliant value": never guessed from its letters).
 */
export function codeFor(table: Readonly<Record<string, string>>, value: string): string | null {
  let map = FOLDED.get(table);
  if (!map) FOLDED.set(table, (map = folded(table)));
  const v = value.trim();
  return map.get(v.toLowerCase()) ?? (Object.values(table).includes(v) ? v : null);
}

/** Stedi's name for a code (the reverse of `codeFor`), or null. */
export function nameFor(table: Readonly<Record<string, string>>, code: string): string | null {
  return Object.entries(table).find(([, c]) => c === code)?.[0] ?? null;
}
