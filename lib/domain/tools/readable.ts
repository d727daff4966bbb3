/**
 * Tool arguments no renderer knows, as a list a person reads: each key with its value as text
 * (strings as they are, with their real line breaks; numbers and booleans as written; lists and
 * objects as indented "key: value" and "- item" lines, never JSON). Pure, linear in the value.
 */
import type { JsonValue } from "../types";

export type ReadableField = { key: string; value: string };

/** Depth past which nested values are summarised: a list of lists of lists is not read by anyone. */
const MAX_DEPTH = 6;

/** A scalar as a person reads it; null for lists and objects. */
function scalar(value: JsonValue): string | null {
  if (value === null) return "none";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

function indent(text: string, prefix: string): string {
  return text.split("\n").join(`\n${prefix}`);
}

function lines(value: JsonValue, depth: number, out: string[], pad: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(`${pad}(empty list)`);
    for (const item of value) {
      const flat = scalar(item);
      if (flat !== null) out.push(`${pad}- ${indent(flat, `${pad}  `)}`);
      else if (depth >= MAX_DEPTH) out.push(`${pad}- …`);
      else {
        const nested: string[] = [];
        lines(item, depth + 1, nested, "");
        out.push(`${pad}- ${indent(nested.join("\n"), `${pad}  `)}`);
      }
    }
    return;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push(`${pad}(empty)`);
    for (const key of keys) {
      const item = value[key]!;
      const flat = scalar(item);
      if (flat !== null) out.push(`${pad}${key}: ${indent(flat, `${pad}  `)}`);
      else if (depth >= MAX_DEPTH) out.push(`${pad}${key}: …`);
      else {
        out.push(`${pad}${key}:`);
        lines(item, depth + 1, out, `${pad}  `);
      }
    }
    return;
  }
  out.push(`${pad}${scalar(value)}`);
}

/** Any value as readable text (see the module's note). */
function readableValue(value: JsonValue): string {
  const flat = scalar(value);
  if (flat !== null) return flat;
  const out: string[] = [];
  lines(value, 0, out, "");
  return out.join("\n");
}

/** An object's fields in order, each value readable; anything else as one field named "value". */
export function readableFields(args: JsonValue): ReadableField[] {
  if (args !== null && typeof args === "object" && !Array.isArray(args)) {
    return Object.keys(args).map((key) => ({ key, value: readableValue(args[key]!) }));
  }
  return [{ key: "value", value: readableValue(args) }];
}
