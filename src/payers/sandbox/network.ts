/**
 * The sandbox payer network: answers each 270 with a 271 generated from the scenario catalog,
 * in process, so sandbox responses take the same X12 road as production ones.
 */
import type { Coverage, IsoDate, Person } from '../../domain/coverage.ts';
import { benefitSegments, build271, parse270, type PayerAnswer } from '../../x12/index.ts';
import { CATALOG, type Catalog } from '../../sandbox/catalog.ts';
import { PayerError, type InterchangeIds, type PayerInfo, type PayerNetwork, type ProviderName } from '../network.ts';
import { lookup, type SandboxHit } from './lookup.ts';
import type { CatalogPlan } from '../../sandbox/catalog-schema.ts';
import { deepFreeze, sharedPlan } from './resolve-plan.ts';
import type { Clock } from '../../domain/clock.ts';

export interface SandboxNetworkOptions {
  catalog?: Catalog;
  clock: Pick<Clock, 'today'>;
}

type CoverageAnswer = Extract<PayerAnswer, { kind: 'coverage' }>;

/** Answers already built, per shared plan, by who the answer is about (cleared past a bound: generated member IDs are endless). */
const built = new WeakMap<object, Map<string, CoverageAnswer>>();
const MAX_BUILT_PER_PLAN = 1000;

/**
 * The sandbox's answer for a member it covers. The same member on the same day gets the same deeply
 * frozen Coverage, with its EB loops written once (they are most of a 271's writing).
 */
export function coverageAnswer(catalog: Catalog, hit: SandboxHit, today: IsoDate): CoverageAnswer {
  const template = catalog.plans[hit.plan];
  if (!template) throw new Error(`sandbox catalog: unknown plan ${hit.plan}`);
  const plan = sharedPlan(template, hit.overrides, today);
  let byWho = built.get(plan);
  if (!byWho) built.set(plan, (byWho = new Map<string, CoverageAnswer>()));
  const who = JSON.stringify([hit.payer_id, hit.member_id, hit.person, hit.subscriber, hit.relationship, hit.address]);
  const known = byWho.get(who);
  if (known) return known;
  if (byWho.size >= MAX_BUILT_PER_PLAN) byWho.clear();
  const coverage = deepFreeze(structuredClone(buildCoverage(catalog, hit, plan)));
  const answer: CoverageAnswer = { kind: 'coverage', coverage, benefits: benefitSegments(coverage) };
  byWho.set(who, answer);
  return answer;
}

/** The Coverage the sandbox answers with (coverageAnswer's). */
export const coverageFor = (catalog: Catalog, hit: SandboxHit, today: IsoDate): Coverage => coverageAnswer(catalog, hit, today).coverage;

function buildCoverage(catalog: Catalog, hit: SandboxHit, plan: CatalogPlan): Coverage {
  const payer = catalog.payers.find((p) => p.payer_id === hit.payer_id);
  const member: Person = {
    first_name: hit.person.first_name || null,
    last_name: hit.person.last_name || null,
    member_id: hit.member_id,
    gender: hit.person.gender,
    dob: hit.person.dob || null,
    address: hit.address,
  };
  const subscriber: Person = hit.subscriber
    ? {
        first_name: hit.subscriber.first_name,
        last_name: hit.subscriber.last_name,
        member_id: hit.subscriber.member_id,
        gender: hit.subscriber.gender,
        dob: hit.subscriber.dob,
        address: hit.address,
      }
    : member;
  return {
    ...plan,
    payer_id: hit.payer_id,
    payer_name: payer?.name ?? hit.payer_id,
    member,
    subscriber,
    relationship_to_subscriber: hit.relationship,
  };
}

export class SandboxNetwork implements PayerNetwork {
  readonly mode = 'sandbox' as const;
  readonly anyPayerId: string;
  private readonly catalog: Catalog;
  private readonly byId: Map<string, PayerInfo>;

  constructor(private readonly options: SandboxNetworkOptions) {
    this.catalog = options.catalog ?? CATALOG;
    this.anyPayerId = this.catalog.anyPayerId;
    this.byId = new Map(
      this.catalog.payers.map((p) => [
        p.payer_id,
        {
          ...p,
          carve_out_administrators: Object.keys(this.catalog.administratorPlans),
        },
      ]),
    );
  }

  payers(): readonly PayerInfo[] {
    return [...this.byId.values()];
  }

  payer(payerId: string): PayerInfo | undefined {
    return this.byId.get(payerId);
  }

  async exchange(payerId: string, x12: string): Promise<string> {
    const parsed = parse270(x12);
    if (!parsed.ok) throw new PayerError('protocol', payerId, `sandbox could not read the 270: ${parsed.error.message}`);
    const inquiry = parsed.value;
    const hit = lookup(this.catalog, payerId, inquiry);
    let answer: PayerAnswer;
    if (!hit) {
      answer = { kind: 'reject', level: inquiry.dependent ? 'dependent' : 'subscriber', reason_code: '75', followup: 'C' };
    } else if (hit.answer.kind === 'fault') {
      throw hit.answer.fault === 'throttled'
        ? new PayerError('throttled', hit.payer_id, 'payer throttled the request', 60)
        : new PayerError('failure', hit.payer_id, 'payer endpoint failed');
    } else if (hit.answer.kind === 'reject') {
      answer = { kind: 'reject', level: hit.answer.level, reason_code: hit.answer.reason_code, followup: hit.answer.followup };
    } else {
      answer = coverageAnswer(this.catalog, hit, this.options.clock.today());
    }
    return build271(inquiry, answer);
  }

  /** The sandbox knows no directory providers and no practice name: a request names its provider. */
  providerName(): ProviderName | null {
    return null;
  }

  /** The sandbox's payers have no aliases. */
  canonicalId(): string | undefined {
    return undefined;
  }

  /** The X12 writer's test identities. */
  interchange(): InterchangeIds | undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}
