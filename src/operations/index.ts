export { runEstimate, type OperationResult } from './estimate.ts';
export { runDiscover } from './discover.ts';
export { runScan } from './scan.ts';
export { runMedicaid } from './medicaid.ts';
export type { OperationDeps, CallContext } from './context.ts';
