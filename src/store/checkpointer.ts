/**
 * SQLite's WAL checkpoints moved off the event loop. By default the connection that commits also
 * checkpoints, synchronously, once the log passes 1,000 pages: copying a 10,000-row batch's pages
 * into the database file (and syncing it) held the event loop 20 to 50 ms after the commit
 * (bench/RESULTS.md, "CSV uploads and the event loop"). The server instead turns the automatic
 * checkpoint off and lets a worker thread (checkpoint-worker.js), on a second connection, run PASSIVE
 * checkpoints a few times a second; should that thread stop, the automatic checkpoint comes back.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/** SQLite's default: the connection checkpoints after a commit leaves more than this many pages in the log. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** How often the worker checkpoints what has been committed since. */
export const CHECKPOINT_EVERY_MS = 200;

export interface CheckpointReport {
  /** Frames in the log, and how many of them are in the database file after this checkpoint. */
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Asks for a checkpoint now (tests; the worker checkpoints on its own every CHECKPOINT_EVERY_MS). */
  now(): void;
  /** Told of each checkpoint that found frames in the log. */
  onCheckpoint(listener: (report: CheckpointReport) => void): void;
  /** Stops the worker and gives the connection its automatic checkpoint back. */
  close(): Promise<void>;
}

/** The worker's file: beside this module in src/ and dist/ (the bundle's import.meta.url is the compiled file's, scripts/bundle-cli.mjs). */
function workerFile(): URL {
  const url = new URL('./checkpoint-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) throw new Error(`the checkpoint worker is missing: ${fileURLToPath(url)}`);
  return url;
}

export async function startCheckpointer(connection: SqliteDatabase.Database, file: string, intervalMs = CHECKPOINT_EVERY_MS): Promise<Checkpointer> {
  const worker = new Worker(workerFile(), { workerData: { file, intervalMs }, execArgv: [] });
  const listeners: ((report: CheckpointReport) => void)[] = [];
  let closing = false;
  const restore = () => {
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { type: string } & CheckpointReport) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'checkpointed') for (const listener of listeners) listener({ log: message.log, checkpointed: message.checkpointed });
    });
  });
  // From here the worker checkpoints; if it fails or ends, the connection does again.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      restore();
      resolve();
    }),
  );
  connection.pragma('wal_autocheckpoint = 0');
  return {
    now: () => worker.postMessage('now'),
    onCheckpoint: (listener) => listeners.push(listener),
    async close() {
      if (!closing) {
        closing = true;
        worker.postMessage('stop');
      }
      await exited;
    },
  };
}
