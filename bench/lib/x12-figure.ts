/**
 * Figure 4 comes from bench/x12-parse.ts, run as its own process (a fresh heap, and it writes its
 * own "## X12 parse + normalize" section); its printed table is read back for the summary.
 */
import { runNode } from './processes.ts';

export interface X12Figure {
  oursPerSecond: number;
  nodeX12PerSecond: number;
  ratio: number;
}

const number = (s: string) => Number(s.replace(/,/g, ''));

export async function runX12Figure(): Promise<X12Figure> {
  const out = await runNode(['bench/x12-parse.ts'], {});
  const ours = /^\| normalize271[^|]*\| ([\d,.]+) \|/m.exec(out);
  const theirs = /^\| node-x12[^|]*\| ([\d,.]+) \|/m.exec(out);
  const ratio = /\*\*([\d,.]+)x\*\*/.exec(out);
  if (!ours || !theirs || !ratio) throw new Error(`bench/x12-parse.ts printed no normalize271 / node-x12 rows and ratio:\n${out}`);
  return { oursPerSecond: number(ours[1]!), nodeX12PerSecond: number(theirs[1]!), ratio: number(ratio[1]!) };
}
