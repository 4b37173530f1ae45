/**
 * Payer search (GET /v1/payers?query=): case-insensitive over the payer ID, the name and the aliases,
 * forgiving of punctuation, word order and a typo or two. Ranked: an exact ID or alias, then a name
 * or ID that starts with the query, then one that contains it, then every query word found in the
 * name (a word within one edit, a swap of two letters included, for words of 5+ letters; two for 9+).
 *
 * The catalog is read once into an index (built at the first search), so a search costs about the
 * size of its answer rather than payers x query words x name words x an edit-distance table:
 *  - every payer's squashed name and IDs in one string, searched with indexOf for the first three ranks;
 *  - the distinct words of the catalog, sorted, walked as a trie with one row of the edit-distance
 *    table per prefix, pruned as soon as no longer word can come within the edits a query word allows.
 */
import type { PayerInfo } from '../payers/network.ts';

/** Distinct words a query may hold; the query's length is bounded by its schema (100 characters). */
export const MAX_QUERY_WORDS = 8;

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const squash = (s: string) => norm(s).replace(/ /g, '');
const allowedEdits = (word: string) => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0);
const queryWords = (query: string) => [...new Set(norm(query).split(' '))];

/** Why the query is refused, or null. */
export function payerQueryProblem(query: string): string | null {
  const words = queryWords(query).length;
  return words > MAX_QUERY_WORDS ? `query has ${words} different words; at most ${MAX_QUERY_WORDS}` : null;
}

const FIELD = '\u0001';

class PayerIndex {
  /** Each payer's squashed name and IDs, FIELD between them; payer p's part starts at starts[p]. */
  private readonly text: string;
  private readonly starts: Int32Array;
  private readonly names: string[];
  private readonly ids: string[][];
  /** Payers in the order of their names (localeCompare; the catalog's order among equal names). */
  private readonly byName: Int32Array;
  /** The catalog's distinct words, in code-unit order; a word's payers; a payer's words. */
  private readonly vocab: string[];
  private readonly wordPayers: Int32Array[];
  private readonly payerWords: Int32Array[];
  /** Payers of the words before each word id, summed: the cost of reading a range of words. */
  private readonly postingsBefore: Float64Array;

