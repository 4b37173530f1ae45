/** Waiting for batches over HTTP, as a client would. */
export async function batchProgress(baseUrl: string, apikey: string, id: string): Promise<any> {
  const res = await fetch(`${baseUrl}/v1/batches/${id}`, { headers: { apikey } });
  if (res.status !== 200) throw new Error(`GET /v1/batches/${id} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Polls until the batch is completed, or until `until` says stop; fails after `timeoutMs`. */
export async function waitForBatch(
  baseUrl: string,
  apikey: string,
  id: string,
  options: { timeoutMs?: number; until?: (p: any) => boolean } = {},
): Promise<any> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const until = options.until ?? ((p) => p.status === 'completed');
  for (;;) {
    const progress = await batchProgress(baseUrl, apikey, id);
    if (until(progress)) return progress;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${progress.status}: ${progress.done} of ${progress.total} done`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
