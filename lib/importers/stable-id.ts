import { createHash } from "node:crypto";
import { isUuid } from "@/lib/domain/ids";
import type { ImportFormat } from "./types";

/** RFC 4122 version 5 (SHA-1, name-based) UUID: the same name always gives the same id. */
export function stableUuid(namespace: string, name: string): string {
  const hash = createHash("sha1").update(namespace).update("\u0000").update(name).digest();
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

export function importedTurnId(threadId: string, turnKey: string): string {
  return stableUuid("threadline:turn", `${threadId}:${turnKey}`);
}
