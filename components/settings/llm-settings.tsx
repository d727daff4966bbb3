"use client";

import { useActionState } from "react";
import { saveLlmSettingsAction } from "@/lib/actions/llm-settings";
import { fieldError, type FormState } from "@/lib/actions/result";
import { FieldError, FormSubmitRow } from "@/components/ui/form-parts";

type Props = {
  /** Saved values (not the environment's): a blank field removes the saved one. */
  saved: {
    compactionModel: string | null;
    chatModel: string | null;
    openaiCompatibleBaseUrl: string | null;
    openaiCompatibleApiKeySet: boolean;
  };
  /** Where the OpenAI-compatible key comes from now, for the key field's hint. */
  apiKeyFromEnv: boolean;
};

/** The "Models and providers" settings form. The API key is write-only: the page never receives its value. */
export function LlmSettingsForm({ saved, apiKeyFromEnv }: Readonly<Props>) {
  const [state, action, pending] = useActionState<FormState, FormData>(saveLlmSettingsAction, null);
  const invalid = (field: string) =>
    fieldError(state, field) ? { "aria-invalid": true as const, "aria-describedby": `${field}-error` } : {};
  // A refused form shows what was typed; otherwise the saved values.
  const values = state !== null && !state.ok ? (state.error.values ?? null) : null;
  const keyStatus = saved.openaiCompatibleApiKeySet
    ? "A key is saved. Leave blank to keep it."
    : apiKeyFromEnv && saved.openaiCompatibleBaseUrl
      ? "OPENAI_COMPATIBLE_API_KEY is never sent to a base URL saved here; enter a key for this server if it needs one."
      : apiKeyFromEnv
        ? "Not saved here; OPENAI_COMPATIBLE_API_KEY is used. A key entered here overrides it."
        : "No key set (local servers often need none).";
  return (
    <form action={action} className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2" aria-label="Model settings">
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Default chat model</span>
        <input
          id="chatModel"
          name="chatModel"
          defaultValue={values?.chatModel ?? saved.chatModel ?? ""}
          placeholder="e.g. openai:gpt-4o-mini"
          autoComplete="off"
          spellCheck={false}
          className="rounded border border-zinc-300 px-3 py-2 font-mono"
          {...invalid("chatModel")}
        />
        <span className="mt-1 text-xs text-zinc-500">
          &quot;&lt;provider&gt;:&lt;model&gt;&quot;, preselected in the thread composer; blank uses THREADLINE_CHAT_MODEL.
        </span>
        <FieldError state={state} field="chatModel" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Compaction model</span>
        <input
          id="compactionModel"
          name="compactionModel"
          defaultValue={values?.compactionModel ?? saved.compactionModel ?? ""}
          placeholder="e.g. openai:gpt-4o-mini or openai-compatible:llama3.1:8b"
          autoComplete="off"
          spellCheck={false}
          className="rounded border border-zinc-300 px-3 py-2 font-mono"
          {...invalid("compactionModel")}
        />
        <span className="mt-1 text-xs text-zinc-500">
          &quot;&lt;provider&gt;:&lt;model&gt;&quot;; blank uses THREADLINE_COMPACTION_MODEL.
        </span>
        <FieldError state={state} field="compactionModel" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">OpenAI-compatible base URL</span>
        <input
          name="openaiCompatibleBaseUrl"
          inputMode="url"
          defaultValue={values?.openaiCompatibleBaseUrl ?? saved.openaiCompatibleBaseUrl ?? ""}
          placeholder="http://127.0.0.1:11434/v1"
          autoComplete="off"
          spellCheck={false}
          className="rounded border border-zinc-300 px-3 py-2 font-mono"
          {...invalid("openaiCompatibleBaseUrl")}
        />
        <span className="mt-1 text-xs text-zinc-500">Blank uses OPENAI_COMPATIBLE_BASE_URL.</span>
        <FieldError state={state} field="openaiCompatibleBaseUrl" />
      </label>
      <div className="flex flex-col text-sm">
        <label className="flex flex-col">
          <span className="mb-1 text-zinc-600">OpenAI-compatible API key</span>
          <input
            name="openaiCompatibleApiKey"
            type="password"
            defaultValue=""
            placeholder={saved.openaiCompatibleApiKeySet ? "•••••••• (saved)" : ""}
            autoComplete="new-password"
            spellCheck={false}
            className="rounded border border-zinc-300 px-3 py-2"
            {...invalid("openaiCompatibleApiKey")}
            aria-describedby={`openaiCompatibleApiKey-status${fieldError(state, "openaiCompatibleApiKey") ? " openaiCompatibleApiKey-error" : ""}`}
          />
        </label>
        <span id="openaiCompatibleApiKey-status" data-testid="compaction-key-status" className="mt-1 text-xs text-zinc-500">
          {keyStatus}
        </span>
        <FieldError state={state} field="openaiCompatibleApiKey" />
        {saved.openaiCompatibleApiKeySet && (
          <label className="mt-2 inline-flex items-center gap-2 text-sm">
            <input type="checkbox" name="clearOpenaiCompatibleApiKey" />
            <span>Remove the saved API key</span>
          </label>
        )}
      </div>
      <FormSubmitRow state={state} pending={pending} label="Save model settings" busyLabel="Saving…" className="sm:col-span-2" />
    </form>
  );
}