  constructor(private readonly payers: readonly PayerInfo[]) {
    const n = payers.length;
    this.names = payers.map((p) => squash(p.name));
    this.ids = payers.map((p) => [p.payer_id, ...(p.aliases ?? [])].map(squash));
    this.starts = new Int32Array(n + 1);
    const parts: string[] = [];
    let at = 0;
    for (let p = 0; p < n; p++) {
      this.starts[p] = at;
      const part = `${this.names[p]}${FIELD}${this.ids[p]!.join(FIELD)}${FIELD}`;
      parts.push(part);
      at += part.length;
    }
    this.starts[n] = at;
    this.text = parts.join('');

    this.byName = Int32Array.from(payers.map((_, p) => p).sort((a, b) => payers[a]!.name.localeCompare(payers[b]!.name) || a - b));

    const wordsOf = payers.map((p) => new Set(norm(`${p.name} ${p.payer_id} ${(p.aliases ?? []).join(' ')}`).split(' ')));
    this.vocab = [...new Set(wordsOf.flatMap((w) => [...w]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const idOf = new Map(this.vocab.map((w, i) => [w, i]));
    const lists: number[][] = this.vocab.map(() => []);
    this.payerWords = wordsOf.map((words, p) => {
      const ids = [...words].map((w) => idOf.get(w)!);
      for (const id of ids) lists[id]!.push(p);
      return Int32Array.from(ids);
    });
    this.wordPayers = lists.map((l) => Int32Array.from(l));
    this.postingsBefore = new Float64Array(this.vocab.length + 1);
    for (let i = 0; i < this.vocab.length; i++) this.postingsBefore[i + 1] = this.postingsBefore[i]! + lists[i]!.length;
  }

  search(query: string, limit: number): PayerInfo[] {
    const q = squash(query);
    if (q === '') return [];
    const n = this.payers.length;
    const rank = new Int8Array(n).fill(-1);
    // Ranks 0-2: the query inside a squashed name or ID (it holds no FIELD, so it never spans two).
    for (let p = 0, from = this.text.indexOf(q); from !== -1; from = this.text.indexOf(q, this.starts[p + 1])) {
      while (this.starts[p + 1]! <= from) p++;
      const ids = this.ids[p]!;
      rank[p] = ids.includes(q) ? 0 : this.names[p]!.startsWith(q) || ids.some((id) => id.startsWith(q)) ? 1 : 2;
    }
    // Rank 3: every query word matches some word of the payer; read the payers of the rarest one.
    const wanted = queryWords(query).map((w) => this.matching(w));
    const weight = (ranges: number[]) => {
      let sum = 0;
      for (let i = 0; i < ranges.length; i += 2) sum += this.postingsBefore[ranges[i + 1]!]! - this.postingsBefore[ranges[i]!]!;
      return sum;
    };
    wanted.sort((a, b) => weight(a) - weight(b));
    const [first, ...rest] = wanted;
    for (let i = 0; i < first!.length; i += 2) {
      for (let word = first![i]!; word < first![i + 1]!; word++) {
        for (const p of this.wordPayers[word]!) {
          if (rank[p] !== -1) continue;
          const words = this.payerWords[p]!;
          if (rest.every((ranges) => words.some((w) => inRanges(ranges, w)))) rank[p] = 3;
          // Looked at: not looked at again through another of its words.
          else rank[p] = 4;
        }
      }
    }
    const found: PayerInfo[] = [];
    for (let r = 0; r <= 3 && found.length < limit; r++) {
      for (let i = 0; i < n && found.length < limit; i++) if (rank[this.byName[i]!] === r) found.push(this.payers[this.byName[i]!]!);
    }
    return found;
  }

  /**
   * The vocabulary a query word matches, as [lo, hi) ranges of word ids in order: a word it starts,
   * or within its allowed edits (optimal string alignment) of the word or of the word's first
   * w.length letters.
   */
  private matching(w: string): number[] {
    const m = w.length;
    const k = allowedEdits(w);
    const out = 1 + k;
    const maxDepth = m + k;
    // rows[d][j]: edits between the path's first d letters and w's first j, capped at k + 1.
    const rows = Array.from({ length: maxDepth + 1 }, () => new Int8Array(m + 1).fill(out));
    const mins = new Int8Array(maxDepth + 1);
    for (let j = 0; j <= Math.min(m, k); j++) rows[0]![j] = j;
    mins[0] = 0;
    const ranges: number[] = [];
    const vocab = this.vocab;

    const visit = (lo: number, hi: number, depth: number, path: string): void => {
      const row = rows[depth]!;
      if (depth === m && row[m]! <= k) {
        ranges.push(lo, hi);
        return;
      }
      let start = lo;
      if (vocab[lo]!.length === depth) {
        if (row[m]! <= k) ranges.push(lo, lo + 1);
        start = lo + 1;
      }
      if (depth === maxDepth) return;
      // A row's least value never falls along a path (a swap reaches back one row, at a cost of one,
      // and that row's least is at most one less), so past k no longer word comes back within it.
      if (mins[depth]! > k) return;
      for (let s = start; s < hi;) {
        const c = vocab[s]!.charCodeAt(depth);
        let a = s + 1;
        let b = hi;
        while (a < b) {
          const mid = (a + b) >>> 1;
          if (vocab[mid]!.charCodeAt(depth) === c) a = mid + 1;
          else b = mid;
        }
        this.step(rows, mins, depth, c, path, w, k);
        visit(s, a, depth + 1, path + String.fromCharCode(c));
        s = a;
      }
    };
    if (vocab.length > 0) visit(0, vocab.length, 0, '');
    return ranges;
  }

  /** The table's row for the path plus c, from the rows of the path and of the path less its last letter. */
  private step(rows: Int8Array[], mins: Int8Array, depth: number, c: number, path: string, w: string, k: number): void {
    const out = k + 1;
    const i = depth + 1;
    const prev = rows[depth]!;
    const before = depth > 0 ? rows[depth - 1]! : null;
    const next = rows[i]!;
    const last = depth > 0 ? path.charCodeAt(depth - 1) : -1;
    next.fill(out);
    next[0] = Math.min(i, out);
    let min = next[0];
    const m = w.length;
    for (let j = Math.max(1, i - k); j <= Math.min(m, i + k); j++) {
      const cost = c === w.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, next[j - 1]! + 1, prev[j - 1]! + cost);
      if (before && j > 1 && c === w.charCodeAt(j - 2) && last === w.charCodeAt(j - 1)) v = Math.min(v, before[j - 2]! + 1);
      next[j] = Math.min(v, out);
      if (next[j]! < min) min = next[j]!;
    }
    mins[i] = min;
  }
}

/** Whether a word id lies in one of the sorted [lo, hi) ranges. */
function inRanges(ranges: readonly number[], word: number): boolean {
  let a = 0;
  let b = ranges.length / 2;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (ranges[2 * mid + 1]! <= word) a = mid + 1;
    else b = mid;
  }
  return a < ranges.length / 2 && ranges[2 * a]! <= word;
}

export type PayerSearch = (query: string, limit?: number) => PayerInfo[];

/** Search over a catalog; its index is built at the first search. */
export function preparePayerSearch(payers: readonly PayerInfo[]): PayerSearch {
  let index: PayerIndex | null = null;
  return (query, limit = 50) => (index ??= new PayerIndex(payers)).search(query, limit);
}
