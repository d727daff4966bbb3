/**
 * Where a thread came from, as people say it. The one map every surface uses (the thread list and
 * its Agent filter, the thread header, /usage, /sources): a source is stored as "api", "demo" or
 * "import:<format>".
 */
import { AGENT_FOLDERS, PROJECT_FOLDERS } from "@/lib/domain/sources/agent-folders";

const SOURCE_LABELS: Readonly<Record<string, string>> = {
  "import:claude-code": "Claude Code",
  "import:codex": "Codex",
  "import:gemini-cli": "Gemini CLI",
  "import:opencode": "OpenCode",
  "import:pi": "Pi",
  "import:copilot": "Copilot CLI",
  "import:cursor": "Cursor",
  "import:cline": "Cline",
  "import:roo-code": "Roo Code",
  "import:kilo-code": "Kilo Code",
  "import:amp": "Amp",
  "import:goose": "Goose",
  "import:qwen-code": "Qwen Code",
  "import:crush": "Crush",
  "import:continue": "Continue",
  "import:factory-droid": "Factory Droid",
  "import:aider": "Aider",
  "import:chatgpt": "ChatGPT",
  "import:pal": "PAL",
  "import:pydantic-ai": "pydantic-ai",
  "import:plain": "Role/content list",
  "import:threadline": "Threadline export",
  api: "API",
  demo: "Demo data",
};

/** The human label of a source; one not in the map reads as its name ("import:foo-bar" as "foo-bar"), never the raw prefix. */
export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source.replace(/^import:/, "");
}

/** Sources in the map's order (agents first), unknown ones after by label: the order filters list them in. */
export function sortedSources(sources: Iterable<string>): string[] {
  const order = Object.keys(SOURCE_LABELS);
  const rank = (source: string) => (order.includes(source) ? order.indexOf(source) : order.length);
  return [...new Set(sources)].sort((a, b) => rank(a) - rank(b) || sourceLabel(a).localeCompare(sourceLabel(b)));
}

/** The agents whose folder `path` is one of their default folders (lib/domain/sources/agent-folders.ts), by label ("Claude Code" for ~/.claude/projects), or null for another folder. */
export function folderAgentLabel(path: string): string | null {
  const trimmed = path.replace(/\/+$/, "");
  const match = [...AGENT_FOLDERS, ...PROJECT_FOLDERS].find(({ folder }) => trimmed === folder || trimmed.endsWith(`/${folder}`));
  return match ? match.sources.map(sourceLabel).join(", ") : null;
}

/** The machine a thread was pushed from as the team figures name it (/usage's and /insights' By machine); "" is not pushed: this server's own. */
export function machineLabel(machine: string): string {
  return machine || "This server's folders";
}
