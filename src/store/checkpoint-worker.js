// The store's WAL checkpoints, off the event loop (store/checkpointer.ts starts this file in a worker
// thread; plain JavaScript, so it runs as it is from src/, dist/ and the bundle). A second connection
// to the same SQLite file copies the pages committed to the write-ahead log into the database file with
// PASSIVE checkpoints, which wait for no reader or writer: the server's own connection, whose automatic
// checkpoint is turned off meanwhile, commits without ever copying (bench/RESULTS.md, "CSV uploads and
// the event loop").
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData;
const db = new Database(file);
db.pragma('synchronous = NORMAL');

function checkpoint() {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  // Frames in the log, and how many of them are now in the database file (-1 each when not in WAL mode).
  if (result && result.log > 0) parentPort.postMessage({ type: 'checkpointed', log: result.log, checkpointed: result.checkpointed });
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (message) => {
  if (message === 'now') checkpoint();
  else if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
parentPort.postMessage({ type: 'ready' });
