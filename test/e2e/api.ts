/** HTTP calls to a served instance, every answer checked against the document it serves by status and content type (test/helpers/openapi-check.ts). */
import { checkerForServer, checkingFetch } from '../helpers/openapi-check.ts';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export type Call = (method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; apikey?: string | null }) => Promise<Answer>;

/** Calls with `apikey` unless a call says otherwise; a string body goes as given (CSV), anything else as JSON. */
export async function apiOf(url: string, apikey: string): Promise<Call> {
  const checked = checkingFetch(await checkerForServer(url), url);
  return async (method, path, options = {}) => {
    const key = options.apikey === undefined ? apikey : options.apikey;
    const json = options.body !== undefined && typeof options.body !== 'string';
    const res = await checked(`${url}${path}`, {
      method,
      headers: { ...(key !== null ? { apikey: key } : {}), ...(json ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.body !== undefined ? { body: json ? JSON.stringify(options.body) : (options.body as string) } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: the text */
    }
    return { status: res.status, headers: res.headers, body, text };
  };
}
