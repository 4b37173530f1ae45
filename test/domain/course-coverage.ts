/** Coverages and sessions the course-of-care tests price (test/domain/course-*.test.ts). */
import type { Accumulator, Coverage, NetworkBenefits } from '../../src/domain/coverage.ts';
import { addDays, type CourseSession } from '../../src/domain/estimate/course-sessions.ts';

export const acc = (total: number | null, remaining: number | null): Accumulator => ({ total, remaining });
export const NONE = acc(null, null);

export function coverage(inNet: NetworkBenefits | null, extra: Partial<Coverage> = {}): Coverage {
  const person = { first_name: 'A', last_name: 'B', member_id: '1MHNA', gender: 'U' as const, dob: '1990-01-01', address: null };
  return {
    payer_id: 'P',
    payer_name: 'P',
    plan_name: null,
    plan_type: null,
    insurance_type: 'commercial',
    group_name: null,
    group_id: null,
    plan_begin_date: '2026-01-01',
    plan_end_date: '2026-12-31',
    eligibility_end_date: null,
    coverage_status: 'active',
    mental_health_coverage: 'active',
    in_network: inNet,
    out_of_network: null,
    telehealth: null,
    pcp: null,
    third_party_payer: null,
    utilization_manager: null,
    additional_policies: [],
    is_marketplace: false,
    is_bluecard: false,
    is_hdhp: false,
    member: person,
    subscriber: person,
    relationship_to_subscriber: 'self',
    payer_corrected_demographics: false,
    next_plan_year: null,
    messages: [],
    ...extra,
  };
}

/** `n` office sessions of cost C from `first`, `every` days apart. */
export function weekly(first: string, n: number, C: number, every = 7): CourseSession[] {
  return Array.from({ length: n }, (_, i) => ({ date_of_service: addDays(first, i * every), procedure_code: null, place_of_service: '11', session_cost: C }));
}

/** The key the office encounter's coverage is read under. */
export const OFFICE = '@11';
