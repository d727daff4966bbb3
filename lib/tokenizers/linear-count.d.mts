// Types for ./linear-count.mjs (plain JavaScript so the counting worker can load it).

/** A token count, and whether a run too long to tokenize whole was counted in pieces. */
export type Counted = { tokens: number; estimated: boolean };

export type RunLimits = { maxRunBytes?: number; pieceBytes?: number };

export const MAX_RUN_BYTES: number;
export const PIECE_BYTES: number;

/** The real tokenizers every registry counter is built on. */
export type EngineId = "o200k_base" | "cl100k_base" | "claude-legacy" | "llama3";
export const ENGINE_IDS: readonly EngineId[];

export const COUNTED_PIECES: number;
/** @internal exported for its tests: the cuts inside each long run, run by run. */
export function runCuts(text: string, limits?: RunLimits): number[][];
export function countLinear(text: string, count: (text: string) => number, limits?: RunLimits): Counted;
export function engine(id: EngineId): (text: string) => Counted;
export function engineLoaded(id: EngineId): boolean;
