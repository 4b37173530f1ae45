/**
 * The plan's benefits as CoverageEligibilityResponse.insurance.item: one item per network (in, out)
 * and unit (individual, family), category MH (X12 service type code, HL7's ex-benefitcategory
 * system), term annual. `used` is the total less what is left; an amount the payer did not report is
 * left out, never 0 (docs/fhir.md#benefits).
 */
import type { CoverageEligibilityResponseInsuranceItem as Item, CoverageEligibilityResponseInsuranceItemBenefit as Benefit } from '@medplum/fhirtypes';
import type { Accumulator, Coverage, NetworkBenefits } from '../domain/coverage.ts';
import { centsToMoney } from './money.ts';
import { CS, MENTAL_HEALTH_CATEGORY } from './systems.ts';

const concept = (system: string, code: string, display: string) => ({ coding: [{ system, code, display }] });
const TYPE = {
  copay: concept(CS.hl7BenefitType, 'copay', 'Copayment per service'),
  copayPercent: concept(CS.hl7BenefitType, 'copay-percent', 'Copayment Percent per service'),
  deductible: concept(CS.hl7BenefitType, 'deductible', 'Deductible'),
  visit: concept(CS.hl7BenefitType, 'visit', 'Visit'),
  oopMax: concept(CS.benefitType, 'out-of-pocket-maximum', 'Out-of-pocket maximum'),
};
const NETWORK = { in: concept(CS.hl7BenefitNetwork, 'in', 'In Network'), out: concept(CS.hl7BenefitNetwork, 'out', 'Out of Network') };
const UNIT = { individual: concept(CS.hl7BenefitUnit, 'individual', 'Individual'), family: concept(CS.hl7BenefitUnit, 'family', 'Family') };
const ANNUAL = concept(CS.hl7BenefitTerm, 'annual', 'Annual');

/** allowedMoney and usedMoney of an accumulator, with whatever of them is known. */
function moneyBenefit(type: Benefit['type'], acc: Accumulator): Benefit | null {
  if (acc.total === null) return null;
  const used = acc.remaining === null ? null : Math.max(0, acc.total - acc.remaining);
  return { type, allowedMoney: centsToMoney(acc.total), ...(used === null ? {} : { usedMoney: centsToMoney(used) }) };
}

function coinsurance(percent: number): Benefit {
  // unsignedInt holds whole percent points; a fractional percentage is kept exactly as text.
  return Number.isInteger(percent) && percent >= 0
    ? { type: TYPE.copayPercent, allowedUnsignedInt: percent }
    : { type: TYPE.copayPercent, allowedString: String(percent) };
}

function individual(b: NetworkBenefits): Benefit[] {
  const out: (Benefit | null)[] = [
    b.copayment === null ? null : { type: TYPE.copay, allowedMoney: centsToMoney(b.copayment) },
    b.coinsurance === null ? null : coinsurance(b.coinsurance),
    b.deductible ? moneyBenefit(TYPE.deductible, b.deductible.individual) : null,
    b.oop_max ? moneyBenefit(TYPE.oopMax, b.oop_max.individual) : null,
  ];
  const visits = b.visit_limit;
  if (visits && visits.total !== null) {
    const used = visits.remaining === null ? null : Math.max(0, visits.total - visits.remaining);
    out.push({ type: TYPE.visit, allowedUnsignedInt: visits.total, ...(used === null ? {} : { usedUnsignedInt: used }) });
  }
  return out.filter((x): x is Benefit => x !== null);
}

function family(b: NetworkBenefits): Benefit[] {
  return [b.deductible ? moneyBenefit(TYPE.deductible, b.deductible.family) : null, b.oop_max ? moneyBenefit(TYPE.oopMax, b.oop_max.family) : null].filter(
    (x): x is Benefit => x !== null,
  );
}

function networkItems(b: NetworkBenefits | null, network: 'in' | 'out'): Item[] {
  if (!b) return [];
  const base = {
    category: concept(MENTAL_HEALTH_CATEGORY.system, MENTAL_HEALTH_CATEGORY.code, MENTAL_HEALTH_CATEGORY.display),
    network: NETWORK[network],
    term: ANNUAL,
  };
  const items: Item[] = [];
  const mine = individual(b);
  items.push({
    ...base,
    unit: UNIT.individual,
    ...(b.not_covered ? { excluded: true } : {}),
    ...(mine.length > 0 ? { benefit: mine } : {}),
    ...(b.prior_authorization_required !== undefined ? { authorizationRequired: b.prior_authorization_required } : {}),
  });
  const theirs = family(b);
  if (theirs.length > 0) items.push({ ...base, unit: UNIT.family, benefit: theirs });
  return items;
}

/** The items of a coverage: in network first, then out of network. */
export function benefitItems(coverage: Coverage): Item[] {
  return [...networkItems(coverage.in_network, 'in'), ...networkItems(coverage.out_of_network, 'out')];
}
