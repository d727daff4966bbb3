// Reading a Pi session file: the header, then one node per tree entry (v1 entries get a line key and the previous entry as parent).
import type { JsonObject, JsonValue } from "@/lib/domain/types";
import { ImportFormatError, isObject, type NumberedLine, type SkippedEntry } from "../types";

export type Json = Record<string, JsonValue>;

export const str = (value: JsonValue | undefined): string | null => (typeof value === "string" ? value : null);
export const num = (value: JsonValue | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** Drops undefined and null values, so metadata stays small and the same for the same entries. */
export function defined(values: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** One entry of the session tree: its key (the entry id; the line number in v1), its parent's key, its line and the entry itself. */
export type PiNode = { key: string; parentKey: string | null; line: number; entry: Json };

export type PiSessionFile = {
  header: Json;
  headerLine: number;
  /** 1 when the header has no version (legacy files). */
  version: number;
  /** In file order; a parent always precedes its children in a well-formed file. */
  nodes: PiNode[];
  /**
   * Every parsed line in order, the header first: v1 compactions point back into this list with
   * `firstKeptEntryIndex` (pi's own migration indexes the parsed lines, skipping blank and broken ones).
   */
  parsed: PiNode[];
  skipped: SkippedEntry[];
  warnings: string[];
};

/** The header line: `{type:"session", id, ...}` with a version (2, 3, ...), or a v1 header carrying cwd or the model. */
export function isPiHeader(value: unknown): value is Json {
  if (!isObject(value) || value.type !== "session" || typeof value.id !== "string") return false;
  if (typeof value.version === "number") return Number.isInteger(value.version) && value.version >= 1;
  return (
    value.version === undefined &&
    (typeof value.cwd === "string" || typeof value.modelId === "string" || typeof value.provider === "string")
  );
}

export function readPiSession(lines: NumberedLine[], name: string): PiSessionFile {
  const skipped: SkippedEntry[] = [];
  const warnings: string[] = [];
  const nodes: PiNode[] = [];
  const parsed: PiNode[] = [];
  const seen = new Set<string>();
  let header: Json | null = null;
  let headerLine = 0;
  let version = 1;
  let previousKey: string | null = null;
  const lastLine = lines.findLast((l) => l.text.trim() !== "")?.line;

  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!header)
        throw new ImportFormatError(
          `${name}: line ${line}: not valid JSON, and a Pi session starts with its {"type":"session"} header`,
          line,
        );
      // pi appends as it runs: a last line cut short is a session still being written.
      skipped.push({ line, reason: line === lastLine ? "truncated last line (the session may still be running)" : "not valid JSON" });
      continue;
    }
    if (!header) {
      if (!isPiHeader(value))
        throw new ImportFormatError(
          `${name}: line ${line}: not a Pi session header (expected {"type":"session","id":...} with a version, or a v1 header with cwd/provider/modelId)`,
          line,
        );
      header = value;
      headerLine = line;
      version = typeof value.version === "number" ? value.version : 1;
      if (version > 3)
        warnings.push(`session version ${version} is newer than the versions this importer knows (1 to 3): read as version 3`);
      parsed.push({ key: "header", parentKey: null, line, entry: value });
      continue;
    }
    if (!isObject(value)) {
      skipped.push({ line, reason: "not a JSON object" });
      continue;
    }
    if (typeof value.type !== "string") {
      skipped.push({ line, reason: "type: missing" });
      continue;
    }
    if (value.type === "session") {
      skipped.push({ line, reason: "a second session header" });
      continue;
    }
    let node: PiNode;
    if (version === 1) {
      // Legacy: no ids; the file is one linear history. The line number is a key that appending never changes.
      node = { key: String(line), parentKey: previousKey, line, entry: value };
    } else {
      if (typeof value.id !== "string" || !value.id) {
        skipped.push({ line, reason: "id: missing (a version 2+ entry needs one to sit in the tree)" });
        continue;
      }
      if (seen.has(value.id)) {
        skipped.push({ line, reason: `id ${value.id}: a duplicate; the first entry with it is kept` });
        continue;
      }
      node = { key: value.id, parentKey: typeof value.parentId === "string" ? value.parentId : null, line, entry: value };
    }
    seen.add(node.key);
    previousKey = node.key;
    nodes.push(node);
    parsed.push(node);
  }
  if (!header) throw new ImportFormatError(`${name}: the file is empty: no Pi session header`);
  return { header, headerLine, version, nodes, parsed, skipped, warnings };
}
