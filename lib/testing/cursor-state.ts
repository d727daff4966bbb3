/**
 * Cursor state.vscdb files for tests, with Cursor's own schema: both tables as `sqlite_master`
 * shows them in a real global and workspace database (michaeldhood/chatrxiv
 * docs/cursor/storage-reference.md @ 1dd83bfeb354fc399366d014c99040b0a00b7e86; the same in
 * bounded-systems/toolpath docs/agents/formats/cursor.md @ c6e63d345a39fdbc24b1d1ed0c12d95ae7badfcd),
 * values written as JSON text the way Cursor writes them (JSON.stringify, no spaces).
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export const CURSOR_TABLES = [
  "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
  "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
];

export type Row = [key: string, value: unknown];

/** A value as Cursor stores it: text as is, anything else as compact JSON. */
function stored(value: unknown): string | Buffer | null {
  if (value === null || typeof value === "string" || Buffer.isBuffer(value)) return value as string | Buffer | null;
  return JSON.stringify(value);
}

/**
 * A state.vscdb at `file` holding `items` (ItemTable) and `kv` (cursorDiskKV). With `wal`, in WAL
 * mode as Cursor runs it; the writer is returned open (close it when done).
 */
export function writeCursorState(
  file: string,
  rows: { items?: Row[]; kv?: Row[] },
  options: { wal?: boolean; tables?: string[] } = {},
): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  if (options.wal) db.pragma("journal_mode = WAL");
  for (const sql of options.tables ?? CURSOR_TABLES) db.exec(sql);
  putRows(db, rows);
  return db;
}

/** Writes (or replaces) rows, in one transaction. */
export function putRows(db: Database.Database, rows: { items?: Row[]; kv?: Row[] }): void {
  const item = rows.items?.length ? db.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)") : null;
  const kv = rows.kv?.length ? db.prepare("INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)") : null;
  db.transaction(() => {
    for (const [key, value] of rows.items ?? []) item!.run(key, stored(value));
    for (const [key, value] of rows.kv ?? []) kv!.run(key, stored(value));
  })();
}

/** toolpath's dump of a real Cursor 3.6 session (fixtures/real/cursor/toolpath/convo.json.txt): {head, data, bubbles, content_blobs}. */
export type CursorDump = {
  head: Record<string, unknown>;
  data: Record<string, unknown> & { composerId: string };
  bubbles: (Record<string, unknown> & { bubbleId: string })[];
  content_blobs: Record<string, string>;
};

const REAL_CURSOR_DUMP = path.join(process.cwd(), "fixtures/real/cursor/toolpath/convo.json.txt");

export function readCursorDump(file = REAL_CURSOR_DUMP): CursorDump {
  return JSON.parse(readFileSync(file, "utf8")) as CursorDump;
}

/** The rows a dump came from, as Cursor keeps them in the global database. */
export function dumpRows(dump: CursorDump): { items: Row[]; kv: Row[] } {
  const id = dump.data.composerId;
  return {
    items: [["composer.composerHeaders", { allComposers: [dump.head] }]],
    kv: [
      [`composerData:${id}`, dump.data],
      ...dump.bubbles.map((bubble): Row => [`bubbleId:${id}:${bubble.bubbleId}`, bubble]),
      ...Object.entries(dump.content_blobs).map(([hash, text]): Row => [`composer.content.${hash}`, text]),
    ],
  };
}

/** Where the synthetic databases of fixtures/real/cursor are (SOURCES.md says what is real in them). */
export const SYNTHETIC_CURSOR_USER = path.join(process.cwd(), "fixtures/real/cursor/User");
export const SYNTHETIC_WORKSPACE_ID = "8d6f0c1e2b3a4c5d6e7f8091a2b3c4d5";

const SUBAGENT_ID = "64cc0e23-6dc6-46c4-a155-5b55fc9c30e9";
const LEGACY_ID = "0b5e8a9c-1d2e-4f30-8a4b-5c6d7e8f9a0b";

