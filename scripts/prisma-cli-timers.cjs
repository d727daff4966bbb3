// Preloaded into the Prisma CLI (`node --require ./scripts/prisma-cli-timers.cjs .../prisma ...`):
// on PostgreSQL its Wasm schema engine leaves a 10-second timer running after the work is done,
// which keeps every `migrate deploy` alive 10 s longer. Timers the Wasm code starts are unref'd,
// so the process ends when its work does; they still fire while anything else keeps it running.
const { setTimeout: original } = globalThis;
globalThis.setTimeout = function setTimeoutUnrefFromWasm(callback, ms, ...args) {
  const timer = original.call(this, callback, ms, ...args);
  if (ms >= 1000 && new Error().stack?.includes("wasm://")) timer.unref();
  return timer;
};
