// `npm run lint`: Next.js's rules plus the layer rules that keep Threadline's structure in place
// (import cycles, type-only ones included, are dependency-cruiser's part: .dependency-cruiser.cjs).
// docs/architecture.md draws the same map; change both together.
// scripts/lint-rules.test.ts proves each rule reports a wrong import.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import importPlugin from "eslint-plugin-import";

/** Packages that tie code to a framework or a database: never in the pure layers. */
const FRAMEWORK_AND_DATABASE = [
  { group: ["next", "next/*"], message: "The pure layers do not import Next.js." },
  { group: ["react", "react/*", "react-dom", "react-dom/*"], message: "The pure layers do not import React." },
  {
    group: ["@prisma/*", "prisma", "better-sqlite3", "pg", "**/generated/*", "**/generated-pg/*"],
    message: "Data access lives in lib/db.",
  },
  { group: ["@/lib/db", "@/lib/db/*"], message: "The pure layers do not reach the database; lib/db calls them." },
];
/** The machine (files, processes, crypto, timers): lib/domain is handed what it needs. */
const MACHINE = {
  group: ["node:*", "fs", "path", "crypto", "child_process", "os"],
  message: "lib/domain does not touch the machine: pass what it needs in.",
};

/**
 * The layers, each as an allow-list: the folders (or single files) its files may import. Anything
 * of the app not named is refused, so a wrong import in a new folder fails too, and a new folder
 * must be placed here before anything can import it (scripts/lint-rules.test.ts checks that every
 * folder under lib/ is). Lower layers first; packages and Node's own modules are not paths and
 * stay allowed here (lib/domain's own rules below keep those out of the pure core).
 */
const PURE = ["lib/domain", "lib/validation", "lib/importers", "lib/markdown", "lib/format.ts", "lib/export"];
const BELOW_DB = [...PURE, "lib/models", "lib/tokenizers", "lib/files", "lib/env"];
const SERVICES = [
  "lib/llm",
  "lib/context",
  "lib/compaction",
  "lib/chat",
  "lib/sources",
  "lib/secrets",
  "lib/auth",
  "lib/imports",
  "lib/live",
  "lib/mcp",
  "lib/demo",
  "lib/sharing",
  "lib/runtime",
];
const SERVER = [...BELOW_DB, "lib/db", ...SERVICES];
/** What runs in the browser may import: its queries, server actions (called, never run there) and the pure layers. */
const CLIENT_SAFE = ["lib/domain", "lib/validation", "lib/markdown", "lib/format.ts", "lib/importers/types.ts", "lib/actions"];

export const LAYERS = {
  "lib/domain": { allow: [], why: "lib/domain is the pure core: it imports only itself (and pure packages such as zod)." },
  "lib/validation": { allow: ["lib/domain"], why: "lib/validation holds zod schemas over lib/domain's types, nothing else." },
  "lib/importers": { allow: ["lib/domain"], why: "lib/importers are pure parsers over lib/domain: lib/imports stores what they return." },
  "lib/markdown": { allow: ["lib/domain"], why: "lib/markdown renders text with lib/domain only." },
  "lib/format.ts": { allow: ["lib/domain"], why: "lib/format.ts formats figures with lib/domain only." },
  "lib/export": {
    allow: ["lib/domain", "lib/markdown", "lib/format.ts"],
    why: "lib/export writes a thread as a file people read (HTML, Markdown) from lib/domain's types, with lib/markdown and lib/format.ts only.",
  },
  "lib/tokenizers": { allow: ["lib/domain"], why: "lib/tokenizers count tokens with lib/domain only." },
  "lib/models": { allow: ["lib/domain", "lib/tokenizers"], why: "lib/models (the catalog) builds on lib/domain and lib/tokenizers only." },
  "lib/files": { allow: ["lib/domain"], why: "lib/files reads the files people allowed, with lib/domain only." },
  "lib/env": {
    allow: ["lib/domain", "lib/validation", "lib/importers", "lib/files"],
    why: "lib/env reads the settings with the pure layers only: everything else reads lib/env.",
  },
  "lib/db": {
    allow: BELOW_DB,
    why: "lib/db (data access) imports lib/domain, lib/validation, lib/importers' types, lib/models, lib/tokenizers, lib/files and lib/env: it is called, it does not call up.",
  },
  ...Object.fromEntries(
    SERVICES.map((service) => [
      service,
      { allow: SERVER, why: `${service} is a service: it uses lib/db and the layers below, and other services (never in a circle).` },
    ]),
  ),
  "lib/push": {
    allow: ["lib/domain", "lib/validation", "lib/importers", "lib/imports/transcript-files.ts"],
    why: "lib/push is `threadline push`, which runs on a laptop: it walks folders as the server does (lib/imports/transcript-files.ts) and never reaches a database or a service.",
  },
  "lib/http": { allow: SERVER, why: "lib/http (route helpers) uses the services and below; only routes use it." },
  "lib/actions": { allow: SERVER, why: "lib/actions (server actions) call the services and below." },
  "lib/queries": {
    allow: CLIENT_SAFE,
    why: "lib/queries runs in the browser: it reaches the server through the API client and server actions, and imports only client-safe layers.",
  },
  components: {
    allow: ["components", "lib/queries", ...CLIENT_SAFE],
    why: "components render what lib/queries, server actions and the pure layers give them: no database, no services.",
  },
  app: {
    allow: ["app", "components", "lib/queries", "lib/actions", "lib/http", ...SERVER],
    why: "app/ (pages, routes) may use every layer below it.",
  },
  "proxy.ts": { allow: SERVER, why: "proxy.ts guards requests with the services and below." },
  "instrumentation.ts": { allow: SERVER, why: "instrumentation.ts starts the services when the server starts." },
};

