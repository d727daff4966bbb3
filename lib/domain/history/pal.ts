/**
 * PAL's counting and file-formatting rules, for the history builder's "pal" mode. Pure: file
 * content, size and modification time come from a snapshot the caller supplies.
 *
 * Sources verified:
 * - ModelContext.estimate_tokens: `len(text) // 3` ("Conservative estimate")
 *     tanji-dg/pal-mcp-server utils/model_context.py @ 11cce914bb9828a7375d89f47a27dac72b34c91c
 *     (same in 2000teddy/pal-mcp-server @ 31ceacdb, quiteDEADlee/pal-mcp-server @ 5deeb70e,
 *     tmcinerney/pal-mcp-server @ 0e757db8; one fork, dwin/pal-mcp-server @ 1baabdeb, delegates
 *     to token_utils instead, a local change).
 * - utils.token_utils.estimate_tokens: `len(text) // 4`
 *     starbaser/pal-mcp-server utils/token_utils.py @ 24bec73b59f68a52b7e45410492f36a5c454f0ba
 *     (BeehiveInnovations/zen-mcp-server utils/token_utils.py @ 6c9521fd wraps the same // 4 in a cache).
 * - utils.file_utils.estimate_file_tokens: `int(os.path.getsize(path) / get_token_estimation_ratio(path))`,
 *   read_file_content's markers, _normalize_line_endings, the 1,000,000-byte max_size:
 *     BeehiveInnovations/zen-mcp-server utils/file_utils.py @ 5c357f397a928ff1d2ea9a8fe4a342716eb7dc5e
 *     laurigates/pal-mcp-server utils/file_utils.py @ 7aee94a967d474624f267faadab41fc4fbf89398
 *   The marker without "(Last modified: ...)" is the earlier form, e.g.
 *     BeehiveInnovations/zen-mcp-server utils/file_utils.py @ f83e8e517abed08239ccc7f476570bbbf7f53d61
 * - utils.file_types.TOKEN_ESTIMATION_RATIOS / get_token_estimation_ratio (default 3.5):
 *     starbaser/pal-mcp-server utils/file_types.py @ 2737fc94b4e881707bdb6f4336de57320b4a1a4a
 *     (the same table in a second copy found by content search).
 *
 * Conversation history embeds files WITHOUT line numbers: build_conversation_history calls
 * read_file_content(file_path) with include_line_numbers=None, and should_add_line_numbers(None)
 * returns False ("Default: DO NOT add line numbers"). Line endings are still normalised to \n.
 */
import { codePointLength } from "../tokens/tokenizer";

/** ModelContext.estimate_tokens: code points // 3. PAL's budgeting counter. */
export function palCountTokens(text: string): number {
  return Math.floor(codePointLength(text) / 3);
}

/** utils.token_utils.estimate_tokens: code points // 4. PAL's reported total. */
export function palReportTokens(text: string): number {
  return Math.floor(codePointLength(text) / 4);
}

/** read_file_content's default max_size: larger files are replaced by a "FILE TOO LARGE" block. */
const PAL_MAX_FILE_BYTES = 1_000_000;

/** utils/file_types.py TOKEN_ESTIMATION_RATIOS: bytes per token by extension. */
const PAL_TOKEN_ESTIMATION_RATIOS: Readonly<Record<string, number>> = {
  ".py": 3.5,
  ".js": 3.2,
  ".ts": 3.3,
  ".jsx": 3.1,
  ".tsx": 3.0,
  ".java": 3.6,
  ".cpp": 3.7,
  ".c": 3.8,
  ".go": 3.9,
  ".rs": 3.5,
  ".php": 3.3,
  ".rb": 3.6,
  ".swift": 3.4,
  ".kt": 3.5,
  ".scala": 3.2,
  ".sh": 4.1,
  ".bat": 4.0,
  ".ps1": 3.8,
  ".sql": 3.8,
  ".json": 2.5,
  ".yaml": 3.0,
  ".yml": 3.0,
  ".xml": 2.8,
  ".toml": 3.2,
  ".md": 4.2,
  ".txt": 4.0,
  ".rst": 4.1,
  ".html": 2.9,
  ".css": 3.4,
  ".log": 4.5,
  ".csv": 3.1,
  ".dockerfile": 3.7,
  ".tf": 3.5,
};

