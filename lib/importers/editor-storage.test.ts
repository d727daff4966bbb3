import { describe, expect, it } from "vitest";
import { editorStorageTranscript, isLeftOutFolder } from "./editor-storage";
import { isTranscriptPath } from "./types";

const HOME = "/home/ada";
const CODE = `${HOME}/.config/Code/User`;
const CURSOR = `${HOME}/Library/Application Support/Cursor/User`;

describe("an editor's storage folders", () => {
  it("holds transcripts only in the agents' task folders and Cursor's databases", () => {
    const transcripts = [
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks/1760000000000/api_conversation_history.json`,
      `${CODE}/globalStorage/rooveterinaryinc.roo-cline/tasks/0198f0a2-uuid/api_conversation_history.json`,
      `${CURSOR}/globalStorage/kilocode.kilo-code/tasks/abc/api_conversation_history.json`,
      `${CURSOR}/globalStorage/state.vscdb`,
      `${CURSOR}/workspaceStorage/4f0c2a/state.vscdb`,
      `${HOME}/.cursor-server/data/User/globalStorage/state.vscdb`,
    ];
    for (const file of transcripts) {
      expect(editorStorageTranscript(file), file).toBe(true);
      expect(isTranscriptPath(file), file).toBe(true);
    }
    const others = [
      // A task's other files are read beside its history, never on their own.
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks/1760000000000/ui_messages.json`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks/1760000000000/task_metadata.json`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`,
      // Another extension's JSON, and VS Code's own key-value store: no conversations.
      `${CODE}/globalStorage/github.copilot-chat/commandEmbeddings.json`,
      `${CODE}/globalStorage/state.vscdb`,
      `${CODE}/workspaceStorage/4f0c2a/state.vscdb`,
      `${CURSOR}/workspaceStorage/4f0c2a/workspace.json`,
      `${CURSOR}/workspaceStorage/4f0c2a/anysphere.cursor-retrieval/embeddings.json`,
      `${CURSOR}/globalStorage/storage.json`,
      `${CURSOR}/globalStorage/state.vscdb.backup`,
    ];
    for (const file of others) {
      expect(editorStorageTranscript(file), file).toBe(false);
      expect(isTranscriptPath(file), file).toBe(false);
    }
  });

  it("leaves every other path to the other rules", () => {
    expect(editorStorageTranscript(`${HOME}/.claude/projects/p/s.jsonl`)).toBeNull();
    expect(editorStorageTranscript(`${HOME}/Downloads/tasks/1/api_conversation_history.json`)).toBeNull();
    expect(editorStorageTranscript(`${HOME}/User/notes.json`)).toBeNull();
  });
});

describe("isLeftOutFolder", () => {
  it("walks the agents' task folders and Cursor's workspace folders, and nothing else of an editor's storage", () => {
    const walked = [
      `${CODE}/globalStorage`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks/1760000000000`,
      `${CURSOR}/workspaceStorage`,
      `${CURSOR}/workspaceStorage/4f0c2a`,
      `${HOME}/.claude/projects/-home-ada-app`,
    ];
    for (const dir of walked) expect(isLeftOutFolder(dir), dir).toBe(false);
    const leftOut = [
      `${CODE}/globalStorage/github.copilot-chat`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/settings`,
      `${CODE}/globalStorage/saoudrizwan.claude-dev/tasks/1760000000000/checkpoints`,
      `${CURSOR}/workspaceStorage/4f0c2a/anysphere.cursor-retrieval`,
      `${HOME}/code/app/node_modules`,
      `${HOME}/code/app/.git`,
    ];
    for (const dir of leftOut) expect(isLeftOutFolder(dir), dir).toBe(true);
  });
});
