/**
 * Reads 835s in a worker thread (read-worker.ts), so that reading a large remittance does not hold
 * the event loop: 5,000 claims took 45 ms of CPU at best and 150 to 450 ms on a loaded machine
 * (bench/RESULTS.md, "CSV uploads and the event loop"). One worker, started at the first read and
 * kept; the files it is sent are read one after another. Its answer arrives in pieces, each
 * copied in a turn of its own (the worker sends the next when asked).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseResult } from '../../x12/result.ts';
import type { Remittance } from '../../x12/remittance/types.ts';
import type { ReadReply, ToReader } from './read-messages.ts';

interface Pending {
  sets: Remittance[];
  resolve: (result: ParseResult<Remittance[]>) => void;
  reject: (err: Error) => void;
}

/**
 * The compiled worker beside this module (dist/, and the bundle, whose import.meta.url is the compiled
 * file's: scripts/bundle-cli.mjs); from the TypeScript sources, through ts-worker.mjs.
 */
function workerOptions(): { file: URL; workerData: Record<string, string> } {
  const compiled = new URL('./read-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { file: compiled, workerData: {} };
  const source = new URL('./read-worker.ts', import.meta.url);
  if (!existsSync(fileURLToPath(source))) throw new Error(`the 835 reader's worker is missing: ${fileURLToPath(compiled)}`);
  return { file: new URL('../ts-worker.mjs', import.meta.url), workerData: { entry: source.href } };
}

export class RemittanceReader {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 1;

  read(text: string): Promise<ParseResult<Remittance[]>> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { sets: [], resolve, reject });
      worker.postMessage({ type: 'read', id, text } satisfies ToReader);
    });
  }

  /** Ends the worker; reads in progress fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const { file, workerData } = workerOptions();
    const worker = new Worker(file, { workerData });
    // Not what keeps the process alive: the server is.
    worker.unref();
    worker.on('message', (reply: ReadReply) => this.receive(reply));
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the 835 reader's worker ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private receive(reply: ReadReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    // The next piece once the event loop has had a turn: each piece is copied in a turn of its own.
    const next = () => setImmediate(() => this.worker?.postMessage({ type: 'next', id: reply.id } satisfies ToReader));
    switch (reply.type) {
      case 'set':
        p.sets[reply.set] = reply.remittance;
        next();
        break;
      case 'claims':
        p.sets[reply.set]!.claims.push(...reply.claims);
        next();
        break;
      case 'failed':
        this.pending.delete(reply.id);
        p.resolve({ ok: false, error: reply.error });
        break;
      case 'done':
        this.pending.delete(reply.id);
        p.resolve({ ok: true, value: p.sets, warnings: reply.warnings });
        break;
    }
  }
}
