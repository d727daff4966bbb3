import { SECRET_KIND_LABELS, type SecretKind } from "./rules";

/**
 * Finding the masks (`[GitHub token …a41f]`, written by maskFor) in text a page shows, so each can
 * be offered for a reveal. Pure: the pages and their client components share it.
 */

export type MaskPiece = { text: string } | { mask: string; kind: SecretKind; label: string; fingerprint: string };

const KIND_OF_LABEL = new Map(Object.entries(SECRET_KIND_LABELS).map(([kind, label]) => [label, kind as SecretKind]));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A mask: one of the labels, a space, the ellipsis and the fingerprint's last 4 hex digits. */
const MASK = new RegExp(
  `\\[(${[...KIND_OF_LABEL.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|")}) …([0-9a-f]{4})\\]`,
  "g",
);

/** Whether `text` holds at least one mask. */
export function hasMask(text: string): boolean {
  MASK.lastIndex = 0;
  return text.includes(" …") && MASK.test(text);
}

/** `text` cut into plain pieces and masks, in order; one plain piece when there is no mask. */
export function splitMasks(text: string): MaskPiece[] {
  if (!text.includes(" …")) return [{ text }];
  const pieces: MaskPiece[] = [];
  let at = 0;
  MASK.lastIndex = 0;
  for (let m = MASK.exec(text); m !== null; m = MASK.exec(text)) {
    if (m.index > at) pieces.push({ text: text.slice(at, m.index) });
    pieces.push({ mask: m[0], kind: KIND_OF_LABEL.get(m[1]!)!, label: m[1]!, fingerprint: m[2]! });
    at = m.index + m[0].length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at) });
  return pieces;
}
