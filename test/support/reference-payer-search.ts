/**
 * Payer search as it was before issue 23 (src/operations/payer-search.ts at 8b52e0c): every payer,
 * every query word, every name word, an edit-distance table each. Kept as the oracle of the indexed
 * search (test/http/payer-search.test.ts) and as the reference of bench/payer-search.ts.
 */
import type { PayerInfo } from '../../src/payers/network.ts';

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const squash = (s: string) => norm(s).replace(/ /g, '');

/** Edit distance with transpositions (optimal string alignment) is at most `max`. */
function within(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]! <= max;
}

const allowedEdits = (word: string) => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0);

function rank(p: PayerInfo, query: string): number | null {
  const q = squash(query);
  if (q === '') return null;
  const ids = [p.payer_id, ...(p.aliases ?? [])].map(squash);
  if (ids.includes(q)) return 0;
  const name = squash(p.name);
  if (name.startsWith(q) || ids.some((id) => id.startsWith(q))) return 1;
  if (name.includes(q) || ids.some((id) => id.includes(q))) return 2;
  const words = norm(`${p.name} ${p.payer_id} ${(p.aliases ?? []).join(' ')}`).split(' ');
  const wanted = norm(query).split(' ');
  const found = wanted.every((w) =>
    words.some(
      (x) => x.startsWith(w) || within(w, x.slice(0, Math.max(w.length, x.length)), allowedEdits(w)) || within(w, x.slice(0, w.length), allowedEdits(w)),
    ),
  );
  return found ? 3 : null;
}

export function referenceSearchPayers(payers: readonly PayerInfo[], query: string, limit = 50): PayerInfo[] {
  return payers
    .map((p) => ({ p, r: rank(p, query) }))
    .filter((x): x is { p: PayerInfo; r: number } => x.r !== null)
    .sort((a, b) => a.r - b.r || a.p.name.localeCompare(b.p.name))
    .slice(0, limit)
    .map((x) => x.p);
}
