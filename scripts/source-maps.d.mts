// Types of source-maps.mjs (a build script run by plain node, imported by its test).
export interface RawSourceMap {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
  [field: string]: unknown;
}
/** [column] or [column, source, line, column] or [column, source, line, column, name], absolute. */
export type Segment = number[];
export function decodeMappings(mappings: string): Segment[][];
export function encodeMappings(lines: Segment[][]): string;
export function coarsenMappings<M extends RawSourceMap>(map: M, fine: (source: string) => boolean): M;