/** Data written out as code (the model catalog, the demo conversation): as long as the data is. */
const DATA_FILES = ["lib/models/catalog-data.ts", "lib/demo/demo-data.ts"];

/** Where the layers are not: tests' support code (lib/testing) may reach anything. */
export const UNLAYERED = ["lib/testing"];

/** The roots the app's code lives under: a zone refuses a whole root but for what a layer may import in it. */
const ROOTS = ["lib", "app", "components", "scripts", "e2e", "proxy.ts", "instrumentation.ts"];

/**
 * `import/no-restricted-paths` zones for one layer: each root it may not import whole is refused,
 * except the paths in it the layer may import (and the layer itself). A folder no layer names is
 * in no `except`, so nothing can import it until it is placed in LAYERS.
 */
export function zonesFor(layer, { allow, why }, extraAllowed = []) {
  const allowed = [...new Set([layer, ...allow, ...extraAllowed])];
  const inside = (inner, outer) => inner === outer || inner.startsWith(`${outer}/`);
  return ROOTS.filter((root) => !allowed.includes(root)).map((root) => {
    const except = allowed.filter((path) => inside(path, root) && path !== root).map((path) => `./${path.slice(root.length + 1)}`);
    return { target: `./${layer}`, from: `./${root}`, message: why, ...(except.length > 0 && { except }) };
  });
}

const layerZones = (extraAllowed) => Object.entries(LAYERS).flatMap(([layer, rule]) => zonesFor(layer, rule, extraAllowed));
const LAYER_ZONES = layerZones([]);
/** Tests may also use the test support code (lib/testing). */
const TEST_ZONES = layerZones(["lib/testing"]);

const config = [
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/db/generated/**",
      "lib/db/generated-pg/**",
      ".tmp/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    plugins: { import: importPlugin },
    rules: {
      "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }],
      // A leading underscore marks what is left out on purpose (a destructured field dropped, an unused argument).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ["lib/domain/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...FRAMEWORK_AND_DATABASE, MACHINE] }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "lib/domain takes settings as arguments; lib/env reads the environment." },
      ],
    },
  },
  {
    // Unit tests may also use the test support code (lib/testing); every other rule of their layer holds.
    files: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "import/no-restricted-paths": ["error", { zones: TEST_ZONES }] },
  },
  {
    // Integration tests drive the real stack from the outside in (routes, the proxy, scripts): any layer.
    files: ["**/*.integration.test.ts"],
    rules: { "import/no-restricted-paths": "off" },
  },
  {
    // A file and a function a reader can hold in their head (Prettier lays the code out, so lines
    // measure code); split along the code's own seams beyond this.
    files: ["app/**", "components/**", "lib/**"],
    ignores: DATA_FILES,
    rules: {
      "max-lines": ["error", { max: 500 }],
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A test's describe block holds its cases: it is as long as what it covers.
    files: ["**/*.test.ts", "**/*.test.tsx", "lib/testing/**"],
    rules: { "max-lines-per-function": "off" },
  },
  {
    files: ["scripts/**"],
    rules: {
      "max-lines": ["error", { max: 800 }],
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests read response bodies of every shape; `any` there saves casts and hides nothing shipped.
    files: ["**/*.test.ts", "lib/testing/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Domain tests may read their fixture files.
    files: ["lib/domain/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: FRAMEWORK_AND_DATABASE }] },
  },
  {
    // Parsers read bytes they are handed (node:crypto for stable ids is fine); storing is lib/imports'.
    files: ["lib/importers/**"],
    rules: { "no-restricted-imports": ["error", { patterns: FRAMEWORK_AND_DATABASE }] },
  },
  {
    // A test's describe block holds its cases: it is as long as what it covers (placed last, so it wins).
    files: ["**/*.test.ts", "**/*.test.tsx", "lib/testing/**"],
    rules: { "max-lines-per-function": "off" },
  },
];

export default config;
