/**
 * When a Good Faith Estimate is due (45 CFR 149.610(b)(1)(vi) and (vii)), in business days
 * (business-days.ts): scheduled at least 10 business days ahead, 3 business days after scheduling;
 * at least 3, 1 business day after; asked for without scheduling, 3 after the request; a new version
 * (a change of what is expected), 1 business day before the service. Scheduled less than 3 business
 * days ahead, the regulation sets no deadline: `date` is null and the rule says why.
 */
import { addBusinessDays, businessDaysAhead, subtractBusinessDays } from './business-days.ts';
import type { DUE_RULES } from '../schemas/good-faith-estimates.ts';

export interface DueInput {
  /** The day the service was scheduled. */
  scheduled_on: string | null;
  /** The day the client asked for an estimate. */
  requested_on: string | null;
  /** The day the primary service is scheduled for. */
  service_date: string | null;
  /** 1 for the first estimate; a later version replaces one after a change. */
  version: number;
}

export interface Due {
  date: string | null;
  rule: (typeof DUE_RULES)[number];
  lead_business_days: number | null;
}

export function dueDate(input: DueInput): Due {
  const lead = input.scheduled_on && input.service_date ? businessDaysAhead(input.scheduled_on, input.service_date) : null;
  if (input.version > 1 && input.service_date)
    return { date: subtractBusinessDays(input.service_date, 1), rule: 'changed_before_service', lead_business_days: lead };
  if (input.scheduled_on && lead !== null) {
    if (lead >= 10) return { date: addBusinessDays(input.scheduled_on, 3), rule: 'scheduled_10_or_more_business_days', lead_business_days: lead };
    if (lead >= 3) return { date: addBusinessDays(input.scheduled_on, 1), rule: 'scheduled_3_to_9_business_days', lead_business_days: lead };
    return { date: null, rule: 'scheduled_under_3_business_days', lead_business_days: lead };
  }
  const asked = input.requested_on ?? input.scheduled_on;
  return { date: asked ? addBusinessDays(asked, 3) : null, rule: 'requested', lead_business_days: lead };
}

/** A draft is overdue once its due date has passed (given on the due date is on time). */
export const isOverdue = (status: string, due: string | null, today: string): boolean => status === 'draft' && due !== null && due < today;
