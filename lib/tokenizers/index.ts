// The registry lives in ./registry.ts; `@/lib/tokenizers` and `@/lib/tokenizers/registry` are the same API.
export * from "./registry";
