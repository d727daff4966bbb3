import { z } from "zod";
import { MACHINE_NAME, pushedPathProblem } from "@/lib/domain/push/push-files";

const machine = z
  .string({ error: "must name the laptop (threadline push --machine NAME)" })
  .regex(MACHINE_NAME, "must be 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit");

const offset = z.number().int("must be a whole number of bytes").nonnegative("must not be negative").max(Number.MAX_SAFE_INTEGER);

/** GET /api/push?machine=NAME: what the server holds of that laptop's files. */
export const pushStateQuerySchema = z.strictObject({ machine });

const pushedFileSchema = z
  .strictObject({
    /** The file's path under the laptop's home folder, with `/`. */
    path: z.string().superRefine((value, context) => {
      const problem = pushedPathProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
    /** How much of the file the laptop believes the server holds: a push from a stale belief is refused for that file. */
    base: offset,
    /** Where `content` starts in the laptop's file: `base` (it grew) or 0 (sent whole again). */
    from: offset,
    /** Where it ends. */
    to: offset,
    /** Hex SHA-256 of the laptop's file up to `to`. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be a hex SHA-256"),
    /** The bytes from `from` to `to`, as sent (redacted on the laptop unless --no-redact), in base64. */
    content: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64"),
    /** Whether this reaches the end of what the laptop has of the file now: only then is it imported. */
    complete: z.boolean(),
  })
  .refine((file) => file.from === 0 || file.from === file.base, { message: "from must be 0 or base", path: ["from"] })
  .refine((file) => file.to >= file.from, { message: "to must not be before from", path: ["to"] });

/** POST /api/push: the grown or changed files of one laptop. */
export const pushBatchSchema = z.strictObject({
  machine,
  /** The laptop's home folder: the file names threads show are the laptop's own. */
  home: z
    .string()
    .max(1024)
    .regex(/^(\/|[A-Za-z]:[\\/])/, "must be an absolute folder"),
  files: z.array(pushedFileSchema).min(1, "must hold at least one file").max(1000, "at most 1,000 files at a time"),
});

export type PushBatch = z.output<typeof pushBatchSchema>;
export type PushedFileChunk = PushBatch["files"][number];
