/** The sandbox scenario catalog: payers, plan templates, named members and member-ID suffix scenarios. */
import { MEMBERS } from './members.ts';
import { ADMINISTRATOR_PLANS, ANY_PAYER_ID, DEFAULT_PAYER_ID, DEFAULT_SUFFIX_PAYER, SANDBOX_PAYERS } from './payers.ts';
import { PLANS } from './plans.ts';
import { SUFFIX_SCENARIOS } from './suffixes.ts';

export const CATALOG = {
  payers: SANDBOX_PAYERS,
  plans: PLANS,
  members: MEMBERS,
  suffixes: SUFFIX_SCENARIOS,
  administratorPlans: ADMINISTRATOR_PLANS,
  defaultSuffixPayer: DEFAULT_SUFFIX_PAYER,
  defaultPayerId: DEFAULT_PAYER_ID,
  anyPayerId: ANY_PAYER_ID,
} as const;

export type Catalog = typeof CATALOG;
export * from './catalog-types.ts';
