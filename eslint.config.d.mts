// The layer rules' data, for scripts/lint-rules.test.ts and scripts/layer-cycles.mjs.
export type Layer = { allow: string[]; why: string };
export type Zone = { target: string; from: string; message: string; except?: string[] };
export const LAYERS: Record<string, Layer>;
export const UNLAYERED: string[];
export function zonesFor(layer: string, rule: Layer, extraAllowed?: string[]): Zone[];
declare const config: unknown[];
export default config;
