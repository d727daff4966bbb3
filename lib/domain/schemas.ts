// zod schemas of the domain's values (JSON, turn parts, ids, roles, file snapshots), shared by the
// REST and MCP request schemas (lib/validation) and the native document format.
import { z } from "zod";
import { UUID_PATTERN } from "./ids";
import { TURN_ROLES, type JsonValue } from "./types";

const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

/** Where the first own "__proto__" key sits in a parsed JSON value, or null when there is none. */
function findProtoKey(root: unknown): PropertyKey[] | null {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { value, path } = entry;
    if (typeof value !== "object" || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) return [...path, "__proto__"];
    // Pushed in reverse so that the first such key in document order is the one named.
    const children = Object.entries(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i]!;
      if (typeof child === "object" && child !== null) stack.push({ value: child, path: [...path, Array.isArray(value) ? i : key] });
    }
  }
  return null;
}

/**
 * zod skips a "__proto__" key in records and loose objects without a word (assigning it would
 * set the prototype), so such a key was silently dropped. Wrap each request body schema in this
 * to refuse one instead, naming the field. It walks the whole body once, before any union (whose
 * errors would only say "Invalid input"). Only the body is wrapped, not each field: JSON Schema
 * generation drops the defaults of a wrapped (transforming) schema.
 */
export function refuseProtoKeys<S extends z.ZodType>(schema: S) {
  return z.preprocess((value, ctx) => {
    const path = findProtoKey(value);
    if (path) ctx.addIssue({ code: "custom", path, message: '"__proto__" is not allowed as a key', input: value });
    return value;
  }, schema);
}

/** Drops "__proto__" keys unless the body schema is wrapped in refuseProtoKeys. */
export const jsonObjectSchema = z.record(z.string(), jsonValueSchema);

export const uuidSchema = z
  .string()
  .regex(UUID_PATTERN, "must be a UUID")
  .transform((id) => id.toLowerCase());

export const roleSchema = z.enum(TURN_ROLES, { error: `must be one of ${TURN_ROLES.join(", ")}` });

const shortText = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
export const toolNameSchema = shortText(200);
export const modelFieldSchema = shortText(200);
export const pathListSchema = z.array(z.string().min(1, "must not be empty").max(4096)).max(10_000);

/** Structured parts; extra keys are kept so importers can carry source-specific detail. */
const turnPartSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("thinking"), text: z.string() }),
  z.looseObject({ type: z.literal("tool_call"), id: z.string().min(1), name: z.string().min(1), arguments: jsonValueSchema.optional() }),
  z.looseObject({
    type: z.literal("tool_result"),
    toolCallId: z.string().min(1),
    content: jsonValueSchema,
    isError: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal("image"), path: z.string().optional(), mediaType: z.string().optional(), alt: z.string().optional() }),
  z.looseObject({
    type: z.literal("compaction"),
    trigger: z.string().nullable().optional(),
    tokensBefore: z.number().int().min(0).nullable().optional(),
    tokensAfter: z.number().int().min(0).nullable().optional(),
  }),
]);
export const turnPartsSchema = z.array(turnPartSchema).max(10_000);

export const fileSnapshotsSchema = z
  .array(z.strictObject({ path: z.string().min(1, "must not be empty").max(4096), content: z.string() }))
  .max(1_000);

/** Every snapshot must be of a file the turn names, once. */
export function checkSnapshotPaths(
  turn: { files?: string[]; fileSnapshots?: { path: string }[] },
  ctx: z.RefinementCtx,
  at: (string | number)[] = [],
): void {
  const named = new Set(turn.files ?? []);
  const seen = new Set<string>();
  (turn.fileSnapshots ?? []).forEach((snapshot, i) => {
    if (!named.has(snapshot.path)) {
      ctx.addIssue({ code: "custom", path: [...at, "fileSnapshots", i, "path"], message: "must be one of this turn's files" });
    } else if (seen.has(snapshot.path)) {
      ctx.addIssue({ code: "custom", path: [...at, "fileSnapshots", i, "path"], message: "has a snapshot already" });
    }
    seen.add(snapshot.path);
  });
}