/** get_token_estimation_ratio's fallback for unknown extensions. */
const PAL_DEFAULT_TOKEN_RATIO = 3.5;

/** A file's content as the caller captured it (a snapshot, or a read inside an allowed root). */
export type FileSnapshot = {
  ok: true;
  /** Decoded text. */
  content: string;
  /** The file's mtime, for PAL's "(Last modified: ...)" marker. Without it the older marker is used. */
  modifiedAt?: Date | string | number | null;
  /** The file's size on disk in bytes. Defaults to the UTF-8 length of `content`. */
  sizeBytes?: number | null;
};

export type FileReadResult = FileSnapshot | { ok: false; reason: string };

/**
 * Number of bytes `text` takes in UTF-8 (a lone surrogate as U+FFFD, 3 bytes).
 * @internal exported for its tests
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * Python's PurePosixPath(path).suffix (before 3.14): the last ".x" of the final component, "" if none.
 * @internal exported for its tests
 */
export function pathSuffix(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const name = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : "";
}

/** get_token_estimation_ratio: bytes per token for the path's extension. */
function palTokenRatio(path: string): number {
  return PAL_TOKEN_ESTIMATION_RATIOS[pathSuffix(path).toLowerCase()] ?? PAL_DEFAULT_TOKEN_RATIO;
}

/** The snapshot's size in bytes: `sizeBytes` when known, else the UTF-8 length of its content. */
function snapshotSizeBytes(file: FileSnapshot): number {
  return file.sizeBytes ?? utf8ByteLength(file.content);
}

/** estimate_file_tokens: int(size in bytes / ratio for the extension). */
export function palEstimateFileTokens(path: string, file: FileSnapshot): number {
  return Math.trunc(snapshotSizeBytes(file) / palTokenRatio(path));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/**
 * datetime.fromtimestamp(mtime, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S %Z"), e.g.
 * "2025-01-02 03:04:05 UTC". Null when there is no usable time. Seconds are truncated; a Date has
 * millisecond precision, so an mtime within half a microsecond of the next second (which Python
 * rounds up) can print one second earlier than PAL would.
 * @internal exported for its tests
 */
export function formatPalModifiedAt(value: Date | string | number | null | undefined): string | null {
  if (value == null) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)} ` +
    `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)} UTC`
  );
}

/**
 * Python's f"{n:,}" for a non-negative integer.
 * @internal exported for its tests
 */
export function pyThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** _normalize_line_endings: CRLF then lone CR to LF. */
function normalizeLineEndings(content: string): string {
  return content.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/**
 * The text read_file_content returns for a readable file, as embedded in conversation history:
 *
 *   "\n--- BEGIN FILE: {path} (Last modified: {mtime}) ---\n{content}\n--- END FILE: {path} ---\n"
 *
 * or, over 1,000,000 bytes, the "FILE TOO LARGE" block in place of the content. Without a
 * modification time the markers drop the "(Last modified: ...)" part (PAL's earlier form).
 */
export function palFileBlock(path: string, file: FileSnapshot): string {
  const modified = formatPalModifiedAt(file.modifiedAt);
  const stamp = modified ? ` (Last modified: ${modified})` : "";
  const size = snapshotSizeBytes(file);
  if (size > PAL_MAX_FILE_BYTES) {
    return (
      `\n--- FILE TOO LARGE: ${path}${stamp} ---\n` +
      `File size: ${pyThousands(size)} bytes (max: ${pyThousands(PAL_MAX_FILE_BYTES)})\n` +
      "--- END FILE ---\n"
    );
  }
  return `\n--- BEGIN FILE: ${path}${stamp} ---\n${normalizeLineEndings(file.content)}\n--- END FILE: ${path} ---\n`;
}
