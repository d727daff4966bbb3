/** Where a thread came from, as people say it: "api", "import:claude-code", ... */
const SOURCE_NAMES: Record<string, string> = {
  api: "API",
  demo: "Demo data",
  "import:claude-code": "Claude Code",
  "import:codex": "Codex",
  "import:gemini-cli": "Gemini CLI",
  "import:chatgpt": "ChatGPT",
  "import:pal": "PAL",
  "import:pydantic-ai": "pydantic-ai",
  "import:plain": "Role/content list",
  "import:threadline": "Threadline export",
};

export function sourceLabel(source: string): string {
  return SOURCE_NAMES[source] ?? source;
}
