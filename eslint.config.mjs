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

/** `import/no-restricted-paths` zones: files in `target` may not import from `from`. */
const zone = (target, from, message, except) => ({ target, from, message, ...(except && { except }) });

const LAYER_ZONES = [
  // lib/domain: the pure core. Only itself and pure packages (zod).
  zone("./lib/domain", "./lib", "lib/domain imports only lib/domain (and pure packages such as zod).", ["./domain"]),
  zone("./lib/domain", "./app", "lib/domain does not import app/."),
  zone("./lib/domain", "./components", "lib/domain does not import components/."),
  // lib/importers: pure parsers. Storing an import is lib/imports' job.
  zone("./lib/importers", "./lib/db", "Importers are pure parsers: lib/imports stores what they return."),
  zone("./lib/importers", "./lib/imports", "Importers are pure parsers: lib/imports calls them, not the other way round."),
  zone("./lib/importers", "./lib/http", "Importers are pure parsers."),
  zone("./lib/importers", "./app", "Importers are pure parsers."),
  // lib/validation: zod schemas shared by forms, actions, routes and MCP.
  zone("./lib/validation", "./lib/llm", "lib/validation holds schemas only: it does not import providers."),
  zone("./lib/validation", "./lib/db", "lib/validation holds schemas only: it does not import the database."),
  zone("./lib/validation", "./lib/http", "lib/validation holds schemas only: it does not import HTTP helpers."),
  // lib/db: data access. Called by services, routes and pages; calls only downwards.
  ...["./app", "./components", "./lib/actions", "./lib/queries", "./lib/http"].map((from) =>
    zone("./lib/db", from, `lib/db does not import ${from.slice(2)}: data access is called, it does not call up.`),
  ),
  // components render; they never see the database, not even its types.
  zone("./components", "./lib/db", "Components never import lib/db, not even types: what they render is typed in lib/domain."),
  // Services choose no HTTP statuses and do not use the HTTP layer's helpers.
  ...[
    "./lib/domain",
    "./lib/db",
    "./lib/llm",
    "./lib/chat",
    "./lib/compaction",
    "./lib/context",
    "./lib/imports",
    "./lib/sources",
    "./lib/importers",
    "./lib/mcp",
    "./lib/models",
    "./lib/tokenizers",
    "./lib/files",
    "./lib/validation",
    "./lib/queries",
  ].map((target) => zone(target, "./lib/http", "Only route handlers use lib/http (statuses and HTTP responses are theirs).")),
];

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
        { object: "process", property: "env", message: "lib/domain takes settings as arguments; lib/env.ts reads the environment." },
      ],
    },
  },
  {
    // A file a reader can hold in their head; split along the code's own seams beyond this.
    files: ["app/**", "components/**", "lib/**"],
    rules: { "max-lines": ["error", { max: 500 }] },
  },
  {
    files: ["scripts/**"],
    rules: { "max-lines": ["error", { max: 800 }] },
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
];

export default config;
