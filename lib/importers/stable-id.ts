import { createHash, type Hash } from "node:crypto";
import { isUuid } from "@/lib/domain/ids";
import type { ImportFormat } from "./types";

/**
 * A name-based UUID: the same namespace and name always give the same id. Shaped like RFC 4122
 * version 5 (SHA-1, version and variant bits set) but not that algorithm: the namespace is hashed
 * as text (then a NUL, then the name), not as a namespace UUID's 16 bytes. Kept as it is: stored
 * imports are found again by these ids.
 */
export function stableUuid(namespace: string, name: string): string {
  return uuidOf(createHash("sha1").update(namespace).update("\u0000").update(name));
}

function uuidOf(sha1: Hash): string {
  const hash = sha1.digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The thread id of an imported conversation: derived from format and key, so re-importing (from
 * the same file or another copy) finds the same thread. PAL threads keep their own UUIDs, which
 * their parent links use.
 */
export function importedThreadId(format: ImportFormat, key: string): string {
  return format === "pal" && isUuid(key) ? key.toLowerCase() : stableUuid("threadline:thread", `${format}:${key}`);
}

/**
 * The id of an imported turn: derived from its thread, its key and `held`, everything stored of
 * it. A turn whose content changed under the same key (an edited list entry, which is keyed by its
 * position; a streamed response that grew; a message the source rewrote) is then another turn, and
 * the writer rewrites the thread from there instead of keeping the stale copy.
 */
export function importedTurnId(threadId: string, turnKey: string, held: readonly (string | null)[] = []): string {
  const hash = createHash("sha1").update("threadline:turn").update("\u0000").update(`${threadId}:${turnKey}`);
  // Each value is length-prefixed, so no two different lists hash alike.
  for (const value of held) hash.update(value === null ? "\u0000-" : `\u0000${value.length}:`).update(value ?? "");
  return uuidOf(hash);
}
