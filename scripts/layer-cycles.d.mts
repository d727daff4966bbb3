export type CruisedModule = { source: string; dependencies: { resolved: string }[] };
export type LayerEdge = { from: string; to: string; example: string };
export function layerOf(file: string, layers?: string[]): string | null;
export function layerEdges(modules: CruisedModule[], layers?: string[]): LayerEdge[];
export function layerCycles(edges: LayerEdge[]): LayerEdge[][];
