/**
 * The elements 45 CFR 149.610(c)(1) requires of a Good Faith Estimate given to an uninsured or
 * self-pay client, each beside the request field that carries it (docs/good-faith-estimate.md), and
 * the check that assembles a complete estimate from a request or names every element it lacks.
 * Pure: the fee schedule is a function passed in.
 */
import type { GoodFaithEstimateRequest } from '../schemas/good-faith-estimates.ts';
import { priceProvider, type PricedProvider, type FeeLookup } from './totals.ts';

/** The required elements, in the regulation's order; `cite` is the paragraph, `what` the words a refusal uses. */
export const REQUIRED_ELEMENTS = {
  client_name_and_dob: { cite: '149.610(c)(1)(i)', what: "the client's name and date of birth" },
  primary_service: { cite: '149.610(c)(1)(ii)', what: 'a plain-language description of the primary service (and its scheduled date, if any)' },
  itemized_services: { cite: '149.610(c)(1)(iii)', what: 'the itemized services expected, grouped by provider' },
  service_codes_and_charges: { cite: '149.610(c)(1)(iv)', what: 'the service code and expected charge of each service' },
  provider_identity: { cite: '149.610(c)(1)(v)', what: 'the name, NPI and TIN of each provider' },
  provider_locations: { cite: '149.610(c)(1)(v)', what: 'the state and office where each provider expects to furnish the services' },
  separate_scheduling: {
    cite: '149.610(c)(1)(vii)',
    what: 'the items expected to need separate scheduling (an empty list when none), with how to get their estimates',
  },
  notice_additional_services: { cite: '149.610(c)(1)(viii)', what: 'the notice that other services may be recommended and estimated separately' },
  notice_estimate_only: { cite: '149.610(c)(1)(ix)', what: 'the notice that this is only an estimate and actual charges may differ' },
  notice_dispute_rights: { cite: '149.610(c)(1)(x)', what: 'the notice of the right to dispute a bill $400 or more above the estimate' },
  notice_not_a_contract: {
    cite: '149.610(c)(1)(xi)',
    what: 'the notice that the estimate is not a contract and does not oblige the client to obtain the services',
  },
  scheduled_or_requested_on: { cite: '149.610(b)(1)(vi)', what: 'the day the service was scheduled or the estimate requested' },
} as const;

export type RequiredElement = keyof typeof REQUIRED_ELEMENTS;

export interface MissingElement {
  element: RequiredElement;
  /** The request field that carries it (JSON pointer-like dotted path). */
  field: string;
  message: string;
}

/** What a complete estimate holds, before it is stored with its id, version, status and dates. */
export interface GfeContent {
  client: { first_name: string; last_name: string; dob: string };
  primary_service: { description: string; scheduled_date: string | null };
  scheduled_on: string | null;
  requested_on: string | null;
  period_of_care: { start: string; end: string } | null;
  diagnosis_codes: string[];
  providers: PricedProvider[];
  total_cents: number;
  separate_scheduling: { items: { description: string; code: string | null }[]; instructions: string | null };
  notices: { additional_services: string; estimate_only: string; dispute_rights: string; not_a_contract: string };
}

export type Assembled = { ok: true; content: GfeContent } | { ok: false; missing: MissingElement[]; invalid: { field: string; message: string }[] };

const blank = (s: string | undefined | null) => s === undefined || s === null || s.trim() === '';

const NOTICE_ELEMENTS = [
  ['additional_services', 'notice_additional_services'],
  ['estimate_only', 'notice_estimate_only'],
  ['dispute_rights', 'notice_dispute_rights'],
  ['not_a_contract', 'notice_not_a_contract'],
] as const;

