// A worker thread's entry when the service runs from its TypeScript sources (through tsx, as the tests
// and `npm run coverage` in a checkout without dist/ do): worker threads do not inherit tsx's loader,
// so this registers it and then imports the TypeScript module named in workerData.entry. dist/ and
// the bundle start the compiled module directly (operations/remittance/reader.ts).
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
