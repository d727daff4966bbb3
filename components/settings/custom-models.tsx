"use client";

import { useActionState, useState, useTransition } from "react";
import type { FormState } from "@/lib/actions/result";
import { FieldError, FormSubmitRow } from "@/components/ui/form-parts";
import { addCustomModelAction, deleteCustomModelAction } from "@/lib/actions/settings";

export function CustomModelForm({ tokenizers }: { tokenizers: { id: string; label: string }[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(addCustomModelAction, null);
  return (
    <form action={action} className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2" aria-label="Add a custom model">
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Name</span>
        <input name="name" required placeholder="e.g. my-finetune-7b" className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="name" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Context window (tokens)</span>
        <input name="contextWindow" required inputMode="numeric" placeholder="32768" className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="contextWindow" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Max output (optional)</span>
        <input name="maxOutputTokens" inputMode="numeric" placeholder="8192" className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="maxOutputTokens" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Tokenizer</span>
        <select name="tokenizer" defaultValue="o200k_base" className="rounded border border-zinc-300 bg-white px-2 py-2">
          {tokenizers.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
        <FieldError state={state} field="tokenizer" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Input price, USD per million tokens (optional)</span>
        <input name="inputPricePerMTok" inputMode="decimal" placeholder="0.5" className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="inputPricePerMTok" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Output price, USD per million tokens (optional)</span>
        <input name="outputPricePerMTok" inputMode="decimal" placeholder="1.5" className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="outputPricePerMTok" />
      </label>
      <FormSubmitRow state={state} pending={pending} label="Add model" busyLabel="Adding…" className="sm:col-span-2" />
    </form>
  );
}

export function DeleteCustomModelButton({ name }: { name: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await deleteCustomModelAction({ name });
            if (!result.ok) setMessage(result.error.message);
          })
        }
        className="rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100"
        aria-label={`Remove ${name}`}
      >
        Remove
      </button>
      {message && (
        <span role="alert" className="text-xs text-red-700">
          {message}
        </span>
      )}
    </span>
  );
}
