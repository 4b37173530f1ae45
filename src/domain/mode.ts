/** Which payers a server, a key, a batch or a monitor reaches: the sandbox catalog, or real payers (COVERAGE_MODE). */
export const MODES = ['sandbox', 'production'] as const;

export type Mode = (typeof MODES)[number];
