/** The files the README and docs tell a newcomer to use exist, and do what the docs say. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runNormalize } from '../../src/cli/normalize.ts';
import { startTestServer, TEST_KEY } from '../helpers/server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', 'docs/batch.md', 'docs/payer-directory.md', 'docs/operating.md', 'docs/remittances.md'];
const ALL_DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('every doc runs the command from a checkout as ./bin/coverage.js (instant), never npx coverage (a registry lookup first)', () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
  assert.equal(pkg.bin.coverage, 'bin/coverage.js');
  assert.equal(pkg.scripts.coverage, 'node bin/coverage.js', 'npm run coverage -- ... (Windows) runs the same script');
  assert.ok((statSync(`${ROOT}bin/coverage.js`).mode & 0o111) !== 0, 'bin/coverage.js is executable');
  assert.match(readFileSync(`${ROOT}bin/coverage.js`, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const commands = new Set(['help', 'serve', 'normalize', 'batch', 'keys', 'usage', 'users', 'simulate-payer', 'payers', 'providers', 'check', 'remit']);
  for (const doc of ALL_DOCS) {
    const text = readFileSync(`${ROOT}${doc}`, 'utf8');
    // "npx coverage" is named only to say why not: never followed by a command.
    for (const [, command] of text.matchAll(/npx coverage ([a-z-]+)/g)) assert.ok(!commands.has(command!), `${doc} runs npx coverage ${command}`);
    for (const [, command] of text.matchAll(/\.\/bin\/coverage\.js ([a-z-]+)/g))
      assert.ok(commands.has(command!), `${doc}: ./bin/coverage.js ${command} is no command`);
  }
});

test('every examples/ file the docs name is shipped, and no doc posts a file that is not', () => {
  const named = new Set<string>();
  for (const doc of DOCS) {
    const text = readFileSync(`${ROOT}${doc}`, 'utf8');
    for (const [, path] of text.matchAll(/(?:\.\.\/)?(examples\/[\w.-]+)/g)) named.add(path!);
    // curl's @file must be a path the reader has: shipped, or written by the doc's own commands (`> today.835`).
    const written = new Set([...text.matchAll(/ > ([\w.-]+)\n/g)].map(([, file]) => file!));
    for (const [, file] of text.matchAll(/--data-binary @(\S+)/g)) assert.ok(file!.startsWith('examples/') || written.has(file!), `${doc} posts @${file}`);
  }
  assert.ok(named.has('examples/schedule.csv') && named.has('examples/sample-271.x12'), [...named].join(', '));
  for (const path of named) assert.ok(existsSync(`${ROOT}${path}`), `${path} is named in the docs but missing`);
});

test("coverage normalize examples/sample-271.x12 prints the sample member's active plan", async () => {
  let stdout = '';
  const code = await runNormalize(`${ROOT}examples/sample-271.x12`, { stdout: (s) => (stdout += s), stderr: () => undefined });
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  assert.equal(out.result.kind, 'coverage');
  assert.equal(out.result.coverage.payer_id, 'SBX-EVERGREEN');
  assert.equal(out.result.coverage.member.member_id, '10010MHNA');
  assert.equal(out.result.coverage.coverage_status, 'active');
  assert.deepEqual(out.warnings, []);
});

/**
 * The calls of the README and of the API docs, pasted as written into one shell per doc, in the doc's
 * order, on a fresh sandbox server (a fresh data directory, today's date, webhooks to loopback
 * allowed as the docs say to start it): the shell exits 0, so every curl --fail-with-body got a 2xx.
 * The server's address and the receiver's port replace the docs' 8080 and 9999; `KEY=...` is the
 * server's key. docs/fhir.md is left out: its example is the FHIR test's fixture, dated.
 */
test("the README's and the API docs' calls run as pasted on a fresh sandbox, today", { timeout: 300_000 }, async () => {
  const today = new Date().toISOString().slice(0, 10);
  const server = await startTestServer({ today, env: { COVERAGE_WEBHOOK_ALLOW_INSECURE: '1' } });
  const work = mkdtempSync(join(tmpdir(), 'doc-examples-'));
  symlinkSync(`${ROOT}examples`, join(work, 'examples'));
  symlinkSync(`${ROOT}bin`, join(work, 'bin'));
  const receiverPort = await freePort();
  try {
    for (const doc of ['README.md', 'docs/batch.md', 'docs/monitoring.md']) {
      const blocks = [...readFileSync(`${ROOT}${doc}`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
        .map(([, body]) => body!)
        .filter((b) => /\$URL|\.\/bin\/coverage\.js (check|batch)/.test(b) && !/npm start|simulate-payer|keys create/.test(b));
      assert.ok(blocks.length >= 2, `${doc}: ${blocks.length} blocks`);
      const script = [
        'set -eo pipefail',
        `KEY=${TEST_KEY}`,
        `URL=${server.url}`,
        // Background jobs the doc starts (the webhook receiver) end with it.
        "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
        ...blocks.map((block) =>
          block
            .split('\n')
            .filter((line) => !/^(KEY|URL)=/.test(line))
            .join('\n')
            .replaceAll('http://localhost:8080', server.url)
            .replaceAll('9999', String(receiverPort)),
        ),
      ].join('\n');
      const run = await new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawn('bash', ['-c', script], { cwd: work, env: { ...process.env, COVERAGE_URL: '', COVERAGE_API_KEY: '' } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (code) => done({ code, out }));
      });
      assert.equal(run.code, 0, `${doc}'s calls failed:\n--- output ---\n${run.out}`);
    }
    assert.ok(existsSync(join(work, 'results.csv')), 'coverage batch --out results.csv wrote the results');
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.close();
  }
});

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}
