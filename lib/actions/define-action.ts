import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { authEnabled, requireAdmin, requirePrincipal } from "@/lib/auth/principal";
import { readerFrom } from "@/lib/auth/reader";
import { requireReadableThread } from "@/lib/auth/thread-access";
import type { Reader } from "@/lib/domain/access";
import { AppError } from "@/lib/domain/errors";
import { parseOrThrow, type FieldIssue } from "@/lib/domain/parse";
import type { ActionError, ActionResult } from "./result";

/**
 * A server action: its input checked with `schema` (lib/validation's, as the REST API's), then
 * `run`, with whose action it is; expected failures (AppError) answer their code, message and field
 * errors, anything else is logged here, once, and answers a message that names no internals. A
 * redirect() (or notFound()) in `run` is Next.js's own signal and goes through. An input that
 * names a thread (`threadId`) the person may not read answers as a thread that does not exist,
 * here, for every action (an action is a POST that can name any thread, whatever page it came from).
 */
export function defineAction<S extends z.ZodType, T>(name: string, schema: S, run: (input: z.output<S>, reader: Reader) => Promise<T>) {
  return async (input: z.input<S>): Promise<ActionResult<T>> => {
    try {
      const reader = authEnabled() ? await readerFrom(await headers()) : null;
      const parsed = parseOrThrow(schema, input);
      const threadId = (parsed as { threadId?: unknown } | null)?.threadId;
      if (typeof threadId === "string") await requireReadableThread(reader, threadId);
      return { ok: true, data: await run(parsed, reader) };
    } catch (error) {
      unstable_rethrow(error);
      return { ok: false, error: actionError(name, error) };
    }
  };
}

type FormActionSpec<S extends z.ZodType> = {
  schema: S;
  /** The schema's input from the form's own fields (React adds $ACTION_* entries of its own). */
  read: (form: FormData) => unknown;
  /** What a refused form keeps showing (never a secret). */
  echo?: (form: FormData) => Record<string, string>;
  /** Needs no session: the first admin is made on the setup page, before anyone can sign in. */
  public?: true;
};

/** A form's server action, for useActionState: the same contract, with the form's values echoed on failure. */
export function defineFormAction<S extends z.ZodType, T>(name: string, spec: FormActionSpec<S>, run: (input: z.output<S>) => Promise<T>) {
  return async (_previous: ActionResult<T> | null, form: FormData): Promise<ActionResult<T>> => {
    try {
      if (!spec.public) await signedIn();
      return { ok: true, data: await run(parseOrThrow(spec.schema, spec.read(form))) };
    } catch (error) {
      unstable_rethrow(error);
      const failure = actionError(name, error);
      // The fields say what is wrong with each; the line by the button points at them.
      const message = failure.fieldErrors ? "Check the highlighted fields." : failure.message;
      return { ok: false, error: { ...failure, message, ...(spec.echo ? { values: spec.echo(form) } : {}) } };
    }
  };
}

/**
 * A server action is a POST endpoint: with sign-in on it needs a session (or token), checked here
 * as well as in the proxy.
 */
async function signedIn(): Promise<void> {
  if (authEnabled()) await requirePrincipal(await headers());
}

/** Inside an action's `run`: refuses anyone but an admin when sign-in is on. */
export async function adminOnly(what: string): Promise<void> {
  if (authEnabled()) await requireAdmin(await headers(), what);
}

function actionError(name: string, error: unknown): ActionError {
  if (error instanceof AppError) {
    const fieldErrors = fieldErrorsOf(error.details);
    return { code: error.code, message: error.message, ...(fieldErrors ? { fieldErrors } : {}) };
  }
  // The name and stack only: a database error's message may quote the values written (secrets).
  const where = error instanceof Error ? `${error.name}\n${error.stack?.split("\n").slice(1).join("\n") ?? ""}` : typeof error;
  console.error(`[threadline] the ${name} action failed:`, where);
  return { code: "internal", message: `${name[0]!.toUpperCase()}${name.slice(1)} failed; see the server log.` };
}

/** AppError details that list field issues, as field -> first message. */
function fieldErrorsOf(details: unknown): Record<string, string> | undefined {
  if (!Array.isArray(details)) return undefined;
  const issues = details.filter((d): d is FieldIssue => typeof d?.field === "string" && typeof d?.message === "string");
  if (issues.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const issue of issues) out[issue.field] ??= issue.message;
  return out;
}
