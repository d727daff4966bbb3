import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "gpt-tokenizer", "llama3-tokenizer-js", "ai-tokenizer", "@pydantic/genai-prices"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
