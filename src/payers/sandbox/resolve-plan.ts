/** Turns a catalog plan template, a member's overrides and the clock into a concrete plan. */
import type { IsoDate } from '../../domain/coverage.ts';
import type { CatalogPlan, PlanOverrides } from '../../sandbox/catalog-schema.ts';

const DAY_MS = 86_400_000;

function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Resolves "@today+N", "@today-N", "@year_start", "@year_end", "@last_year_start", "@next_year_start". */
export function resolveDateToken(token: string, today: IsoDate): string {
  if (!token.startsWith('@')) return token;
  const year = Number(today.slice(0, 4));
  const rel = /^@today([+-]\d+)?$/.exec(token);
  if (rel) return addDays(today, rel[1] ? Number(rel[1]) : 0);
  switch (token) {
    case '@year_start':
      return `${year}-01-01`;
    case '@year_end':
      return `${year}-12-31`;
    case '@last_year_start':
      return `${year - 1}-01-01`;
    case '@next_year_start':
      return `${year + 1}-01-01`;
    default:
      throw new Error(`unknown date token ${token} in the sandbox catalog`);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays, scalars and null replace. */
function deepMerge<T>(base: T, overrides: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(overrides)) return (overrides === undefined ? base : overrides) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) continue;
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k], v) : v;
  }
  return out as T;
}

function resolveTokens<T>(value: T, today: IsoDate): T {
  if (typeof value === 'string') return resolveDateToken(value, today) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => resolveTokens(v, today)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveTokens(v, today);
    return out as T;
  }
  return value;
}

function resolvePlan(template: CatalogPlan, overrides: PlanOverrides | undefined, today: IsoDate): CatalogPlan {
  return resolveTokens(deepMerge(template, overrides), today);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const resolved = new WeakMap<CatalogPlan, Map<PlanOverrides | undefined, { today: IsoDate; plan: CatalogPlan }>>();

/**
 * resolvePlan, worked out once per template, overrides and day and then shared, frozen: the
 * catalog does not change while the process runs, and every answer only reads the plan.
 */
export function sharedPlan(template: CatalogPlan, overrides: PlanOverrides | undefined, today: IsoDate): CatalogPlan {
  let byOverrides = resolved.get(template);
  if (!byOverrides) resolved.set(template, (byOverrides = new Map<PlanOverrides | undefined, { today: IsoDate; plan: CatalogPlan }>()));
  const hit = byOverrides.get(overrides);
  if (hit && hit.today === today) return hit.plan;
  const plan = deepFreeze(resolvePlan(template, overrides, today));
  byOverrides.set(overrides, { today, plan });
  return plan;
}