/** A complete estimate, priced (charges from the request, else the fee schedule), or every element it lacks. */
export function assembleGfe(req: GoodFaithEstimateRequest, fees: FeeLookup): Assembled {
  const missing: MissingElement[] = [];
  const invalid: { field: string; message: string }[] = [];
  const lack = (element: RequiredElement, field: string) => missing.push({ element, field, message: `missing ${REQUIRED_ELEMENTS[element].what}` });

  const c = req.client ?? {};
  for (const f of ['first_name', 'last_name', 'dob'] as const) if (blank(c[f])) lack('client_name_and_dob', `client.${f}`);
  if (blank(req.primary_service?.description)) lack('primary_service', 'primary_service.description');
  if (blank(req.scheduled_on) && blank(req.requested_on)) lack('scheduled_or_requested_on', 'scheduled_on');
  if (req.primary_service?.scheduled_date && blank(req.scheduled_on)) lack('scheduled_or_requested_on', 'scheduled_on');

  const inputs = [
    ...(req.convening_provider ? [{ p: req.convening_provider, role: 'convening' as const, at: 'convening_provider' }] : []),
    ...(req.co_providers ?? []).map((p, i) => ({ p, role: 'co_provider' as const, at: `co_providers[${i}]` })),
  ];
  if (!req.convening_provider) lack('provider_identity', 'convening_provider');
  const providers: PricedProvider[] = [];
  for (const { p, role, at } of inputs) {
    for (const f of ['name', 'npi', 'tin'] as const) if (blank(p[f])) lack('provider_identity', `${at}.${f}`);
    if (!p.locations || p.locations.length === 0) lack('provider_locations', `${at}.locations`);
    if (p.services.length === 0) lack('itemized_services', `${at}.services`);
    const priced = priceProvider(p, role, fees);
    for (const i of priced.unpriced) lack('service_codes_and_charges', `${at}.services[${i}].charge_cents`);
    if (priced.provider) providers.push(priced.provider);
  }

  const sep = req.separate_scheduling;
  if (!sep) lack('separate_scheduling', 'separate_scheduling');
  else if (sep.items.length > 0 && blank(sep.instructions)) lack('separate_scheduling', 'separate_scheduling.instructions');
  const n = req.notices ?? {};
  for (const [field, element] of NOTICE_ELEMENTS) if (blank(n[field])) lack(element, `notices.${field}`);

  const sched = req.primary_service?.scheduled_date;
  if (sched && req.scheduled_on && req.scheduled_on > sched) invalid.push({ field: 'scheduled_on', message: 'is after primary_service.scheduled_date' });
  const period = req.period_of_care;
  if (period && period.start > period.end) invalid.push({ field: 'period_of_care.end', message: 'is before period_of_care.start' });
  // One estimate may cover a recurring course for up to 12 months; a longer one needs a new estimate.
  if (period && period.end >= nextYearSameDay(period.start)) invalid.push({ field: 'period_of_care.end', message: 'a period of care is at most 12 months' });

  if (missing.length > 0 || invalid.length > 0) return { ok: false, missing, invalid };
  return {
    ok: true,
    content: {
      client: { first_name: c.first_name!, last_name: c.last_name!, dob: c.dob! },
      primary_service: { description: req.primary_service!.description!, scheduled_date: sched ?? null },
      scheduled_on: req.scheduled_on ?? null,
      requested_on: req.requested_on ?? null,
      period_of_care: period ?? null,
      diagnosis_codes: req.diagnosis_codes ?? [],
      providers,
      total_cents: providers.reduce((s, p) => s + p.total_cents, 0),
      separate_scheduling: { items: sep!.items.map((i) => ({ description: i.description, code: i.code ?? null })), instructions: sep!.instructions ?? null },
      notices: {
        additional_services: n.additional_services!,
        estimate_only: n.estimate_only!,
        dispute_rights: n.dispute_rights!,
        not_a_contract: n.not_a_contract!,
      },
    },
  };
}

function nextYearSameDay(iso: string): string {
  return `${String(Number(iso.slice(0, 4)) + 1).padStart(4, '0')}${iso.slice(4)}`;
}

/** The refusal's sentence: each missing element once, in the regulation's order. */
export function missingSentence(missing: readonly MissingElement[]): string {
  const elements = [...new Set(missing.map((m) => m.element))];
  const order = Object.keys(REQUIRED_ELEMENTS);
  elements.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return `The Good Faith Estimate lacks what 45 CFR 149.610 requires: ${elements.map((e) => `${REQUIRED_ELEMENTS[e].what} (${e})`).join('; ')}`;
}
