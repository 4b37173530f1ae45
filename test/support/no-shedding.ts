/**
 * Load shedding answers 503 when the event loop lags: on a busy CI machine a suite's first request
 * can lag for reasons of its neighbours, not its own. Servers started by tests shed nothing unless
 * the test is about shedding (test/security/overload.test.ts).
 */
export const NO_SHEDDING = { COVERAGE_MAX_EVENT_LOOP_DELAY_MS: '0', COVERAGE_MAX_HEAP_USED_MB: '0' };
