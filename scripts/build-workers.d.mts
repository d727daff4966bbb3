/** Bundles every worker whose bundle is missing or older than lib/ (`force`: all of them). */
export function buildWorkers(options?: { force?: boolean }): void;