/**
 * The rows of the synthetic global and workspace databases (fixtures/real/cursor/User): the real
 * dump's rows as Cursor keeps them, the sub-agent its task call started (its id from the dump,
 * its content made up), a composer of Cursor 0.4x with its conversation inline, a draft, an
 * orphan bubble, rows the importer never reads; and a workspace database with the old chat
 * panel's tabs, its composer ids and its prompt log. Every made-up value follows the shapes the
 * public readers parse (docs/formats.md §12).
 */
export function syntheticCursorRows(dump = readCursorDump()): { global: { items: Row[]; kv: Row[] }; workspace: { items: Row[] } } {
  const real = dumpRows(dump);
  const parent = dump.data.composerId;
  const child = [
    {
      _v: 3,
      bubbleId: "5a1e7c1d-0d7a-4d8e-9d43-0e0c3a7f4b21",
      type: 1,
      text: "Count the words in `notes.md` and report the number.",
      createdAt: "2026-06-01T18:33:44.410Z",
      tokenCount: { inputTokens: 0, outputTokens: 0 },
    },
    {
      _v: 3,
      bubbleId: "8c2f4b6e-3a1d-4c5b-9e7f-1a2b3c4d5e6f",
      type: 2,
      text: "",
      createdAt: "2026-06-01T18:33:46.020Z",
      capabilityType: 15,
      tokenCount: { inputTokens: 0, outputTokens: 0 },
      toolFormerData: {
        tool: 40,
        toolIndex: 0,
        modelCallId: "",
        toolCallId: "tool_0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5",
        status: "completed",
        name: "read_file_v2",
        params: JSON.stringify({ targetFile: "/Users/ben/projects/temp/cursortest2/notes.md", charsLimit: 1000000 }),
        result: JSON.stringify({
          contents: "fixture — feature elicitation\nthis file will be edited and searched.\n",
          totalLinesInFile: 2,
        }),
      },
    },
    {
      _v: 3,
      bubbleId: "9d3a5c7e-4b2f-4d6c-8e1a-2b3c4d5e6f70",
      type: 2,
      text: "`notes.md` has 11 words.",
      createdAt: "2026-06-01T18:33:52.300Z",
      tokenCount: { inputTokens: 9816, outputTokens: 41 },
      modelInfo: { modelName: "composer-1" },
    },
  ];
  const legacy = {
    composerId: LEGACY_ID,
    name: "Rename the config loader",
    createdAt: 1733000000000,
    lastUpdatedAt: 1733000090000,
    status: "completed",
    hasLoaded: true,
    text: "",
    richText: "",
    conversation: [
      {
        type: 1,
        bubbleId: "a0c1e2f3-0000-4000-8000-000000000001",
        text: "Rename loadConfig to readConfig everywhere.",
        richText: "",
        context: { fileSelections: [{ uri: { fsPath: "/home/dev/shop/src/config.ts", path: "/home/dev/shop/src/config.ts" } }] },
      },
      {
        type: 2,
        bubbleId: "a0c1e2f3-0000-4000-8000-000000000002",
        text: "Renamed it in `src/config.ts`:\n\n```ts\nexport function readConfig() {}\n```",
        codeBlocks: [{ content: "export function readConfig() {}", languageId: "typescript" }],
        timingInfo: {
          clientStartTime: 4745281.3,
          clientRpcSendTime: 1733000030000,
          clientSettleTime: 1733000052000,
          clientEndTime: 1733000052000,
        },
      },
    ],
  };
  const global = {
    items: [
      [
        "composer.composerHeaders",
        {
          allComposers: [
            dump.head,
            {
              type: "head",
              composerId: SUBAGENT_ID,
              name: "Count words in notes.md",
              createdAt: 1780338824400,
              lastUpdatedAt: 1780338832300,
              unifiedMode: "agent",
              isArchived: false,
              workspaceIdentifier: (dump.head as { workspaceIdentifier: unknown }).workspaceIdentifier,
            },
          ],
        },
      ],
      ["workbench.view.extensions.state.hidden", "[]"],
    ] as Row[],
    kv: [
      ...real.kv,
      [
        `composerData:${SUBAGENT_ID}`,
        {
          _v: 16,
          composerId: SUBAGENT_ID,
          name: "Count words in notes.md",
          createdAt: 1780338824400,
          lastUpdatedAt: 1780338832300,
          status: "completed",
          unifiedMode: "agent",
          isAgentic: true,
          modelConfig: { modelName: "default", maxMode: false },
          subagentInfo: { parentComposerId: parent, conversationLengthAtSpawn: 21 },
          fullConversationHeadersOnly: child.map(({ bubbleId, type }) => ({ bubbleId, type })),
          conversationMap: {},
        },
      ],
      ...child.map((b): Row => [`bubbleId:${SUBAGENT_ID}:${b.bubbleId}`, b]),
      [
        `bubbleId:${SUBAGENT_ID}:7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918`,
        { _v: 3, bubbleId: "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918", type: 2, text: "An answer regenerated away: no header lists it." },
      ],
      [`composerData:${LEGACY_ID}`, legacy],
      [
        "composerData:f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9",
        {
          _v: 16,
          composerId: "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9",
          createdAt: 1780339000000,
          status: "none",
          fullConversationHeadersOnly: [],
          conversationMap: {},
        },
      ],
      [
        `checkpointId:${parent}:78b538ed-72ac-4d9d-928a-600dad480e64`,
        { files: [], nonExistentFiles: [], newlyCreatedFolders: [], activeInlineDiffs: [] },
      ],
      [
        "agentKv:blob:0d4e6f9a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f8091a2b3c4d5",
        { role: "system", content: "You are a coding agent." },
      ],
    ] as Row[],
  };
  const workspace = {
    items: [
      [
        "workbench.panel.aichat.view.aichat.chatdata",
        {
          tabs: [
            {
              tabId: "5b3c7a51-5c5f-4f70-a1a0-6a3b3f1b2c11",
              chatTitle: "What does this regex match?",
              lastSendTime: 1716200000000,
              bubbles: [
                {
                  type: "user",
                  id: "e1f0a1b2-0000-4000-8000-000000000001",
                  text: "What does /a+b/ match?",
                  selections: [{ text: "const re = /a+b/;" }],
                },
                {
                  type: "ai",
                  id: "e1f0a1b2-0000-4000-8000-000000000002",
                  rawText: "One or more `a` followed by a `b`.",
                  modelType: "gpt-4",
                },
                { type: "user", id: "e1f0a1b2-0000-4000-8000-000000000003", text: "And /a*b/?" },
                {
                  type: "ai",
                  id: "e1f0a1b2-0000-4000-8000-000000000004",
                  rawText: "Zero or more `a`, then `b`.",
                  modelType: "claude-3.5-sonnet",
                },
              ],
            },
            { tabId: "6c4d8b62-6d60-4081-b2b1-7b4c4f2c3d22", chatTitle: "New Chat", lastSendTime: 1716200500000, bubbles: [] },
          ],
        },
      ],
      [
        "composer.composerData",
        {
          allComposers: [{ type: "head", composerId: LEGACY_ID, name: "Rename the config loader", createdAt: 1733000000000 }],
          selectedComposerIds: [LEGACY_ID],
          hasMigratedComposerData: true,
        },
      ],
      ["aiService.prompts", [{ text: "What does /a+b/ match?", commandType: 4 }]],
      [
        "aiService.generations",
        [
          {
            unixMs: 1716200000000,
            generationUUID: "2f3e4d5c-6b7a-4890-a1b2-c3d4e5f60718",
            type: "chat",
            textDescription: "What does /a+b/ match?",
          },
        ],
      ],
      ["workbench.explorer.treeViewState", "{}"],
    ] as Row[],
  };
  return { global, workspace };
}

/** Writes the synthetic databases under `user` (a Cursor `User` folder). */
export function writeSyntheticCursorUser(user = SYNTHETIC_CURSOR_USER): { global: string; workspace: string } {
  const rows = syntheticCursorRows();
  const global = path.join(user, "globalStorage", "state.vscdb");
  const workspace = path.join(user, "workspaceStorage", SYNTHETIC_WORKSPACE_ID, "state.vscdb");
  for (const [file, content] of [
    [global, rows.global],
    [workspace, rows.workspace],
  ] as const) {
    rmSync(file, { force: true });
    const db = writeCursorState(file, content);
    db.exec("VACUUM");
    db.close();
  }
  return { global, workspace };
}
