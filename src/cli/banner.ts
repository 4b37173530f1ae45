/**
 * The "where to go and what to try" part of the start banner: the console, the docs, and a curl
 * call that works on this server. In production the call names a payer of the configured
 * directory (there is no "any payer") and no sandbox page is mentioned.
 */
import type { PayerInfo } from '../payers/network.ts';
import type { Mode } from '../domain/mode.ts';

/** The README's sample patient: a catalog member, so the sandbox and the payer simulator both know her. */
const SAMPLE = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
  in_network: true,
};
const SAMPLE_PAYER = 'SBX-EVERGREEN';

/** A commercial payer to show: the sample's own when the directory has it, else the first that is not a Medicaid program or an administrator. */
export function bannerPayer(payers: readonly PayerInfo[]): PayerInfo | undefined {
  const administrators = new Set(payers.flatMap((p) => p.carve_out_administrators ?? []));
  return payers.find((p) => p.payer_id === SAMPLE_PAYER) ?? payers.find((p) => p.medicaid_state === null && !administrators.has(p.payer_id)) ?? payers[0];
}

export function bannerGuide(opts: { base: string; key: string; mode: Mode; payers: readonly PayerInfo[] }): string[] {
  const { base, key, mode } = opts;
  const header = `-H 'apikey: ${key}'`;
  const lines = [`Console:  ${base}/console/`, `API docs: ${base}/docs   (OpenAPI: ${base}/openapi.json)`, ''];
  const payer = mode === 'production' ? bannerPayer(opts.payers) : undefined;
  if (mode === 'production' && !payer) {
    return [...lines, 'No payers are configured: COVERAGE_PAYERS names the payer directory (docs/payer-directory.md).', ''];
  }
  const body = payer ? { payer_id: payer.payer_id, ...SAMPLE } : SAMPLE;
  lines.push(
    payer ? `Try it (payer ${payer.payer_id} of COVERAGE_PAYERS; the sample patient is the payer simulator's, use your own with a real payer):` : 'Try it:',
    `  curl -sS ${base}/v1/estimate ${header} -H 'content-type: application/json' \\`,
    `    -d '${JSON.stringify(body)}'`,
    '',
  );
  lines.push(mode === 'sandbox' ? `Sandbox members: curl -sS ${base}/v1/sandbox/members ${header}` : `Payers: curl -sS ${base}/v1/payers ${header}`, '');
  return lines;
}
