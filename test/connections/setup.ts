/** The service in production mode on a directory object (written to a temporary file), vendor simulators' secrets set to `sim`. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/domain/clock.ts';
import type { PayerDirectory } from '../../src/payers/directory.ts';
import { SIM_SECRET_ENVS } from '../../src/payers/simulator/vendors/directory.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

export async function serveDirectory(directory: PayerDirectory, env: Record<string, string> = {}, payerClock?: Clock): Promise<TestServer> {
  for (const name of SIM_SECRET_ENVS) process.env[name] = 'sim';
  const dir = mkdtempSync(join(tmpdir(), 'coverage-conn-'));
  const file = join(dir, 'payers.json');
  writeFileSync(file, JSON.stringify(directory));
  const server = await startTestServer({
    env: { COVERAGE_MODE: 'production', COVERAGE_PAYERS: file, COVERAGE_CACHE_TTL_MS: '0', ...env },
    ...(payerClock ? { payerClock } : {}),
  });
  return {
    ...server,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stedi's documented provider NPI (passes the Luhn check). */
export const STEDI_DOC_NPI = '1999999984';

export const estimateFor = (payer_id: string, member_id: string, first: string, last: string, dob: string) => ({
  member_id,
  member_first_name: first,
  member_last_name: last,
  member_dob: dob,
  payer_id,
  provider_npi: STEDI_DOC_NPI,
  provider_session_cost: '15000',
});
