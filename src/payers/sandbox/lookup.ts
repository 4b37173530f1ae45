/**
 * Finds who a 270 asks about in the sandbox catalog (docs/interface.md 1.1 and section 7): by member ID,
 * then by the generated-ID suffix rule, then by first name + last name + DOB, case-insensitively.
 */
import type { Inquiry } from '../../domain/inquiry.ts';
import type { Catalog, CatalogMember, CatalogPerson, ScenarioAnswer, SuffixScenario } from '../../sandbox/catalog.ts';
import type { PlanOverrides } from '../../sandbox/catalog-schema.ts';

export interface SandboxHit {
  /** The payer that answers. */
  payer_id: string;
  plan: string;
  overrides: CatalogMember['overrides'];
  answer: ScenarioAnswer;
  member_id: string;
  /** The payer's record of the member. */
  person: CatalogPerson;
  subscriber: (CatalogPerson & { member_id: string }) | null;
  relationship: CatalogMember['relationship'];
  address: CatalogMember['address'];
  scenario: string;
}

const SUFFIX_ID = /^(\d+)MH([A-Z]+)$/;
const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.trim().toUpperCase() === b.trim().toUpperCase();

function parseGeneratedId(memberId: string): { prefix: string; suffix: string } | null {
  const m = SUFFIX_ID.exec(memberId.toUpperCase());
  return m ? { prefix: m[1]!, suffix: m[2]! } : null;
}

function pickByPrefix<T>(value: T | { byPrefix: Record<string, T> }, prefix: string): T {
  if (typeof value === 'object' && value !== null && 'byPrefix' in value) {
    const table = value.byPrefix;
    return table[prefix[0]!] ?? Object.values(table)[0]!;
  }
  return value;
}

function suffixAnswer(s: SuffixScenario, prefix: string): ScenarioAnswer {
  return s.answer ? pickByPrefix(s.answer, prefix) : { kind: 'coverage' };
}

function fromMember(m: CatalogMember, payerId: string, plan: string, answer: ScenarioAnswer): SandboxHit {
  return {
    payer_id: payerId,
    plan,
    overrides: m.overrides,
    answer,
    member_id: m.member_id,
    person: { ...m.person, ...m.payer_record },
    subscriber: m.subscriber ?? null,
    relationship: m.relationship,
    address: m.address,
    scenario: m.scenario,
  };
}

type Scoped = readonly { member: CatalogMember; plan: string }[];
const scopes = new WeakMap<Catalog, Map<string, Scoped>>();

/** Which catalog members this payer knows, and with which plan it answers: worked out once per catalog and payer. */
function scopedMembers(catalog: Catalog, payerId: string, administratorPlan: string | undefined, anyPayer: boolean, medicaidState: string | null): Scoped {
  let byPayer = scopes.get(catalog);
  if (!byPayer) scopes.set(catalog, (byPayer = new Map<string, Scoped>()));
  const known = byPayer.get(payerId);
  if (known) return known;
  const scoped: { member: CatalogMember; plan: string }[] = [];
  for (const member of catalog.members) {
    if (administratorPlan) {
      const handedTo = catalog.plans[member.plan]?.third_party_payer?.payer_id;
      if (handedTo === payerId) scoped.push({ member, plan: administratorPlan });
    } else if (anyPayer || member.payer_id === payerId || (medicaidState !== null && member.patient_state === medicaidState)) {
      scoped.push({ member, plan: member.plan });
    }
  }
  // Bounded: a payer ID is whatever the 270 names.
  if (byPayer.size < 1000) byPayer.set(payerId, scoped);
  return scoped;
}

const brandOf = (catalog: Catalog, payerId: string) => {
  const payer = catalog.payers.find((p) => p.payer_id === payerId);
  return payer && payer.medicaid_state === null ? payer.name.split(' ')[0]! : null;
};
const rebranded = new WeakMap<SuffixScenario, Map<string, PlanOverrides | undefined>>();

/**
 * A generated ID asked of a payer other than its scenario's own is that payer's member: the plan
 * keeps its benefits but carries the asking payer's brand ("Evergreen Choice PPO" at Harbor is
 * "Harbor Choice PPO"), never another payer's name. One overrides object per scenario and payer,
 * so the resolved plan is still shared (resolve-plan.ts keys its cache on it).
 */
