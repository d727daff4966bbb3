// Plain JavaScript, not next.config.ts: Next.js compiles a TypeScript config with SWC each time the
// server starts, which loaded SWC's native library into the server (23 MB of it resident for as
// long as the server ran, and two threads of its runtime) for nothing else.
/** @type {import("next").NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "gpt-tokenizer",
    "llama3-tokenizer-js",
    "ai-tokenizer",
    "@pydantic/genai-prices",
  ],
  poweredByHeader: false,
  // Off unless THREADLINE_COMPRESS=1 (read when the server starts): on 127.0.0.1, gzip costs more
  // than it saves (about 12 ms of the server's CPU for a 330 KB context preview), and behind a
  // reverse proxy the proxy compresses.
  compress: process.env.THREADLINE_COMPRESS === "1",
  typedRoutes: false,
  experimental: {
    // Next.js loads every page and route module as soon as it serves, by default: on a restart
    // that was 3.7 s of the main thread's time racing the followed folders' first sync, and the
    // modules of pages nobody opens stayed in memory. Each is loaded on its first request instead.
    preloadEntriesOnStart: false,
  },
};

/**
 * `next build` also writes .next/standalone: the server's files and the node_modules they use,
 * traced, which `npm run pack` copies into the package (scripts/pack.mjs, which also leaves out
 * what the package does not need). Only while building: a server started with output
 * "standalone" warns that it is not Next.js's standalone server.js, and ours is scripts/server.mjs
 * (from a clone and in the package alike).
 * @param {string} phase
 */
export default function config(phase) {
  return phase === "phase-production-build" ? { ...nextConfig, output: "standalone" } : nextConfig;
}
