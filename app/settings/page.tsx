import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { ApiTokens } from "@/components/settings/api-tokens";
import { People } from "@/components/settings/people";
import { ShareLinks } from "@/components/settings/share-links";
import { principalFrom, type Principal } from "@/lib/auth/principal";
import { readerOf } from "@/lib/auth/reader";
import { VisibilitySettings } from "@/components/settings/visibility-settings";
import { ownProjects, visibilityRules } from "@/lib/db/people/visibility";
import { listPeople } from "@/lib/db/people/people";
import { CustomModelForm, DeleteCustomModelButton } from "@/components/settings/custom-models";
import { LlmSettingsForm } from "@/components/settings/llm-settings";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import { describeTimeout } from "@/lib/domain/threads/expiry";
import { serverSettings } from "@/lib/env";
import { describeLlmConfig, type ModelSettingDescription } from "@/lib/llm/config";
import { formatCount } from "@/lib/format";
import { CATALOG_REVIEWED, listModels } from "@/lib/models/catalog";
import { listTokenizers } from "@/lib/tokenizers/registry";
import { listApiTokens } from "@/lib/db/people/api-tokens";
import { apiTokenKeys } from "@/lib/queries/api-tokens";
import { Prefetched } from "@/lib/queries/prefetched";

export const metadata: Metadata = { title: "Settings" };

const source = (s: "env" | "default") => (s === "env" ? "from the environment" : "default");
const llmSource = (s: "env" | "settings") => (s === "env" ? "from the environment" : "saved here");

/** A default model: its spec and where it comes from, and why it is invalid when it is. */
function ModelSetting({ model, unset }: Readonly<{ model: ModelSettingDescription | null; unset: string }>) {
  if (!model) return unset;
  return (
    <>
      <span className="font-mono break-all">{model.value}</span> ({llmSource(model.source)})
      {model.error && <span className="block text-red-700">{model.error}</span>}
    </>
  );
}

export default async function SettingsPage() {
  await connection();
  const settings = serverSettings();
  const principal = settings.auth.enabled ? await principalFrom(await headers()) : null;
  const isAdmin = principal?.role === "admin";
  // With sign-in off everyone may change everything; on, only admins (the actions refuse members).
  const canChange = !settings.auth.enabled || isAdmin;
  const people = isAdmin ? await listPeople() : [];
  const custom = await listCustomModels();
  const llm = await describeLlmConfig();
  return (
    <div className="max-w-4xl space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>

      {principal && (
        <Prefetched
          prefetch={async (queryClient) =>
            // The list GET /api/tokens answers: an admin's is everyone's.
            queryClient.setQueryData(apiTokenKeys.list(), await listApiTokens(isAdmin ? null : principal.userId))
          }
        >
          <ApiTokensSection isAdmin={isAdmin} />
        </Prefetched>
      )}

      {principal && !isAdmin && (
        <p role="note" className="text-sm text-zinc-600">
          You are a member: the model, provider and custom model settings below are an admin&apos;s to change, so they are shown without
          their forms.
        </p>
      )}

      {principal && principal.role !== "viewer" && <VisibilitySection principal={principal} />}

      {isAdmin && <PeopleSection people={people} selfId={principal.userId} />}

      <ShareLinksSection isAdmin={isAdmin} signInOn={settings.auth.enabled} />

      <LimitsSection settings={settings} />
      <ModelsSection llm={llm} canChange={canChange} />
      <CustomModelsSection custom={custom} canChange={canChange} />
      <CatalogSection />
    </div>
  );
}

/** API tokens: what they are for, and the list (components/settings/api-tokens.tsx). */
function ApiTokensSection({ isAdmin }: { isAdmin: boolean }) {
  return (
    <section aria-labelledby="tokens-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="tokens-heading" className="text-lg font-semibold">
        API tokens
      </h2>
      <p className="text-sm text-zinc-600">
        Agents send a token as <code>Authorization: Bearer tl_…</code> to the REST API and to /api/mcp; it acts as{" "}
        {isAdmin ? "the person who created it" : "you"}. Revoking one refuses it at once.
      </p>
      <ApiTokens showOwner={isAdmin} />
    </section>
  );
}

/** Share links: who sees which, and the list (components/settings/share-links.tsx). */
function ShareLinksSection({ isAdmin, signInOn }: { isAdmin: boolean; signInOn: boolean }) {
  return (
    <section aria-labelledby="shares-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="shares-heading" className="text-lg font-semibold">
        Share links
      </h2>
      <p className="text-sm text-zinc-600">
        Each link shows one thread, read-only with its secrets redacted, to anyone holding it, until it expires.{" "}
        {signInOn && !isAdmin ? "These are the links you made." : "These are everyone's links."} Revoking one takes it back at once.
      </p>
      <ShareLinks />
    </section>
  );
}

