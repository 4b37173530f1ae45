/**
 * Finds the resources a CoverageEligibilityRequest points at: contained in it (`#id`), or beside it
 * in the Bundle that carried it (by `fullUrl`, or `Type/id`). Nothing is fetched from elsewhere.
 */
import type { Bundle, CoverageEligibilityRequest, Reference, Resource } from '@medplum/fhirtypes';

export type ResourceOf<T extends Resource['resourceType']> = Extract<Resource, { resourceType: T }>;

export interface Resolver {
  /** The resource a reference names, when it is contained or bundled and of one of the types. */
  resolve<T extends Resource['resourceType']>(ref: Reference | undefined, types: readonly T[]): ResourceOf<T> | undefined;
}

/** A resolver for one request: its contained resources, then the other entries of its Bundle. */
export function resolverFor(request: CoverageEligibilityRequest, bundle?: Bundle): Resolver {
  const byUrl = new Map<string, Resource>();
  for (const entry of bundle?.entry ?? []) {
    const r = entry.resource;
    if (!r) continue;
    if (entry.fullUrl) byUrl.set(entry.fullUrl, r);
    if (r.id) byUrl.set(`${r.resourceType}/${r.id}`, r);
  }
  const contained = new Map<string, Resource>((request.contained ?? []).filter((r) => r.id).map((r) => [r.id!, r]));
  return {
    resolve<T extends Resource['resourceType']>(ref: Reference | undefined, types: readonly T[]) {
      const target = ref?.reference;
      if (!target) return undefined;
      const found = target.startsWith('#') ? contained.get(target.slice(1)) : byUrl.get(target);
      return found && (types as readonly string[]).includes(found.resourceType) ? (found as ResourceOf<T>) : undefined;
    },
  };
}
