/**
 * Plain role/content lists: a JSON array of `{role, content}` messages, the shape the
 * orchestrator's `conversation_history` parameter takes (its "Conversation History Integration
 * Design", summarised in docs/formats.md §11, "Plain text"), and what many tools dump as a chat history.
 *
 * Validation follows that design, entry by entry, never failing the whole list:
 * - an entry that is not an object is skipped;
 * - role must be one of user, assistant, system;
 * - content must be a string that is not blank; it is stored trimmed, as the design stores it.
 * An empty list, or one without a single valid entry, gives no thread (the design ignores the field
 * then) rather than an error. The design only knows a bare list, so a `{messages: [...]}` wrapper
 * is not accepted.
 *
 * The format has no ids and no times: one file is one thread whose key is the file name without its
 * extension (identity "name"), so re-importing the same file updates the same thread, and a renamed
 * file becomes a new thread; a list imported without a name is a new thread every time
 * (lib/imports/import-file.ts). A turn's key is its index in the list, so skipped entries do not shift the
 * others' keys; its id also holds its role and content, so an edited entry is a difference.
 */
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { fileStem, ImportFormatError, isObject, type ImportedTurn, type ParsedSource, type SkippedEntry } from "./types";
import { collapse } from "./text";
import { isRealPrompt } from "@/lib/domain/threads/title";

const PLAIN_ROLES = ["user", "assistant", "system"] as const;
type PlainRole = (typeof PLAIN_ROLES)[number];

function isPlainRole(value: unknown): value is PlainRole {
  return typeof value === "string" && (PLAIN_ROLES as readonly string[]).includes(value);
}

/**
 * A cheap check on the parsed document: a list whose first object has a string role and a string
 * content. Exclusive with the other JSON formats: pydantic-ai messages have `kind`/`parts` and no
 * role, ChatGPT conversations have `mapping`, PAL threads `thread_id`, a Threadline export is an
 * object with `format`.
 */
export function looksLikePlainMessages(doc: unknown, fileName: string): boolean {
  if (/\.jsonl$/i.test(fileName) || !Array.isArray(doc)) return false;
  const first = doc.find(isObject);
  if (!first) return false;
  if ("kind" in first || "parts" in first || "mapping" in first || "thread_id" in first) return false;
  return typeof first.role === "string" && typeof first.content === "string";
}

export function parsePlainMessages(doc: unknown, source: { name: string }): ParsedSource {
  if (!Array.isArray(doc)) {
    throw new ImportFormatError(`${source.name}: not a role/content list (expected a JSON array of {"role", "content"} objects)`);
  }
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  if (doc.length === 0) {
    warnings.push(`${source.name}: the list is empty, nothing to import`);
    return { format: "plain", threads: [], skipped, warnings };
  }

  const turns: ImportedTurn[] = [];
  doc.forEach((entry: JsonValue, index) => {
    const path = `[${index}]`;
    if (!isObject(entry)) {
      skipped.push({ path, reason: "must be an object with role and content" });
      return;
    }
    if (!isPlainRole(entry.role)) {
      skipped.push({ path, reason: `role: must be one of ${PLAIN_ROLES.join(", ")}` });
      return;
    }
    if (typeof entry.content !== "string" || !entry.content.trim()) {
      skipped.push({ path, reason: "content: must be a non-empty string" });
      return;
    }
    // The design marks cut content with `truncated: true`; keep that, it says the text is partial.
    const metadata: JsonObject | null = entry.truncated === true ? { truncated: true } : null;
    turns.push({ key: String(index), role: entry.role, content: entry.content.trim(), ...(metadata ? { metadata } : {}) });
  });

  if (turns.length === 0) {
    warnings.push(`${source.name}: no valid message in the list, nothing to import`);
    return { format: "plain", threads: [], skipped, warnings };
  }
  const firstUser = turns.find((t) => t.role === "user" && isRealPrompt(t.content));
  return {
    format: "plain",
    threads: [
      {
        key: fileStem(source.name, "plain"),
        identity: "name",
        title: firstUser ? collapse(firstUser.content) : null,
        toolName: "import",
        turns,
      },
    ],
    skipped,
    warnings,
  };
}
