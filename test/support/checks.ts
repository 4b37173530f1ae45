/** Check requests the tests send: a known sandbox member, over HTTP or through inject. */
export const AVERY_ESTIMATE = {
  member_id: '10010MHNA',
  member_first_name: 'Avery',
  member_last_name: 'Walsh',
  member_dob: '1988-03-14',
  provider_npi: '1234567893',
  provider_session_cost: '15000',
  in_network: true,
};

export interface CheckResponse {
  status: number;
  requestId: string | null;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postCheck(baseUrl: string, apikey: string, body: unknown = AVERY_ESTIMATE, path = '/v1/estimate'): Promise<CheckResponse> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { apikey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, requestId: res.headers.get('x-request-id'), headers: res.headers, body: parsed };
}