function overridesAt(catalog: Catalog, scenario: SuffixScenario, payerId: string): PlanOverrides | undefined {
  const own = catalog.defaultSuffixPayer[scenario.suffix] ?? catalog.defaultPayerId;
  if (payerId === own) return scenario.overrides;
  let byPayer = rebranded.get(scenario);
  if (!byPayer) rebranded.set(scenario, (byPayer = new Map<string, PlanOverrides | undefined>()));
  if (byPayer.has(payerId)) return byPayer.get(payerId);
  const name = (scenario.overrides?.plan_name ?? catalog.plans[scenario.plan]?.plan_name) || null;
  const [ownBrand, brand] = [brandOf(catalog, own), brandOf(catalog, payerId)];
  // A program's plan (Medicare, a state's Medicaid) carries no brand: the asking payer's goes in front.
  const renamed =
    !name || !brand ? null : ownBrand && name.startsWith(`${ownBrand} `) ? `${brand}${name.slice(ownBrand.length)}` : ownBrand ? null : `${brand} ${name}`;
  const overrides = renamed ? { ...scenario.overrides, plan_name: renamed } : scenario.overrides;
  // Bounded like scopes: a payer ID is whatever the 270 names.
  if (byPayer.size < 1000) byPayer.set(payerId, overrides);
  return overrides;
}

export function lookup(catalog: Catalog, payerId: string, inquiry: Inquiry): SandboxHit | null {
  const who = inquiry.dependent ?? inquiry.subscriber;
  const memberId = inquiry.subscriber.member_id ?? who.member_id;
  const administratorPlan = catalog.administratorPlans[payerId];
  const anyPayer = payerId === catalog.anyPayerId;
  // A state Medicaid program also knows the members of the managed-care plans it contracts.
  const medicaidState = catalog.payers.find((p) => p.payer_id === payerId)?.medicaid_state ?? null;

  const scoped = scopedMembers(catalog, payerId, administratorPlan, anyPayer, medicaidState);
  const hitOf = ({ member, plan }: Scoped[number]) =>
    fromMember(
      member,
      anyPayer || medicaidState ? member.payer_id : payerId,
      plan,
      administratorPlan ? { kind: 'coverage' } : (member.answer ?? { kind: 'coverage' }),
    );

  if (memberId) {
    const exact = scoped.find((s) => same(s.member.member_id, memberId));
    if (exact) return hitOf(exact);
    // A named member's ID asked of another payer is not that payer's member, whatever its suffix.
    if (!administratorPlan && catalog.members.some((m) => same(m.member_id, memberId))) return null;
    const generated = parseGeneratedId(memberId);
    const scenario = generated && catalog.suffixes.find((s) => s.suffix === generated.suffix);
    if (generated && scenario) {
      const handedTo = catalog.plans[scenario.plan]?.third_party_payer?.payer_id;
      if (administratorPlan && handedTo !== payerId) return null;
      return {
        payer_id: anyPayer ? (catalog.defaultSuffixPayer[scenario.suffix] ?? catalog.defaultPayerId) : payerId,
        plan: administratorPlan ?? scenario.plan,
        overrides: administratorPlan ? undefined : anyPayer ? scenario.overrides : overridesAt(catalog, scenario, payerId),
        answer: administratorPlan ? { kind: 'coverage' } : suffixAnswer(scenario, generated.prefix),
        member_id: memberId.toUpperCase(),
        person: { first_name: who.first_name ?? '', last_name: who.last_name ?? '', dob: who.dob ?? '', gender: 'U' },
        subscriber: null,
        relationship: 'self',
        address: { street_line_1: '1 SANDBOX PLZ', street_line_2: null, city: 'NEW YORK', state: 'NY', zip: '10001' },
        scenario: scenario.scenario,
      };
    }
  }
  const byName = scoped.find(
    (s) => same(s.member.person.first_name, who.first_name) && same(s.member.person.last_name, who.last_name) && s.member.person.dob === who.dob,
  );
  return byName ? hitOf(byName) : null;
}
