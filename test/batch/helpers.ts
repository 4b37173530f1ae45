/** Waiting for batches over HTTP, as a client would. */
export async function batchProgress(baseUrl: string, apikey: string, id: string): Promise<any> {
  const res = await fetch(`${baseUrl}/v1/batches/${id}`, { headers: { apikey } });
  if (res.status !== 200) throw new Error(`GET /v1/batches/${id} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Polls until the batch is completed, or until `until` says stop; fails when `timeoutMs` pass without
 * progress (no row finished, no change of status), so a slow machine only makes the wait longer.
 */
export async function waitForBatch(
  baseUrl: string,
  apikey: string,
  id: string,
  options: { timeoutMs?: number; until?: (p: any) => boolean } = {},
): Promise<any> {
  const stallMs = options.timeoutMs ?? 30_000;
  let deadline = Date.now() + stallMs;
  let seen = '';
  const until = options.until ?? ((p) => p.status === 'completed');
  for (;;) {
    const progress = await batchProgress(baseUrl, apikey, id);
    if (until(progress)) return progress;
    const now = `${progress.status} ${progress.done}`;
    if (now !== seen) [seen, deadline] = [now, Date.now() + stallMs];
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${progress.status}: ${progress.done} of ${progress.total} done`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
