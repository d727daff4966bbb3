// What a laptop sends of its files when it pushes (issue 39): every secret replaced by its
// redaction marker (lib/domain/secrets), so that the server never holds the raw value.
import { keywordsIn, mapStrings, redactSecrets } from "@/lib/domain/secrets/detect";

/**
 * One JSON line with the secrets in its strings redacted: written again only when one was found
 * (otherwise the line as it was, byte for byte). A line that is not JSON is redacted as text.
 */
function redactJsonLine(line: string): string {
  // No rule's keyword in the line: no secret in any of its strings either (JSON writes them as they are).
  if (keywordsIn(line).size === 0) return line;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return redactSecrets(line);
  }
  let changed = false;
  const redacted = mapStrings(value, (text) => {
    const out = redactSecrets(text);
    if (out !== text) changed = true;
    return out;
  });
  return changed ? JSON.stringify(redacted) : line;
}

/** A piece of a file of JSON lines (complete lines), each line redacted. */
export function redactJsonLines(text: string): string {
  return text
    .split("\n")
    .map((line) => redactJsonLine(line))
    .join("\n");
}

/** A whole JSON document with the secrets in its strings redacted; any other text (Markdown) redacted as text. */
export function redactDocument(text: string): string {
  return redactJsonLine(text);
}

/** Text that is not JSON (an Aider history's Markdown): redacted as it is. */
export function redactText(text: string): string {
  return redactSecrets(text);
}