/** Who reads the person's threads: their default for new ones, and per project (components/settings/visibility-settings.tsx). */
async function VisibilitySection({ principal }: { principal: Principal }) {
  const reader = (await readerOf(principal))!;
  const [rules, projects] = await Promise.all([visibilityRules(principal.userId), ownProjects(reader)]);
  return (
    <section aria-labelledby="visibility-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="visibility-heading" className="text-lg font-semibold">
        Who reads your threads
      </h2>
      <p className="mb-3 text-sm text-zinc-600">
        Your threads are yours: nobody else lists, searches or opens them until you share them with the team. Admins see every thread&apos;s
        cost and activity, not its text.
      </p>
      <VisibilitySettings defaultVisibility={rules.defaultVisibility} projects={projects} />
    </section>
  );
}

/** Who may sign in (an admin's section). */
function PeopleSection({ people, selfId }: { people: Awaited<ReturnType<typeof listPeople>>; selfId: string }) {
  return (
    <section aria-labelledby="people-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="people-heading" className="text-lg font-semibold">
        People
      </h2>
      <p className="text-sm text-zinc-600">
        Who may sign in. Admins change providers, models, sources and anyone&apos;s API tokens, and see the whole team&apos;s figures;
        members work with their own threads and read what others share; viewers only read what is shared.
      </p>
      <People people={people} selfId={selfId} />
    </section>
  );
}

/** The conversation limits the environment sets. */
function LimitsSection({ settings }: { settings: ReturnType<typeof serverSettings> }) {
  return (
    <section aria-labelledby="limits-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="limits-heading" className="text-lg font-semibold">
        Conversation limits
      </h2>
      <p className="text-sm text-zinc-600">Set by environment variables when the server starts (see docs/configuration.md).</p>
      <dl className="mt-3 grid grid-cols-1 gap-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-zinc-500">Expiry (CONVERSATION_TIMEOUT_HOURS)</dt>
        <dd data-testid="setting-timeout">
          {settings.timeoutHours.value === 0 ? "never" : `after ${describeTimeout(settings.timeoutHours.value)} without activity`} (
          {source(settings.timeoutHours.source)})
        </dd>
        <dt className="text-zinc-500">Turn limit (MAX_CONVERSATION_TURNS)</dt>
        <dd data-testid="setting-max-turns">
          {settings.maxTurns.value} turns ({source(settings.maxTurns.source)})
        </dd>
        <dt className="text-zinc-500">Body limit (THREADLINE_MAX_BODY_BYTES)</dt>
        <dd>
          {formatCount(settings.maxBodyBytes.value)} bytes ({source(settings.maxBodyBytes.source)})
        </dd>
        <dt className="text-zinc-500">File roots (THREADLINE_FILE_ROOTS)</dt>
        <dd className="break-all">
          {settings.fileRoots.length > 0 ? settings.fileRoots.join(", ") : "none: previews embed only the file snapshots stored with turns"}
        </dd>
      </dl>
    </section>
  );
}

