/**
 * Client-safe: what every server action answers. One shape for all of them, so a component reads
 * `result.ok`, then `result.data` or `result.error.message` (and `fieldErrors` beside the fields).
 */
export type ActionError = {
  /** An AppError code, or "internal" for a failure the server log explains. */
  code: string;
  message: string;
  /** Field name -> what is wrong with it, for forms. */
  fieldErrors?: Record<string, string>;
  /** What a refused form sent (never secrets), so it keeps what was typed. */
  values?: Record<string, string>;
};

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

/** A form's state under useActionState: nothing yet, or the last result (success says a message). */
export type FormState = ActionResult<{ message: string }> | null;

/** What a form shows beside its button: the success message, or the error's. */
export function formMessage(state: FormState): string | null {
  return state === null ? null : state.ok ? state.data.message : state.error.message;
}

/** The message for one field of a refused form, if it has one. */
export function fieldError(state: FormState, field: string): string | undefined {
  return state !== null && !state.ok ? state.error.fieldErrors?.[field] : undefined;
}
