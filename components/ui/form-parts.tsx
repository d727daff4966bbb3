import { fieldError, formMessage, type FormState } from "@/lib/actions/result";

/**
 * A settings form's last row: its submit button (saying `busyLabel` while the action runs) and
 * the action's answer beside it, as a status line.
 */
export function FormSubmitRow({
  state,
  pending,
  label,
  busyLabel,
  className = "",
}: Readonly<{ state: FormState; pending: boolean; label: string; busyLabel: string; className?: string }>) {
  return (
    <div className={`flex items-center gap-3 ${className}`}>
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? busyLabel : label}
      </button>
      {state && (
        <span role="status" className={`text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
          {formMessage(state)}
        </span>
      )}
    </div>
  );
}

/** What a refused form says about one field, beside it (`<field>-error`, for the input's aria-describedby). */
export function FieldError({ state, field }: Readonly<{ state: FormState; field: string }>) {
  const message = fieldError(state, field);
  return message ? (
    <span id={`${field}-error`} role="alert" className="text-xs text-red-700">
      {message}
    </span>
  ) : null;
}