/** The chat and compaction models, and the LLM providers with their form. */
function ModelsSection({ llm, canChange }: { llm: Awaited<ReturnType<typeof describeLlmConfig>>; canChange: boolean }) {
  const compatible = llm.providers.find((p) => p.provider === "openai-compatible");
  return (
    <section aria-labelledby="models-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="models-heading" className="text-lg font-semibold">
        Models and providers
      </h2>
      <p className="text-sm text-zinc-600">
        The LLM providers of the thread page&apos;s chat and the compaction workbench&apos;s summariser. Values saved here override the
        environment; keys are never shown.
      </p>
      <dl className="mt-3 grid grid-cols-1 gap-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-zinc-500">Default chat model ({llm.chatModelEnvVar})</dt>
        <dd data-testid="setting-chat-model">
          <ModelSetting model={llm.chatModel} unset="not set: pick a model in the composer" />
        </dd>
        <dt className="text-zinc-500">Default compaction model ({llm.compactionModelEnvVar})</dt>
        <dd data-testid="setting-compaction-model">
          <ModelSetting model={llm.compactionModel} unset="not set: choose a model for each summary" />
        </dd>
      </dl>
      {/* Wide on a phone: it scrolls in its box, the page does not. */}
      <div tabIndex={0} role="region" aria-label="LLM providers" className="mt-3 overflow-x-auto">
        <table className="w-full text-sm [&_td]:pr-3 [&_th]:pr-3">
          <thead className="text-left text-zinc-500">
            <tr>
              <th className="py-1">Provider</th>
              <th className="py-1">Status</th>
              <th className="py-1">API key</th>
              <th className="py-1">Base URL</th>
            </tr>
          </thead>
          <tbody>
            {llm.providers.map((p) => (
              <tr key={p.provider} className="border-t border-zinc-100 align-top" data-testid={`llm-provider-${p.provider}`}>
                <td className="py-1">
                  {p.label} <span className="font-mono text-xs text-zinc-500">{p.provider}</span>
                </td>
                <td className={`py-1 ${p.configured ? "text-emerald-700" : "text-zinc-500"}`}>{p.configured ? "configured" : p.problem}</td>
                <td className="py-1">
                  {p.apiKey.set
                    ? `set (${p.apiKey.source === "settings" ? "saved here" : p.apiKey.envVar})`
                    : `not set (${p.apiKey.envVar})`}
                </td>
                <td className="py-1 font-mono text-xs break-words">
                  {p.baseUrl
                    ? `${p.baseUrl.value} (${p.baseUrl.source === "settings" ? "saved here" : p.baseUrlEnvVar})`
                    : p.provider === "openai-compatible"
                      ? "not set"
                      : "default"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canChange && <LlmSettingsForm saved={llm.saved} apiKeyFromEnv={compatible?.apiKey.source === "env"} />}
    </section>
  );
}

/** Models the catalog lacks, with the form that adds one. */
function CustomModelsSection({ custom, canChange }: { custom: Awaited<ReturnType<typeof listCustomModels>>; canChange: boolean }) {
  const tokenizers = listTokenizers().map((t) => ({ id: t.id, label: `${t.label}${t.exact ? "" : " (estimate)"}` }));
  return (
    <section aria-labelledby="custom-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="custom-heading" className="text-lg font-semibold">
        Custom models
      </h2>
      <p className="text-sm text-zinc-600">
        Models the catalog lacks (a fine-tune, a local model with a different window). Budget previews use them by name.
      </p>
      {custom.length > 0 ? (
        <table className="stack-on-phone mt-3 w-full text-sm [&_td]:pr-3 [&_th]:pr-3">
          <thead className="text-left text-zinc-500">
            <tr>
              <th className="py-1">Name</th>
              <th className="py-1 text-right">Window</th>
              <th className="py-1 text-right">Max output</th>
              <th className="py-1">Tokenizer</th>
              <th className="py-1 text-right">In / out</th>
              {canChange && <th />}
            </tr>
          </thead>
          <tbody>
            {custom.map((m) => (
              <tr key={m.id} className="border-t border-zinc-100">
                <td className="py-1 font-mono break-all">{m.displayName}</td>
                <td className="py-1 text-right" data-label="Window">
                  {m.contextWindow.toLocaleString("en-US")}
                </td>
                <td className="py-1 text-right" data-label="Max output">
                  {m.maxOutputTokens.toLocaleString("en-US")}
                </td>
                <td className="py-1" data-label="Tokenizer">
                  {m.tokenizer}
                </td>
                <td
                  className="py-1 text-right"
                  data-label="In / out"
                  title="USD per million tokens; responses of this model are priced with them"
                >
                  {m.inputPricePerMTok === null ? "—" : `$${m.inputPricePerMTok} / $${m.outputPricePerMTok ?? "?"}`}
                </td>
                {canChange && (
                  <td className="py-1 text-right">
                    <DeleteCustomModelButton name={m.displayName} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="mt-2 text-sm text-zinc-500">None yet.</p>
      )}
      {canChange && <CustomModelForm tokenizers={tokenizers} />}
    </section>
  );
}

/** The built-in catalog: every model's window, output and prices. */
function CatalogSection() {
  const catalog = listModels().filter((m) => m.source !== "custom");
  return (
    <section aria-labelledby="catalog-heading" className="rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="catalog-heading" className="text-lg font-semibold">
        Model catalog
      </h2>
      <p className="text-sm text-zinc-600">
        {catalog.length} models, data reviewed {CATALOG_REVIEWED}. Prices are USD per million tokens.
      </p>
      <div tabIndex={0} role="region" aria-label="Model prices" className="mt-2 max-h-96 overflow-auto">
        <table className="w-full text-sm [&_td]:pr-3 [&_th]:pr-3">
          <thead className="sticky top-0 bg-white text-left text-zinc-500">
            <tr>
              <th className="py-1">Model</th>
              <th className="py-1">Provider</th>
              <th className="py-1 text-right">Window</th>
              <th className="py-1 text-right">Max output</th>
              <th className="py-1">Tokenizer</th>
              <th className="py-1 text-right">In / out</th>
            </tr>
          </thead>
          <tbody>
            {catalog.map((m) => (
              <tr key={`${m.provider}:${m.id}`} className="border-t border-zinc-100">
                <td className="py-1 font-mono">{m.id}</td>
                <td className="py-1">{m.provider}</td>
                <td className="py-1 text-right">{formatCount(m.contextWindow)}</td>
                <td className="py-1 text-right">{formatCount(m.maxOutputTokens)}</td>
                <td className="py-1">
                  {m.tokenizer}
                  {m.exactTokenizer ? "" : " ≈"}
                </td>
                <td className="py-1 text-right">
                  {m.inputPricePerMTok === null ? "—" : `$${m.inputPricePerMTok} / $${m.outputPricePerMTok ?? "?"}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-zinc-500">≈ marks a calibrated estimate rather than the model&apos;s own tokenizer.</p>
    </section>
  );
}
