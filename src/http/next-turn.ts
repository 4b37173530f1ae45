/**
 * The pause a route hands long work (slices.ts): the event loop runs what is waiting, other
 * requests included, before the next slice (docs/batch.md, "Uploads and other requests").
 */
import type { Pause } from '../formats/slices.ts';

export const nextTurn: Pause = () => new Promise((resolve) => setImmediate(resolve));
