/** Waiting for batches over HTTP, as a client would. */
import { eventually } from '../helpers/eventually.ts';

export async function batchProgress(baseUrl: string, apikey: string, id: string): Promise<any> {
  const res = await fetch(`${baseUrl}/v1/batches/${id}`, { headers: { apikey } });
  if (res.status !== 200) throw new Error(`GET /v1/batches/${id} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Polls until the batch is completed, or until `until` says stop; fails after `stallPolls` polls without
 * progress (no row finished, no change of status), so a slow machine only makes the wait longer.
 */
export async function waitForBatch(
  baseUrl: string,
  apikey: string,
  id: string,
  options: { stallPolls?: number; until?: (p: any) => boolean } = {},
): Promise<any> {
  const until = options.until ?? ((p) => p.status === 'completed');
  let last: any;
  return eventually(
    `batch ${id} ${options.until ? 'to reach the state waited for' : 'completed'}`,
    async () => {
      last = await batchProgress(baseUrl, apikey, id);
      return until(last) && last;
    },
    {
      tries: options.stallPolls ?? 1200,
      pauseMs: 25,
      progress: () => last && `${last.status} ${last.done}`,
      describe: () => `${last.status}: ${last.done} of ${last.total} done`,
    },
  );
}
