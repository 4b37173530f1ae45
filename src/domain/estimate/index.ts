/** The cost-estimate engine: pure functions over normalized Coverage (docs/estimates.md). */
export { benefitAlerts, DEFAULT_SESSION_COST_FLOOR_CENTS, sessionCostAlert } from './alerts.ts';
export { obligationSteps } from './explain.ts';
export {
  benefitsFor,
  estimate,
  gateOf,
  isQmb,
  paysWholeSession,
  planFacts,
  type Gate,
  type EstimateInput,
  type EstimateOutcome,
  type EstimatePartial,
} from './estimate.ts';
export { classifyBenefitStructure, costShareKnown, deductibleApplies, type StructureInput } from './benefit-structure.ts';
export { bindingRemaining, accumulatorFields, type AccumulatorFields, type AccumulatorPair } from './accumulators.ts';
export { memberObligation, phaseSplits, shareOn, toCostShareRule, type CostShareRule, type PlanFacts, type Split } from './obligation.ts';
export { sessionsBeforeDeductible, sessionsBeforeOopMax } from './sessions.ts';
export type { BenefitStructure } from '../schemas/responses.ts';
export { courseOfCare, pastPlanYear, type CourseInput } from './course.ts';
export { courseSessions, encounterKey, COURSE_MAX_SESSIONS, COURSE_MAX_SPAN_DAYS, type CourseSession } from './course-sessions.ts';
