// Types for scripts/platform.mjs.
export type Platform = { platform: string; arch: string; libc: string; abi: string; node: string };
export function currentPlatform(): Platform;
export function platformProblem(packed: Platform, current: Platform): string | null;
