/**
 * Which 271 transaction set of an interchange is read (docs/estimates.md 1.1): the one, or of a batch
 * answer the set naming the member ID asked about. Another member's set is never read for them.
 */
import { allTransactions, findTransaction, wrongTransaction, type Interchange, type Transaction } from './envelope.ts';
import { buildLoopTree, type HlLevel } from './loops.ts';
import { readPerson } from './member-loops.ts';
import { fail, ok, type ParseResult } from './result.ts';

/** Whether a subscriber level (2000C) or one of its dependents (2000D) carries member ID `id` (2100C NM109, or the dependent's). */
export function namesMember(level: HlLevel, id: string): boolean {
  if (readPerson(level.names[0]).member_id === id) return true;
  return level.children.some((c) => c.kind === 'dependent' && readPerson(c.names[0]).member_id === id);
}

export type ReadSet = { tx: Transaction; built: ReturnType<typeof buildLoopTree> };

const setNames = (set: ReadSet, id: string) => set.built.tree.levels.some((l) => l.kind === 'subscriber' && namesMember(l, id));

/** The first 271 transaction set whose subscriber level (or a dependent of it) names member `id`, with its loop tree; `first` is read already. */
function memberTransaction(ic: Interchange, id: string, first: ReadSet): ReadSet | null {
  if (setNames(first, id)) return first;
  for (const tx of allTransactions(ic)) {
    if (tx.set_id !== '271' || tx === first.tx) continue;
    const set = { tx, built: buildLoopTree(tx.body) };
    if (setNames(set, id)) return set;
  }
  return null;
}

/** The 271 set to read, its loop tree, and the interchange's and the tree's warnings; an error when a batch names no set for `memberId`. */
export function transactionToRead(ic: Interchange, memberId: string | null | undefined, icWarnings: readonly string[]): ParseResult<ReadSet> {
  const found = findTransaction(ic, '271');
  if (!found) return wrongTransaction(ic, '271');
  const warnings = [...icWarnings];
  let count271 = 0;
  for (const t of allTransactions(ic)) if (t.set_id === '271') count271++;
  let set: ReadSet = { tx: found.tx, built: buildLoopTree(found.tx.body) };
  if (count271 > 1) {
    // A batch answer: the set about the member asked about; none naming them is no answer about them (another
    // member's set is never read for them). Without a member ID asked about (the CLI), the first.
    const named = memberId ? memberTransaction(ic, memberId, set) : null;
    if (memberId && !named) {
      return fail(`the interchange holds ${count271} 271 transaction sets and none names the member ID asked about`, {
        index: set.tx.st.index,
        id: 'ST',
        offset: set.tx.st.offset,
      });
    }
    if (named) set = named;
    warnings.push(`the interchange holds ${count271} 271 transaction sets; ${named ? 'the one naming the member ID asked about' : 'only the first'} is read`);
  }
  warnings.push(...set.built.warnings);
  return ok(set, warnings);
}
