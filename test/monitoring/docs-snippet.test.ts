/** docs/monitoring.md's verification snippet, run as written against a signature the service makes (and refusing a forged one). */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { newWebhookSecret, signWebhook } from '../../src/operations/monitoring/signature.ts';

test('the documented verify() accepts a delivery the service signed, and refuses a changed body or an old timestamp', async () => {
  const doc = readFileSync(new URL('../../docs/monitoring.md', import.meta.url), 'utf8');
  const snippet = /Verifying by hand[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(snippet, 'the snippet is in the document');
  const dir = mkdtempSync(join(tmpdir(), 'coverage-snippet-'));
  try {
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, snippet);
    const { verify } = (await import(pathToFileURL(file).href)) as { verify: (s: string, h: Record<string, string>, b: string) => boolean };
    const secret = newWebhookSecret();
    const body = '{"type":"coverage.changed","timestamp":"2026-06-15T10:00:00.000Z","data":{"monitor_id":"mon_1","changes":[]}}';
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'msg_abc', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, 'msg_abc', ts, body) };
    assert.equal(verify(secret, headers, body), true);
    assert.equal(verify(secret, headers, body.replace('mon_1', 'mon_2')), false);
    assert.equal(verify(newWebhookSecret(), headers, body), false);
    const old = ts - 3600;
    assert.equal(verify(secret, { ...headers, 'webhook-timestamp': String(old), 'webhook-signature': signWebhook(secret, 'msg_abc', old, body) }, body), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
