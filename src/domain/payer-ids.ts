/**
 * What a payer's IDs and eligibility mean wherever payers are merged: the case-insensitive index of
 * payer IDs, aliases and connections' own payer IDs behind every `payer_id` a caller sends (the
 * production network) and behind `coverage payers import` finding the payer a record belongs to;
 * and a payer's eligibility as its routes give it.
 */

export type Eligibility = 'supported' | 'enrollment_required' | 'not_supported';

/** A payer takes inquiries if any route does: supported over enrollment_required over not_supported; undefined without routes. */
export function effectiveEligibility(routes: readonly Eligibility[]): Eligibility | undefined {
  if (routes.length === 0) return undefined;
  if (routes.includes('supported')) return 'supported';
  return routes.includes('enrollment_required') ? 'enrollment_required' : 'not_supported';
}

/** Upper-cased IDs to the payer_ids they name, in the order they were added: the first one added is the one the ID names. */
export class PayerIdIndex {
  private readonly owners = new Map<string, string[]>();

  /** Records that `id` names `payerId`; returns whether `payerId` is now the payer it names (it was free or already this payer's). */
  add(id: string, payerId: string): boolean {
    const key = id.toUpperCase();
    const list = this.owners.get(key);
    if (!list) {
      this.owners.set(key, [payerId]);
      return true;
    }
    if (!list.includes(payerId)) list.push(payerId);
    return list[0] === payerId;
  }

  has(id: string): boolean {
    return this.owners.has(id.toUpperCase());
  }

  /** The payer_id `id` names (any case), or undefined. */
  get(id: string): string | undefined {
    return this.owners.get(id.toUpperCase())?.[0];
  }

  /** Every payer_id that `id` was added for (any case). */
  all(id: string): readonly string[] {
    return this.owners.get(id.toUpperCase()) ?? [];
  }
}
