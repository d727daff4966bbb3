/**
 * Where each agent keeps its sessions, under the home folder: the folders followed when
 * THREADLINE_SOURCES is unset (those that exist), the agent named beside a followed folder, and
 * the list the /import page and docs/following-folders.md give. Linux and macOS paths both: a
 * folder of the other system simply does not exist. Each folder is checked against the agent's own
 * source in docs/formats.md.
 */

/** The editors whose storage folders hold Cline's, Roo Code's and Kilo Code's tasks (and Cursor's chats). */
const EDITORS = ["Code", "Code - Insiders", "Cursor", "VSCodium", "Windsurf"] as const;
/** Where an editor's `User` folder is, on Linux and on macOS. */
const EDITOR_CONFIG_ROOTS = [".config", "Library/Application Support"] as const;

export type AgentFolder = {
  /** Under the home folder, without a leading `~/`. */
  folder: string;
  /** The sources ("import:<format>") whose sessions are found there. */
  sources: readonly string[];
};

const TASK_AGENTS = ["import:cline", "import:roo-code", "import:kilo-code"] as const;

const editorFolders: AgentFolder[] = EDITOR_CONFIG_ROOTS.flatMap((root) =>
  EDITORS.flatMap((editor): AgentFolder[] => {
    const user = `${root}/${editor}/User`;
    if (editor !== "Cursor") return [{ folder: `${user}/globalStorage`, sources: TASK_AGENTS }];
    return [
      { folder: `${user}/globalStorage`, sources: ["import:cursor", ...TASK_AGENTS] },
      { folder: `${user}/workspaceStorage`, sources: ["import:cursor"] },
    ];
  }),
);

/** Every agent's default folders, agents in the order people know them by. */
export const AGENT_FOLDERS: readonly AgentFolder[] = [
  { folder: ".claude/projects", sources: ["import:claude-code"] },
  { folder: ".codex/sessions", sources: ["import:codex"] },
  { folder: ".gemini/tmp", sources: ["import:gemini-cli"] },
  { folder: ".local/share/opencode", sources: ["import:opencode"] },
  { folder: ".pi/agent/sessions", sources: ["import:pi"] },
  { folder: ".copilot/session-state", sources: ["import:copilot"] },
  { folder: ".copilot/history-session-state", sources: ["import:copilot"] },
  ...editorFolders,
  { folder: ".vscode-server/data/User/globalStorage", sources: TASK_AGENTS },
  { folder: ".cursor-server/data/User/globalStorage", sources: ["import:cursor", ...TASK_AGENTS] },
  { folder: ".cline/data/tasks", sources: ["import:cline"] },
  { folder: ".local/share/kilo", sources: ["import:kilo-code"] },
  { folder: ".qwen/projects", sources: ["import:qwen-code"] },
  { folder: ".qwen/tmp", sources: ["import:qwen-code"] },
  { folder: ".continue/sessions", sources: ["import:continue"] },
  { folder: ".local/share/goose/sessions", sources: ["import:goose"] },
  { folder: ".local/share/amp/threads", sources: ["import:amp"] },
  { folder: ".factory/sessions", sources: ["import:factory-droid"] },
  { folder: "Library/Application Support/kilo", sources: ["import:kilo-code"] },
];

/**
 * Where each format's files are, as a sentence for people (the /import page, /sources), by source.
 * `followed`: its default folders above are followed when THREADLINE_SOURCES is unset.
 */
export const AGENT_LOCATIONS: readonly { source: string; where: string; followed: boolean }[] = [
  { source: "import:claude-code", where: "~/.claude/projects", followed: true },
  { source: "import:codex", where: "~/.codex/sessions", followed: true },
  { source: "import:gemini-cli", where: "~/.gemini/tmp", followed: true },
  { source: "import:opencode", where: "~/.local/share/opencode (opencode.db, or the storage folder of older versions)", followed: true },
  { source: "import:pi", where: "~/.pi/agent/sessions", followed: true },
  { source: "import:copilot", where: "~/.copilot/session-state (older versions: ~/.copilot/history-session-state)", followed: true },
  {
    source: "import:cursor",
    where:
      "~/.config/Cursor/User: globalStorage/state.vscdb and each workspaceStorage/<id>/state.vscdb (macOS: ~/Library/Application Support/Cursor/User)",
    followed: true,
  },
  {
    source: "import:cline",
    where:
      "the editor's globalStorage/saoudrizwan.claude-dev/tasks (VS Code: ~/.config/Code/User; also Cursor, Windsurf, VSCodium, Code - Insiders; macOS: ~/Library/Application Support/<editor>/User), or ~/.cline/data/tasks",
    followed: true,
  },
  { source: "import:roo-code", where: "the editor's globalStorage/rooveterinaryinc.roo-cline/tasks (as Cline's)", followed: true },
  {
    source: "import:kilo-code",
    where: "the Kilo CLI's ~/.local/share/kilo (kilo.db); the editor extension's globalStorage/kilocode.kilo-code/tasks (as Cline's)",
    followed: true,
  },
  { source: "import:amp", where: "~/.local/share/amp/threads", followed: true },
  {
    source: "import:goose",
    where: "~/.local/share/goose/sessions (sessions.db; older versions wrote one .jsonl per session)",
    followed: true,
  },
  { source: "import:qwen-code", where: "~/.qwen/projects (older versions: ~/.qwen/tmp)", followed: true },
  {
    source: "import:crush",
    where: "each project's .crush/crush.db; the projects Crush lists in ~/.local/share/crush/projects.json are followed",
    followed: true,
  },
  { source: "import:continue", where: "~/.continue/sessions", followed: true },
  {
    source: "import:factory-droid",
    where: "~/.factory/sessions (each session's .settings.json beside it holds its token totals)",
    followed: true,
  },
  { source: "import:aider", where: "each repository's .aider.chat.history.md", followed: false },
];

/** Folders an agent keeps inside each project rather than under the home folder, by name. */
export const PROJECT_FOLDERS: readonly AgentFolder[] = [{ folder: ".crush", sources: ["import:crush"] }];

/**
 * The project folders Crush lists in its projects.json (`{projects: [{path, data_dir}]}`, in its
 * data folder): each project's `data_dir`, its `.crush` folder holding crush.db. Absolute paths
 * only, each once; anything else in the file is ignored (docs/formats.md, "Crush").
 */
export function crushProjectFolders(projectsJson: unknown): string[] {
  if (typeof projectsJson !== "object" || projectsJson === null || !("projects" in projectsJson)) return [];
  const projects = (projectsJson as { projects: unknown }).projects;
  if (!Array.isArray(projects)) return [];
  const folders = projects
    .map((project: unknown) => (typeof project === "object" && project !== null ? (project as { data_dir?: unknown }).data_dir : null))
    .filter((dir): dir is string => typeof dir === "string" && dir.startsWith("/") && !dir.includes("\0"));
  return [...new Set(folders.map((dir) => dir.replace(/\/+$/, "")))];
}
